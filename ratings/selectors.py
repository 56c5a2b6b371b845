"""Reading ratings: one query each, whatever the number of games played."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Case, F, QuerySet, Value, When
from django.db.models.functions import Lower

from accounts.models import User
from ratings import glicko2
from ratings.models import Rating, RatingChange


def _default(user_id: int | None, variant: str) -> Rating:
    return Rating(
        # None: a visitor without an account gets an unsaved default too (the
        # plugin types the column as non-null, so it cannot express that).
        user_id=user_id,  # type: ignore[misc]
        variant=variant,
        rating=glicko2.DEFAULT_RATING,
        deviation=glicko2.DEFAULT_DEVIATION,
        volatility=glicko2.DEFAULT_VOLATILITY,
    )


def rating_for(user: User | int | None, variant: str) -> Rating:
    """``user``'s rating in ``variant``: an unsaved 1500 / 500 / 0.09 when they have none."""
    user_id = user if user is None or isinstance(user, int) else user.pk
    row = Rating.objects.filter(user_id=user_id, variant=variant).first() if user_id is not None else None
    return row or _default(user_id, variant)


def ratings_for(user_ids: Iterable[int], variant: str) -> dict[int, Rating]:
    """Several players' ratings in one variant (defaults for the missing ones), one query."""
    ids = list(user_ids)
    rows = {r.user_id: r for r in Rating.objects.filter(user_id__in=ids, variant=variant)}
    return {uid: rows.get(uid) or _default(uid, variant) for uid in ids}


def user_ratings(user: User | int, variants: Iterable[str]) -> dict[str, Rating]:
    """``user``'s rating in each of ``variants``, one query."""
    user_id = user if isinstance(user, int) else user.pk
    rows = {r.variant: r for r in Rating.objects.filter(user_id=user_id)}
    return {v: rows.get(v) or _default(user_id, v) for v in variants}


def player_ratings(username: str, variants: Iterable[str]) -> tuple[User | None, dict[str, Rating]]:
    """The player called ``username`` (case-insensitive) and their rating in each of ``variants``:
    one query for a player with a rating (their user row comes along), two for one without;
    ``(None, {})`` when there is no such player."""
    # LOWER() on both sides, as the unique index on Lower("username"): that index serves it.
    name = Lower(Value(username))
    rows = list(Rating.objects.alias(name=Lower("user__username")).filter(name=name).select_related("user"))
    user: User | None
    if rows:
        user = rows[0].user
    else:
        user = get_user_model().objects.alias(name=Lower("username")).filter(name=name).first()
        if user is None:
            return None, {}
    by_variant = {r.variant: r for r in rows}
    return user, {v: by_variant.get(v) or _default(user.pk, v) for v in variants}


def leaderboard(variant: str, *, bots: bool = False) -> QuerySet[Rating]:
    """The ratings of ``variant``: established ones (deviation < 110) best first,
    then the provisional ones ("1500?"), best first. On a young site nearly
    everyone is provisional, and a ranking without them would be empty. Accounts with a
    fair-play mark are left out (read on every request: nothing cached to clear)."""
    provisional = Case(When(deviation__lt=glicko2.PROVISIONAL_DEVIATION, then=Value(0)), default=Value(1))
    return (
        # Bots have a leaderboard of their own; an account marked for a fair-play violation
        # (games/fairplay, docs/fairplay.md) is on none.
        Rating.objects.filter(variant=variant, user__is_bot=bots, user__fair_play_mark="")
        .alias(provisional_last=provisional)  # not "provisional": Rating has a property of that name
        .select_related("user")
        .order_by("provisional_last", "-rating", "user_id")
    )


@dataclass(frozen=True)
class HistoryPoint:
    at: datetime
    rating: float
    deviation: float
    match_id: int


def history(user: User | int, variant: str, *, limit: int = 500) -> list[HistoryPoint]:
    """The rating after each of ``user``'s rated games in ``variant``, oldest first.

    At most ``limit`` points (the newest), so a chart of a player with 10 000
    games stays small; the first point is the rating before the oldest shown game.
    """
    user_id = user if isinstance(user, int) else user.pk
    rows = list(
        RatingChange.objects.filter(user_id=user_id, variant=variant)
        .order_by("-created_at", "-id")
        .values_list("created_at", "rating_before", "deviation_before", "rating_after", "deviation_after", "match_id")[
            :limit
        ]
    )
    rows.reverse()
    if not rows:
        return []
    first = rows[0]
    points = [HistoryPoint(first[0], first[1], first[2], 0)]
    points += [HistoryPoint(at, r, d, m) for at, _rb, _db, r, d, m in rows]
    return points


