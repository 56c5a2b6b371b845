"""Applying a rated result: the only code that writes Rating and RatingChange rows.

Called by ``games.play.finishing.rate`` inside the transaction that finishes the
match, with plain values (this module never imports games).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction

from ratings import glicko2
from ratings.models import Rating, RatingChange
from ratings.selectors import stored_deltas

PINK, BLUE = 1, 2


def ratings_apply_result(
    *,
    variant: str,
    match_id: int,
    pink_id: int,
    blue_id: int,
    score_pink: float,
    now: datetime,
    halved_sides: frozenset[int] = frozenset(),
) -> dict[str, dict[str, Any]]:
    """Rate one finished game between ``pink_id`` and ``blue_id`` (pink scored ``score_pink``).

    Locks both Rating rows in user-id order, widens each deviation for the days
    since that player's previous game, applies one Glicko-2 rating period to
    both, updates the W/D/L counters and stores one RatingChange per player.
    Idempotent: if this match was already rated, returns the stored deltas and
    changes nothing. Returns ``{"1": {"before", "after", "delta",
    "provisional"}, "2": {...}}`` keyed by side (1 pink, 2 blue).

    ``halved_sides``: the sides whose rating moves by half of what Glicko-2 says (a person
    playing a bot account, lichess' rule); their deviation and volatility change as computed.
    """
    if pink_id == blue_id:
        raise ValueError("a player cannot be rated against themself")
    if score_pink not in (0.0, 0.5, 1.0):
        raise ValueError(f"score must be 0, 0.5 or 1, got {score_pink!r}")
    with transaction.atomic():
        ids = sorted((pink_id, blue_id))
        for user_id in ids:
            Rating.objects.get_or_create(user_id=user_id, variant=variant)
        rows = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(user_id__in=ids, variant=variant).order_by("user_id")
        }
        # Checked under both locks: a second finish waits here and then sees the first one's rows.
        existing = list(RatingChange.objects.filter(match_id=match_id))
        if existing:
            return stored_deltas(existing)

        pink, blue = rows[pink_id], rows[blue_id]
        before = {PINK: pink.glicko, BLUE: blue.glicko}
        widened = {
            side: _with_inactivity(before[side], row.last_played_at, now) for side, row in ((PINK, pink), (BLUE, blue))
        }
        new_pink, new_blue = glicko2.rate_game(widened[PINK], widened[BLUE], score_pink)
        after = {PINK: new_pink, BLUE: new_blue}
        for side in halved_sides:
            half = before[side].rating + (after[side].rating - before[side].rating) / 2
            after[side] = glicko2.Rating(half, after[side].deviation, after[side].volatility)
        scores = {PINK: score_pink, BLUE: 1.0 - score_pink}

        changes = []
        for side, row in ((PINK, pink), (BLUE, blue)):
            new = after[side]
            row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
            row.games += 1
            score = scores[side]
            if score == 1.0:
                row.wins += 1
            elif score == 0.0:
                row.losses += 1
            else:
                row.draws += 1
            row.last_played_at = now
            row.save(
                update_fields=[
                    "rating",
                    "deviation",
                    "volatility",
                    "games",
                    "wins",
                    "draws",
                    "losses",
                    "last_played_at",
                ]
            )
            changes.append(
                RatingChange(
                    user_id=row.user_id,
                    variant=variant,
                    match_id=match_id,
                    side=side,
                    score=score,
                    rating_before=before[side].rating,
                    rating_after=new.rating,
                    deviation_before=before[side].deviation,
                    deviation_after=new.deviation,
                    volatility_before=before[side].volatility,
                    volatility_after=new.volatility,
                    created_at=now,
                )
            )
        RatingChange.objects.bulk_create(changes)
        return stored_deltas(changes)


def _with_inactivity(r: glicko2.Rating, last_played_at: datetime | None, now: datetime) -> glicko2.Rating:
    if last_played_at is None:
        return r
    days = (now - last_played_at).total_seconds() / 86400.0
    return glicko2.with_inactivity(r, days) if days > 0 else r


__all__ = ["ratings_adjust", "ratings_apply_result"]


def ratings_forget_user(*, user_id: int) -> int:
    """A deleted account leaves the rankings: its Rating rows go. Its RatingChange rows
    stay with the matches they belong to (a record shows both players' changes), and
    no opponent's rating moves. Returns how many ratings went."""
    return Rating.objects.filter(user_id=user_id).delete()[1].get(Rating._meta.label, 0)


def ratings_adjust(*, points: Mapping[tuple[int, str], float]) -> set[tuple[int, str]]:
    """Add ``points[(user_id, variant)]`` to those ratings (negative: take points away): a
    fair-play mark's refunds (games/fairplay/services.py). Only the rating moves: deviation,
    volatility and the counters stay (lichess refunds points, not certainty). Locks the rows in
    (user id, variant) order, the order ``ratings_apply_result`` locks one variant's rows in, so
    the two cannot deadlock. Returns the keys applied: a rating that no longer exists (a
    deleted account's) is skipped. Call inside the caller's transaction."""
    if not points:
        return set()
    users = sorted({user_id for user_id, _variant in points})
    applied: set[tuple[int, str]] = set()
    with transaction.atomic():
        rows = (
            Rating.objects.select_for_update()
            .filter(user_id__in=users, variant__in={variant for _user, variant in points})
            .order_by("user_id", "variant")
        )
        for row in rows:
            key = (row.user_id, row.variant)
            if key not in points:
                continue
            row.rating += points[key]
            row.save(update_fields=["rating"])
            applied.add(key)
    return applied
