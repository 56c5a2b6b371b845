"""A player's profile page's reads: presence, the page of their matches, the count of deleted accounts
(their arenas: games.tournaments.selectors.player_arenas; their ratings: ratings.selectors)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.live import online
from games.models import BLUE, PINK, Match
from ratings.models import RatingChange
from ratings.selectors import changes_for_matches

PER_PAGE = 20


def presence_of(user: User) -> dict[str, Any]:
    """What a profile shows: ``{"online": bool, "last_seen": datetime | None, "just_now": bool,
        "playing": match id | None}`` (``just_now``: seen less than a minute ago, "przed chwilą" rather
        than "0 minut temu"; ``playing``: while they are online, the game they are playing now, to
    watch: SPEC, issue 38);
        an invisible player shows none of them."""
    if user.invisible:
        return {"online": False, "last_seen": None, "just_now": False, "playing": None}
    just_now = user.last_seen is not None and timezone.now() - user.last_seen < timedelta(minutes=1)
    is_online = online.is_online(user.pk)
    # Only while online (no query otherwise: a repeat view of a profile stays at its queries).
    playing = (
        Match.objects.filter(Q(pink_id=user.pk) | Q(blue_id=user.pk), status=Match.Status.ACTIVE)
        .order_by("-created_at")
        .values_list("pk", flat=True)
        .first()
        if is_online
        else None
    )
    return {"online": is_online, "last_seen": user.last_seen, "just_now": just_now, "playing": playing}


@dataclass
class MatchesPage:
    """A page without a COUNT: one extra row tells whether an older page exists
    (a count of 10 000 matches cost more than the rest of the query)."""

    object_list: list[int]  # the page's match ids
    number: int
    has_next: bool
    paginator: None = None

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    def has_other_pages(self) -> bool:
        return self.has_previous or self.has_next

    def previous_page_number(self) -> int:
        return self.number - 1

    def next_page_number(self) -> int:
        return self.number + 1


def side_query(user_id: int, side: int, variant: str, result: str) -> QuerySet[Match, tuple[datetime, int]]:
    """One colour's matches of the player, as (created_at, id): the (colour, -created_at) index serves it."""
    qs = Match.objects.filter(status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
    qs = qs.filter(pink_id=user_id) if side == PINK else qs.filter(blue_id=user_id)
    if variant:
        qs = qs.filter(variant=variant)
    if result:
        mine, theirs = (PINK, BLUE) if side == PINK else (BLUE, PINK)
        qs = qs.filter(status=Match.Status.FINISHED, counts=True)  # a game that does not count is no result
        qs = {"win": qs.filter(winner=mine), "loss": qs.filter(winner=theirs), "draw": qs.filter(winner__isnull=True)}[
            result
        ]
    return qs.order_by().values_list("created_at", "id")


def matches_page(user_id: int, variant: str, result: str, number: int) -> MatchesPage:
    """A page of the player's matches, newest first, in two small queries.

    The ids come from a UNION ALL of the pink and the blue side, each read in
    index order (PostgreSQL merges them and stops after the page: no sort of
    10 000 wide rows, no COUNT); then the page's rows with both players.
    """
    start = (number - 1) * PER_PAGE
    end = start + PER_PAGE + 1
    pink, blue = side_query(user_id, PINK, variant, result), side_query(user_id, BLUE, variant, result)
    if connection.features.supports_slicing_ordering_in_compound:
        # PostgreSQL does not push the outer LIMIT into the branches: without these it
        # read and sorted all 10 000 rows (10 ms); with them each side stops after ``end`` index rows.
        pink, blue = (q.order_by("-created_at", "-id")[:end] for q in (pink, blue))
    union = pink.union(blue, all=True)
    ids = [pk for _at, pk in union.order_by("-created_at", "-id")[start:end]]
    if not ids and number > 1:  # past the end: the last page (a count only in this rare case)
        total = sum(side_query(user_id, side, variant, result).count() for side in (PINK, BLUE))
        last = max(1, -(-total // PER_PAGE))
        return matches_page(user_id, variant, result, last) if last < number else MatchesPage([], number, False)
    return MatchesPage(ids[:PER_PAGE], number, len(ids) > PER_PAGE)


def page_matches(user_id: int, ids: list[int]) -> tuple[list[Match], dict[int, RatingChange]]:
    """The page's matches (``ids``, newest first) with both players, and the player's rating
    changes in them by match id: two queries."""
    matches = {m.pk: m for m in Match.objects.filter(pk__in=ids).select_related("pink", "blue")}
    changes = changes_for_matches(ids, user_id)
    return [matches[pk] for pk in ids if pk in matches], changes


def deleted_accounts() -> int:
    """How many accounts were deleted (an indexed count: part of the profile's list's cache key)."""
    return User.objects.filter(is_deleted=True).count()
