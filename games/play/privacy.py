"""Deleting an account (docs/privacy.md): one transaction, then the sockets close.

What goes: the player's chat lines, the reports they made, their challenges (sent
or received) and places in the ranked queue, their ratings (off the rankings) and,
through ``accounts.services.user_anonymise``, their blocks, e-mail, password and
settings. What stays: the User row, emptied and flagged ``is_deleted`` (shown as
"deleted account"), so every match keeps both its players, its result and its
rating changes; no opponent's rating moves. A match still in progress is resigned
first (as if the player pressed "Resign"). Reports about the player stay for staff.
The features hear it (``games.hooks.account_deleted``): an arena withdraws the account
from those not over, for good.
"""

from __future__ import annotations

import contextlib

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from accounts.services import user_anonymise
from games import hooks
from games.models import Challenge, ChatMessage, Match, Report, Seek
from kropki_site.lib.refusals import Refusal
from ratings.services import ratings_forget_user

from .offers import match_resign


def account_delete(*, user_id: int) -> User:
    """Delete the account ``user_id`` as above; the caller checked the password."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id, is_deleted=False, is_guest=False)
        active = Match.objects.filter(Q(pink_id=user_id) | Q(blue_id=user_id), status=Match.Status.ACTIVE)
        for match_id in active.values_list("pk", flat=True):
            with contextlib.suppress(Refusal):  # finished meanwhile (a timeout, the other player resigned)
                match_resign(match_id=match_id, user_id=user_id)
        ChatMessage.objects.filter(author_id=user_id).delete()
        Report.objects.filter(reporter_id=user_id).delete()
        Challenge.objects.filter(Q(creator_id=user_id) | Q(target_id=user_id)).delete()
        Seek.objects.filter(user_id=user_id).delete()
        ratings_forget_user(user_id=user_id)
        hooks.run_account_deleted(user_id)  # the features let go of it (an arena withdraws it)
        return user_anonymise(user=user)
