"""The lobby (/graj/) and the ranked queue pages (/graj/kolejka/...).

Thin views: they read through the selectors, or call one matchmaking service.
A waiting player's page polls a small status partial (htmx, every second)
that shows the time waited and answers ``HX-Redirect`` to the match the moment
they are paired.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.decorators import AuthenticatedHttpRequest, account_required
from games import catalogue, selectors
from games.play import matchmaking
from games.selectors import lobby as lobby_reads
from kropki_site.lib.refusals import Refusal

LIST_LIMIT = lobby_reads.LIST_LIMIT


def _elapsed(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _lobby_lists(request: HttpRequest) -> dict[str, Any]:
    sizes = selectors.queue_sizes()
    challenges = lobby_reads.listed_challenges(LIST_LIMIT)
    live = lobby_reads.live_matches(LIST_LIMIT)
    return {
        "queues": [
            {"key": key, "name": catalogue.variant_name(key), "waiting": sizes[key]} for key in catalogue.variant_keys()
        ],
        "waiting_total": sum(sizes.values()),
        "challenges": challenges,
        "live_matches": live,
    }


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    status = selectors.queue_status(request.user)
    context = _lobby_lists(request)
    context.update({"variants": catalogue.variant_choices(), "in_queue": bool(status.waiting)})
    # Who is online (docs/social.md): first paint here; site.js keeps it current from the site socket.
    first = catalogue.variant_keys()[0]
    context["online_players"] = [{**p, "rating": p["ratings"][first]} for p in selectors.online_players()]
    # "Nobody else" only for a member (they may be on the list themselves); "Nobody" for visitors.
    me = request.user.username if request.user.is_authenticated and not request.user.is_guest else None
    context["online_others"] = any(p["name"] != me for p in context["online_players"])
    context["online_member"] = me is not None
    return render(request, "games/lobby.html", context)


@require_GET
def lobby_lists(request: HttpRequest) -> HttpResponse:
    """The lobby's live part (queue sizes, open challenges, live matches), polled every 5 s."""
    return render(request, "games/_lobby_lists.html", _lobby_lists(request))


@account_required
@require_POST
def queue_join(request: AuthenticatedHttpRequest) -> HttpResponse:
    choice = request.POST.get("variant", "")
    variants = catalogue.variant_keys() if choice == "all" else [choice]
    try:
        matchmaking.seek_create(user=request.user, variants=variants)
    except Refusal as exc:
        if exc.code == "queue_cooldown":  # the queue page says why and until when
            return render(request, "games/queue.html", _queue_context(request), status=429)
        messages.error(request, exc.message)
        return redirect("lobby")
    return redirect("queue")


@login_required
@require_POST
def queue_cancel(request: HttpRequest) -> HttpResponse:
    matchmaking.seek_cancel(user=request.user)
    status = selectors.queue_status(request.user)
    if status.match_id is not None:  # paired a moment before the click
        return redirect("match", match_id=status.match_id)
    return redirect("lobby")


def _queue_context(request: HttpRequest) -> dict[str, Any]:
    status = selectors.queue_status(request.user)
    now = timezone.now()
    user_id = request.user.pk
    until = matchmaking.queue_cooldown_until(user_id, now=now) if user_id is not None and not status.waiting else None
    return {
        "cooldown": matchmaking.cooldown_message(until, now) if until else "",
        "status": status,
        "waiting": [{"name": catalogue.variant_name(s.variant), "key": s.variant} for s in status.waiting],
        "elapsed": _elapsed((now - status.since).total_seconds()) if status.since else "0:00",
    }


@login_required
@require_GET
def queue_page(request: HttpRequest) -> HttpResponse:
    context = _queue_context(request)
    if context["status"].match_id is not None:
        return redirect("match", match_id=context["status"].match_id)
    return render(request, "games/queue.html", context)


@login_required
@require_GET
def queue_status(request: HttpRequest) -> HttpResponse:
    """The polled partial: elapsed time while waiting; HX-Redirect to the match once paired."""
    context = _queue_context(request)
    match_id = context["status"].match_id
    if match_id is not None:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("match", args=[match_id])
        return response
    if not context["status"].waiting:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("lobby")
        return response
    return render(request, "games/_queue_status.html", context)