def changes_for_match(match_id: int) -> dict[int, RatingChange]:
    """The rating changes of one match by side (1 pink, 2 blue); empty if it was not rated."""
    return {c.side: c for c in RatingChange.objects.filter(match_id=match_id)}


def _round(x: float) -> int:
    return math.floor(x + 0.5)


def _delta_entry(before: float, after: float, deviation_after: float) -> dict[str, Any]:
    return {
        "before": _round(before),
        "after": _round(after),
        "delta": _round(after) - _round(before),
        "provisional": glicko2.is_provisional(deviation_after),
    }


def stored_deltas(changes: list[RatingChange]) -> dict[str, dict[str, Any]]:
    """Rating changes shaped as the ``finished`` frame's ``rating_deltas``, keyed by side."""
    return {
        str(c.side): _delta_entry(c.rating_before, c.rating_after, c.deviation_after)
        for c in sorted(changes, key=lambda c: c.side)
    }


def deltas_for_match(match_id: int) -> dict[str, dict[str, Any]] | None:
    """The match's rating changes shaped as the ``finished`` frame's ``rating_deltas``
    (``{"1": {"before", "after", "delta", "provisional"}, "2": ...}``); None if it was not rated."""
    changes = list(RatingChange.objects.filter(match_id=match_id))
    return stored_deltas(changes) if changes else None


def changes_for_matches(match_ids: Iterable[int], user_id: int) -> dict[int, RatingChange]:
    """``user_id``'s rating change in each of ``match_ids`` (one query), by match id."""
    return {c.match_id: c for c in RatingChange.objects.filter(user_id=user_id, match_id__in=list(match_ids))}


def opponent_is_new(*, deviation: float, joined: datetime, at: datetime, young_days: int) -> bool:
    """Whether an opponent counts as new for the daily cap on gains (``ratings.services``): a
    provisional rating in the variant (deviation >= PROVISIONAL_DEVIATION before the game) or
    an account younger than ``young_days`` at ``at``."""
    return deviation >= glicko2.PROVISIONAL_DEVIATION or joined > at - timedelta(days=young_days)


def gained_from_new_opponents_since(user_id: int, variant: str, since: datetime, *, young_days: int) -> float:
    """The rating ``user_id`` gained in ``variant`` since ``since`` in the games that raised it
    against new opponents (``opponent_is_new`` as the game found them): two queries."""
    mine = {
        c.match_id: c.rating_after - c.rating_before
        for c in RatingChange.objects.filter(
            user_id=user_id, variant=variant, created_at__gte=since, rating_after__gt=F("rating_before")
        ).only("match_id", "rating_before", "rating_after")
    }
    if not mine:
        return 0.0
    theirs = (
        RatingChange.objects.filter(match_id__in=list(mine))
        .exclude(user_id=user_id)
        .values_list("match_id", "deviation_before", "user__date_joined", "created_at")
    )
    return sum(
        mine[match_id]
        for match_id, deviation, joined, at in theirs
        if opponent_is_new(deviation=deviation, joined=joined, at=at, young_days=young_days)
    )


def rated_games_between_since(a_id: int, b_id: int, variant: str, since: datetime) -> int:
    """How many matches of ``variant`` rated the two players together since ``since`` (rating
    farming: games.play.trust caps a pair's rated games a day)."""
    theirs = RatingChange.objects.filter(user_id=b_id, variant=variant, created_at__gte=since).values("match_id")
    return RatingChange.objects.filter(
        user_id=a_id, variant=variant, created_at__gte=since, match_id__in=theirs
    ).count()


def losses_to(
    user_id: int, *, since: datetime | None = None, opponents: Iterable[int] | None = None
) -> list[RatingChange]:
    """The opponents' rating changes that lost points in rated matches ``user_id`` won or drew
    (since ``since``, against ``opponents`` when given): what a fair-play mark gives back
    (games/fairplay/services.py). One query."""
    mine = RatingChange.objects.filter(user_id=user_id, score__gte=0.5)
    theirs = RatingChange.objects.exclude(user_id=user_id).filter(rating_after__lt=F("rating_before"))
    if since is not None:
        mine = mine.filter(created_at__gte=since)
    if opponents is not None:
        theirs = theirs.filter(user_id__in=list(opponents))
    return list(theirs.filter(match_id__in=mine.values("match_id")).order_by("created_at", "id"))


def gains_against(user_id: int, opponents: Iterable[int]) -> list[RatingChange]:
    """``user_id``'s rating changes that gained points in rated matches against ``opponents``
    (what a booster mark takes back). One query."""
    theirs = RatingChange.objects.filter(user_id__in=list(opponents)).values("match_id")
    return list(
        RatingChange.objects.filter(user_id=user_id, rating_after__gt=F("rating_before"), match_id__in=theirs).order_by(
            "created_at", "id"
        )
    )
