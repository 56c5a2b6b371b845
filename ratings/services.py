"""Applying a rated result: the only code that writes Rating and RatingChange rows.

Called by ``games.play.finishing.rate`` inside the transaction that finishes the
match, with plain values (this module never imports games).

Many alts (issue 36 item 4, docs/fairplay.md "Games that count, and farming"): the rating a
player gains from games against *new* opponents (a provisional rating in the variant, or an
account younger than NEW_OPPONENT_DAYS) adds up to at most NEW_OPPONENT_GAIN_PER_DAY in any 24
hours, per variant; a win beyond it moves the rating only up to the cap (its deviation and
volatility change as computed). Glicko-2 already weighs a provisional opponent's result less
(its g(phi)), but a provisional farmer's own wide deviation makes every win against fresh alts
worth a hundred points or more, and a limit per pair does not help against many alts.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import User
from ratings import glicko2
from ratings.models import Rating, RatingChange
from ratings.selectors import gained_from_new_opponents_since, opponent_is_new, stored_deltas

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
        _cap_gains_from_new_opponents(variant, {PINK: pink_id, BLUE: blue_id}, before, after, now)
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


def _cap_gains_from_new_opponents(
    variant: str,
    users: dict[int, int],
    before: dict[int, glicko2.Rating],
    after: dict[int, glicko2.Rating],
    now: datetime,
) -> None:
    """Hold each side's gain against a new opponent within what is left of its day's cap
    (the module's docstring); ``after`` is changed in place. The caller holds both Rating rows."""
    cap = float(settings.NEW_OPPONENT_GAIN_PER_DAY)
    days = settings.NEW_OPPONENT_DAYS
    joined = dict(User.objects.filter(pk__in=users.values()).values_list("pk", "date_joined"))
    for side, opponent in ((PINK, BLUE), (BLUE, PINK)):
        gain = after[side].rating - before[side].rating
        if gain <= 0 or not opponent_is_new(
            deviation=before[opponent].deviation, joined=joined[users[opponent]], at=now, young_days=days
        ):
            continue
        gained = gained_from_new_opponents_since(users[side], variant, now - timedelta(hours=24), young_days=days)
        room = max(0.0, cap - gained)
        if gain > room:
            after[side] = glicko2.Rating(before[side].rating + room, after[side].deviation, after[side].volatility)


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
