"""Challenges: a private link or an open challenge in the lobby, accepted by
another account; colours are drawn at random."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import catalogue
from games.errors import MatchError
from games.live import transport
from games.models import Challenge, Match

from .creating import match_create


def require_account(user_id: int | None) -> None:
    """Challenges and ranked play need a real account, not a guest."""
    if user_id is None:
        raise MatchError("login_required")
    if User.objects.filter(pk=user_id, is_guest=True).exists():
        raise MatchError("account_required")


def challenge_create(*, user_id: int, variant: str, rated: bool, listed: bool = False) -> Challenge:
    """A private link (``listed`` false) or an open challenge in the lobby. A user has at most
    ``CHALLENGES_OPEN_PER_USER`` open at once and creates at most ``CHALLENGES_PER_HOUR`` an hour
    (so creating and cancelling does not fill the database either)."""
    require_account(user_id)
    if variant not in catalogue.variant_keys():
        raise MatchError("unknown_variant")
    with transaction.atomic():
        # the creator's row lock orders one user's creations (the counts below stay true)
        User.objects.select_for_update().filter(pk=user_id).values_list("pk").first()
        now = timezone.now()
        mine = Challenge.objects.filter(creator_id=user_id)
        if mine.filter(Challenge.open_q(now)).count() >= settings.CHALLENGES_OPEN_PER_USER:
            raise MatchError("too_many_challenges")
        if mine.filter(created_at__gt=now - timedelta(hours=1)).count() >= settings.CHALLENGES_PER_HOUR:
            raise MatchError("challenges_too_often")
        return Challenge.objects.create(creator_id=user_id, variant=variant, rated=rated, listed=listed)


def challenge_accept(*, token: Any, user_id: int | None) -> Match:
    """Accept an open challenge: colours are drawn at random."""
    require_account(user_id)
    with transaction.atomic():
        try:
            challenge = Challenge.objects.select_for_update().get(token=token)
        except (Challenge.DoesNotExist, ValidationError, ValueError, TypeError):
            raise MatchError("challenge_not_open") from None
        if challenge.status != Challenge.Status.OPEN:
            raise MatchError("challenge_not_open")
        if challenge.is_expired:
            raise MatchError("challenge_expired")
        if challenge.creator_id == user_id:
            raise MatchError("own_challenge")
        players = [challenge.creator_id, user_id]
        random.shuffle(players)
        match = match_create(variant=challenge.variant, pink_id=players[0], blue_id=players[1], rated=challenge.rated)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.match = match
        challenge.save(update_fields=["status", "match"])
        token_str = str(challenge.token)
        transaction.on_commit(lambda: transport.send_challenge_accepted(token_str, match.pk))
        return match


def challenge_cancel(*, token: Any, user_id: int) -> None:
    with transaction.atomic():
        updated = Challenge.objects.filter(token=token, creator_id=user_id, status=Challenge.Status.OPEN).update(
            status=Challenge.Status.CANCELLED
        )
    if not updated:
        raise MatchError("challenge_not_open")
