"""The lobby's and the ranked queue's reads: the player's queue entries, the queues' sizes,
the listed challenges and the live matches, a challenge by its link."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count

from accounts.models import User
from games import catalogue
from games.models import Challenge, Match, Seek

LIST_LIMIT = 30


@dataclass(frozen=True)
class QueueStatus:
    waiting: list[Seek]  # the player's entries, oldest first
    match_id: int | None  # the match they were paired into, while it is on

    @property
    def since(self) -> datetime | None:
        return self.waiting[0].created_at if self.waiting else None


def queue_status(user: User | AnonymousUser | None) -> QueueStatus:
    """What the queue page shows ``user``: their waiting entries, or the match they got."""
    if user is None or not user.is_authenticated:
        return QueueStatus([], None)
    seeks = list(
        Seek.objects.filter(user=user)
        .exclude(status=Seek.Status.CANCELLED)
        .select_related("match")
        .order_by("created_at", "pk")
    )
    waiting = [s for s in seeks if s.status == Seek.Status.WAITING]
    matched = [s.match for s in seeks if s.status == Seek.Status.MATCHED and s.match and s.match.is_active]
    match_id = max(matched, key=lambda m: m.created_at).pk if matched and not waiting else None
    return QueueStatus(waiting, match_id)


def queue_sizes() -> dict[str, int]:
    """How many players wait in each variant's queue (one query)."""
    counts = dict(
        Seek.objects.filter(status=Seek.Status.WAITING)
        .values_list("variant")
        .annotate(n=Count("id"))
        .values_list("variant", "n")
    )
    return {v: counts.get(v, 0) for v in catalogue.variant_keys()}


def listed_challenges(limit: int = LIST_LIMIT) -> list[Challenge]:
    """The lobby's open challenges, newest first, with their creators: never a private link,
    nor an expired one (one query)."""
    return list(
        Challenge.objects.filter(Challenge.open_q(), listed=True)
        .select_related("creator")
        .order_by("-created_at")[:limit]
    )


def live_matches(limit: int = LIST_LIMIT) -> list[Match]:
    """The lobby's matches in play, newest first, with both players (one query). A match with an
    invisible player is not listed, as on the home page (games.selectors.home.live_summary): it
    would say they are online and name them (issue 37 item 10 b); the computer is never invisible."""
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, days__isnull=True)  # live games (not correspondence)
        .exclude(pink__invisible=True)
        .exclude(blue__invisible=True)
        .select_related("pink", "blue")
        .order_by("-created_at")[:limit]
    )


def challenge_page_row(token: uuid.UUID) -> Challenge | None:
    """The challenge behind a link, with its creator and its match (one query)."""
    return Challenge.objects.select_related("creator", "match").filter(token=token).first()


def challenge_row(token: uuid.UUID) -> Challenge | None:
    """The challenge behind a link, alone (one query)."""
    return Challenge.objects.filter(token=token).first()
