"""Bot accounts (docs/api.md "Bot accounts"): an account an engine plays through the API.

Lichess' rules: only an account that has never played may become a bot, and it stays one.
A bot plays only by direct challenge (it may challenge and accept): never in the ranked
queue, never through a link or lobby challenge, never against the site's computer. Its games
are rated in the same pools; the person playing it gains or loses half of what the rating
system says (``finishing.rate``), the bot the whole of it.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from games.models import Challenge, Match, Seek
from kropki_site.lib.refusals import Refusal


def is_bot(user_id: int | None) -> bool:
    return user_id is not None and User.objects.filter(pk=user_id, is_bot=True).exists()


def require_not_bot(user_id: int | None) -> None:
    """Refuse a bot what only people do (the ranked queue, link challenges, the computer)."""
    if is_bot(user_id):
        raise Refusal("bot_account")


def bot_ids(user_ids: list[int]) -> set[int]:
    """Which of ``user_ids`` are bots (one query)."""
    return set(User.objects.filter(pk__in=[u for u in user_ids if u], is_bot=True).values_list("pk", flat=True))


def user_become_bot(*, user_id: int) -> User:
    """Turn ``user_id`` into a bot account, for good. Refused (``has_games``) once it has played,
    queued or challenged: a bot's rating starts with its first bot game. Guests: ``account_required``."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if user.is_guest:
            raise Refusal("account_required")
        if user.is_bot:
            return user
        if (
            Match.objects.filter(Q(pink_id=user_id) | Q(blue_id=user_id)).exists()
            or Seek.objects.filter(user_id=user_id).exists()
            or Challenge.objects.filter(
                Q(creator_id=user_id) | Q(target_id=user_id), status=Challenge.Status.OPEN
            ).exists()
        ):
            raise Refusal("has_games")
        user.is_bot = True
        user.save(update_fields=["is_bot"])
    return user
