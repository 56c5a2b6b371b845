"""Following's pages: follow and stop following (POST forms on a profile, CSRF), the players
one follows and who follows one (docs/social.md "Following")."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.decorators import AuthenticatedHttpRequest, account_required
from games import catalogue
from kropki_site.lib.refusals import Refusal

from . import selectors, services


@account_required
@require_POST
def follow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    try:
        player = services.follow(follower=request.user, username=username)
    except Refusal as exc:
        messages.error(request, exc.message)
        if exc.code == "follow_no_player":
            return redirect("following")
        return redirect("profile", username=username)
    messages.success(request, _("You follow %(name)s.") % {"name": player.username})
    return redirect("profile", username=player.username)


@account_required
@require_POST
def unfollow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    if services.unfollow(follower=request.user, username=username):
        messages.success(request, _("You no longer follow %(name)s.") % {"name": username})
    return redirect("profile", username=username)


@account_required
@require_GET
def following(request: AuthenticatedHttpRequest) -> HttpResponse:
    results = {"win": _("won"), "draw": _("drew"), "loss": _("lost")}
    rows = selectors.following_of(request.user.pk)
    for row in rows:  # worded here: a template cannot look a key up in a dict
        for recent in row.recent:
            recent.result = results[recent.result]
            recent.variant = str(catalogue.variant_name(recent.variant))
    return render(request, "games/following.html", {"rows": rows, "followers": selectors.counts(request.user.pk)[1]})


@account_required
@require_GET
def followers(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "games/followers.html", {"rows": selectors.followers_of(request.user.pk)})
