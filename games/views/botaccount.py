"""Turning an account into a bot from the settings page (docs/api.md "Bot accounts")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.decorators import AuthenticatedHttpRequest
from games.play.botaccounts import user_become_bot
from kropki_site.lib.refusals import Refusal


@login_required
@require_POST
def become_bot(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The account becomes a bot, for good; refused once it has played (``has_games``)."""
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: a bot account cannot become a person's again."))
        return redirect("account_settings")
    try:
        user_become_bot(user_id=request.user.pk)
    except Refusal as exc:
        messages.error(request, exc.message)
        return redirect("account_settings")
    messages.success(request, _("This account is now a bot. Make a token with the bot:play scope for its engine."))
    return redirect("account_settings")
