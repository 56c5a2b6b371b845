"""The Swiss tournaments' pages (docs/tournaments.md "Swiss"): the list with the form that makes
one, a tournament's page (rounds, boards, standings, join / withdraw), its state as JSON, and
the buttons. Thin: each reads the rows or calls one service of services.py."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts.decorators import AuthenticatedHttpRequest
from games import catalogue
from kropki_site.lib.refusals import Refusal

from ..views import _done, _int, _refused, json_account  # the arenas' form numbers, refusals and answers
from . import services
from .models import SwissBoard, SwissPlayer, SwissTournament

LIST_LIMIT = 20


def points(value: int, unit: int) -> str:
    """``value`` in 1/``unit`` points as text: 3 half points "1½", 5 quarter points "1¼"."""
    whole, part = divmod(value, unit)
    fraction = {0: "", 1: "¼", 2: "½", 3: "¾"}[part * 4 // unit]
    return f"{whole}{fraction}" if whole or not fraction else fraction


def _visible(request: HttpRequest, tournament_id: int) -> SwissTournament:
    """The tournament, if this visitor may see it: listed, or its key (``?klucz=``), or its
    maker or a player; else 404 (as for an id with none)."""
    t = SwissTournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise Http404
    if t.public or request.GET.get("klucz") == str(t.token):
        return t
    uid = request.user.pk if request.user.is_authenticated else None
    if uid is not None and (t.creator_id == uid or SwissPlayer.objects.filter(tournament=t, user_id=uid).exists()):
        return t
    raise Http404


def swiss_url(t: SwissTournament) -> str:
    url = reverse("swiss", args=[t.pk])
    return url if t.public else f"{url}?klucz={t.token}"


@require_GET
def swiss_list(request: HttpRequest) -> HttpResponse:
    listed = SwissTournament.objects.filter(public=True)
    context: dict[str, Any] = {
        "running": listed.filter(status=SwissTournament.Status.RUNNING)[:LIST_LIMIT],
        "upcoming": listed.filter(status=SwissTournament.Status.UPCOMING)[:LIST_LIMIT],
        "finished": listed.filter(status=SwissTournament.Status.FINISHED).order_by("-starts_at")[:LIST_LIMIT],
        "variants": catalogue.variant_games(),
        "game_options": catalogue.option_fields(),
        "rounds": services.ROUNDS,
        "delays": services.START_DELAYS,
        "clocks": services.MOVE_CLOCKS,
        "pauses": services.PAUSES,
        "can_create": request.user.is_authenticated and not getattr(request.user, "is_guest", False),
    }
    return render(request, "tournaments/swiss/list.html", context)


@json_account
@require_POST
def swiss_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    post = request.POST
    try:
        t = services.swiss_create(
            user=request.user,
            variant=post.get("variant", ""),
            rounds=_int(post.get("rounds", ""), -1),
            start_in_minutes=_int(post.get("start", ""), -1),
            move_seconds=_int(post.get("move_seconds", ""), -1),
            pause_seconds=_int(post.get("pause_seconds", ""), -1),
            rated=post.get("rated") == "1",
            public=post.get("public") == "1",
            name=post.get("name", ""),
            options=post.dict(),
        )
    except Refusal as exc:
        return _refused(request, exc, redirect("swiss_list"))
    return _done(request, redirect(swiss_url(t)), id=t.pk, url=swiss_url(t))


@require_GET
def swiss_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _visible(request, tournament_id)
    uid = request.user.pk if request.user.is_authenticated else None
    me = SwissPlayer.objects.filter(tournament=t, user_id=uid).first() if uid else None
    key = request.GET.get("klucz", "") if not t.public else ""
    rounds: dict[int, list[tuple[SwissBoard, str]]] = {}
    for b in SwissBoard.objects.filter(tournament=t).select_related("pink", "blue").order_by("-round", "board"):
        result = "" if b.pink_points is None else f"{points(b.pink_points, 2)}:{points(b.blue_points or 0, 2)}"
        if b.blue_id is None:
            result = ""  # a bye says so itself
        rounds.setdefault(b.round, []).append((b, result))
    context: dict[str, Any] = {
        "t": t,
        "variant_name": catalogue.variant_name(t.variant),
        "options": catalogue.options_words(t.variant, t.params),
        "me": me,
        "lines": [
            (e, points(e.score, 2), points(e.sonneborn_berger, 4), points(e.buchholz, 2))
            for e in SwissPlayer.objects.filter(tournament=t, user__fair_play_mark="").select_related("user")
        ],
        "rounds": sorted(rounds.items(), reverse=True),
        "key": key,
        "may_join": t.status != SwissTournament.Status.FINISHED and t.current_round < services.JOIN_UNTIL_ROUND,
        "live": {
            "id": t.pk,
            "state": reverse("swiss_state", args=[t.pk]) + (f"?klucz={t.token}" if key else ""),
            "me": getattr(request.user, "username", ""),
            "profile": reverse("profile", args=["_"])[:-2],
            "match_prefix": reverse("match", args=[0])[:-2],
            "words": _live_words(),
        },
    }
    return render(request, "tournaments/swiss/page.html", context)


def _live_words() -> dict[str, str]:
    """static/js/swiss.js's words for what it draws from a ``swiss`` frame (the template's own)."""
    return {
        "round_of": gettext("Round %(round)s of %(rounds)s"),
        "round": gettext("Round %(round)s"),
        "bye": gettext("bye"),
        "forfeit": gettext("forfeit"),
        "withdrawn": gettext("withdrawn"),
        "deleted": gettext("deleted account"),
    }


@require_GET
def swiss_state(request: HttpRequest, tournament_id: int) -> JsonResponse:
    return JsonResponse(services.swiss_frame(_visible(request, tournament_id)))


def _button(request: AuthenticatedHttpRequest, tournament_id: int, action: Any) -> HttpResponse:
    t = _visible(request, tournament_id)
    try:
        action(tournament_id=t.pk, user=request.user)
    except Refusal as exc:
        return _refused(request, exc, redirect(swiss_url(t)))
    return _done(request, redirect(swiss_url(t)), id=t.pk)


@json_account
@require_POST
def swiss_join_view(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _button(request, tournament_id, services.swiss_join)


@json_account
@require_POST
def swiss_withdraw_view(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _button(request, tournament_id, services.swiss_withdraw)
