"""Blocking a player from their profile (docs/social.md "Block"): two POST forms (CSRF),
each one call into ``accounts.blocks`` (a block also cancels their challenges and ends
following both ways); back to the profile with a message."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.blocks import block_create, block_delete
from accounts.decorators import AuthenticatedHttpRequest, account_required
from accounts.models import User
from games.following.services import forget_between
from games.play.challenges import challenges_cancel_on_block
from games.selectors.social import player_by_name


def _player(username: str) -> User:
    # (A NUL never gets here: the URL's converter, accounts.usernames.UsernameConverter.)
    player = player_by_name(username)
    if player is None:
        raise Http404
    return player


@account_required
@require_POST
def block(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    player = _player(username)
    if player.pk == request.user.pk:
        messages.error(request, _("You cannot block yourself."))
    else:
        block_create(blocker=request.user, blocked=player)
        challenges_cancel_on_block(blocker_id=request.user.pk, blocked_id=player.pk)
        forget_between(request.user.pk, player.pk)  # neither follows the other any more
        messages.success(
            request,
            _(
                "You blocked %(name)s: they cannot challenge you or write to you, and the ranked queue does not pair you for 24 hours."
            )
            % {"name": player.username},
        )
    return redirect("profile", username=player.username)


@account_required
@require_POST
def unblock(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    player = _player(username)
    if block_delete(blocker=request.user, blocked_id=player.pk):
        messages.success(request, _("You unblocked %(name)s.") % {"name": player.username})
    return redirect("profile", username=player.username)
