"""Challenges by link: create one, its page (live: the creator hears when it is
accepted), accept, cancel."""

from __future__ import annotations

import uuid
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import AuthenticatedHttpRequest, account_required
from games import catalogue, play
from games.models import Challenge
from games.selectors import lobby as lobby_reads
from kropki_site.lib.refusals import Refusal


def _parse_token(token: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(token))
    except ValueError:
        raise Http404 from None


@account_required
@require_http_methods(["GET", "POST"])
def challenge_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        variant = request.POST.get("variant", "")
        rated = request.POST.get("mode") == "rated"
        listed = request.POST.get("kind") == "lobby"  # the default: a private link
        try:
            challenge = play.challenge_create(
                user_id=request.user.pk,
                variant=variant,
                rated=rated,
                listed=listed,
                options=request.POST.dict(),
                days=request.POST.get("days"),
            )
        except Refusal as exc:
            error = exc.message
        else:
            return redirect("challenge", token=challenge.token)
    return render(
        request,
        "games/challenge_new.html",
        {
            "variants": catalogue.variant_games(),
            "days_choices": catalogue.CORRESPONDENCE_DAYS,
            "chosen_days": request.POST.get("days", "") if error else "",
            "chosen_variant": request.POST.get("variant", "") if error else "",
            "game_options": catalogue.option_fields(request.POST.dict() if error else None),
            "error": error,
            "ttl_minutes": settings.CHALLENGE_TTL_MINUTES,
        },
        status=400 if error else 200,
    )


@require_GET
def challenge_page(request: HttpRequest, token: str) -> HttpResponse:
    """Open to everyone: a visitor without an account sees who challenges them
    and to what, and signs up (or logs in) straight back to this page."""
    challenge = lobby_reads.challenge_page_row(_parse_token(token))
    if challenge is None:
        raise Http404
    is_creator = request.user.is_authenticated and challenge.creator_id == request.user.pk
    if challenge.status == Challenge.Status.ACCEPTED and challenge.match_id:
        match = challenge.match
        if match is not None and match.side_of(request.user.pk) is not None:
            return redirect("match", match_id=challenge.match_id)
    link = request.build_absolute_uri(reverse("challenge", args=[challenge.token]))
    back = urlencode({"next": request.get_full_path()})
    return render(
        request,
        "games/challenge.html",
        {
            "challenge": challenge,
            "is_creator": is_creator,
            "link": link,
            "needs_account": not request.user.is_authenticated or getattr(request.user, "is_guest", False),
            "signup_url": f"{reverse('signup')}?{back}",
            "login_url": f"{reverse('login')}?{back}",
            "rules_url": reverse("rules", args=[catalogue.variant(challenge.variant).rules_slug]),
        },
    )


@account_required
@require_POST
def challenge_accept_view(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    try:
        match = play.challenge_accept(token=_parse_token(token), user_id=request.user.pk)
    except Refusal as exc:
        messages.error(request, exc.message)
        return redirect("challenge", token=token)
    return redirect("match", match_id=match.pk)


@login_required
@require_POST
def challenge_cancel_view(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    try:
        play.challenge_cancel(token=_parse_token(token), user_id=request.user.pk)
    except Refusal as exc:
        messages.error(request, exc.message)
    return redirect("challenge", token=token)


@login_required
@require_GET
def challenge_status(request: HttpRequest, token: str) -> HttpResponse:
    """Polled by the creator's page (htmx, every 2 s): 204 while open; a redirect once accepted."""
    challenge = lobby_reads.challenge_row(_parse_token(token))
    if challenge is None:
        raise Http404
    if challenge.status == Challenge.Status.ACCEPTED and challenge.match_id:
        url = reverse("match", args=[challenge.match_id])
        response = HttpResponse(status=200)
        response["HX-Redirect"] = url
        return response
    if challenge.status == Challenge.Status.CANCELLED or challenge.is_expired:
        response = HttpResponse(status=200)
        response["HX-Refresh"] = "true"
        return response
    return HttpResponse(status=204)
