"""Bulk rows for page-size tests and benchmarks: many finished matches at once.

Real play goes through games.play (``make_match``; moves: ``tests/helpers.py``); ``bulk_finished_matches`` writes
finished Match rows (with a consistent history), their rating changes and the
players' Rating rows directly, because 10 000 matches through the services
would take minutes. Used by the query-count tests and bench/pages.py.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from games import play as games_play
from games.models import Match
from ratings.models import Rating, RatingChange
from tests.helpers import C4

# Pink stacks column 0 while blue plays column 1: pink wins on the 7th move.
PINK_WINS = [0, 1, 0, 1, 0, 1, 0]
# Blue wins: pink wanders, blue stacks column 1.
BLUE_WINS = [0, 1, 2, 1, 0, 1, 2, 1]
DRAWN = [3, 3]  # then a draw by agreement


def make_match(pink, blue, variant: str = C4, **kwargs) -> Match:
    """A match between two users, made by the service (as every real match is)."""
    return games_play.match_create(variant=variant, pink_id=pink.pk, blue_id=blue.pk, **kwargs)


def finished_match(pink, blue, history: list[int], variant: str = C4) -> Match:
    """A finished match row with ``history`` (pink won by resignation), written directly: what
    the review is asked of."""
    return Match.objects.create(
        variant=variant,
        pink=pink,
        blue=blue,
        status=Match.Status.FINISHED,
        winner=1,
        end_reason="resignation",
        ply=len(history),
        history=list(history),
        finished_at=timezone.now(),
    )


def bulk_finished_matches(player, opponents, n: int, *, variant: str = C4, seed: int = 1) -> list[int]:
    """``n`` finished rated Cztery w rzędzie matches of ``player`` against ``opponents`` in turn,
    wins, losses and draws mixed, newest last; returns their ids."""
    rng = random.Random(seed)
    start = timezone.now() - timedelta(minutes=2 * n + 10)
    matches = []
    outcomes = []
    for i in range(n):
        opponent = opponents[i % len(opponents)]
        player_pink = i % 2 == 0
        outcome = rng.choice(("pink", "blue", "draw"))
        history = {"pink": PINK_WINS, "blue": BLUE_WINS, "draw": DRAWN}[outcome]
        at = start + timedelta(minutes=2 * i)
        matches.append(
            Match(
                variant=variant,
                pink=player if player_pink else opponent,
                blue=opponent if player_pink else player,
                rated=True,
                status=Match.Status.FINISHED,
                winner={"pink": 1, "blue": 2, "draw": None}[outcome],
                end_reason={"pink": "four_in_a_row", "blue": "four_in_a_row", "draw": "agreement"}[outcome],
                ply=len(history),
                history=list(history),
                finished_at=at + timedelta(minutes=1),
            )
        )
        outcomes.append((player_pink, outcome, at))
    created = Match.objects.bulk_create(matches, batch_size=1000)
    # created_at is auto_now_add: set it afterwards so the order is the play order.
    for m, (_pp, _o, at) in zip(created, outcomes, strict=True):
        m.created_at = at
    Match.objects.bulk_update(created, ["created_at"], batch_size=1000)

    rating = 1500.0
    deviation = 350.0
    changes = []
    wins = draws = losses = 0
    for m, (player_pink, outcome, at) in zip(created, outcomes, strict=True):
        if outcome == "draw":
            score, draws = 0.5, draws + 1
        elif (outcome == "pink") == player_pink:
            score, wins = 1.0, wins + 1
        else:
            score, losses = 0.0, losses + 1
        after = rating + (score - 0.5) * 20 + rng.uniform(-2, 2)
        new_dev = max(50.0, deviation * 0.97)
        changes.append(
            RatingChange(
                user=player,
                variant=variant,
                match_id=m.pk,
                side=1 if player_pink else 2,
                score=score,
                rating_before=rating,
                rating_after=after,
                deviation_before=deviation,
                deviation_after=new_dev,
                volatility_before=0.09,
                volatility_after=0.09,
                created_at=at + timedelta(minutes=1),
            )
        )
        rating, deviation = after, new_dev
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    Rating.objects.update_or_create(
        user=player,
        variant=variant,
        defaults={
            "rating": rating,
            "deviation": deviation,
            "games": n,
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "last_played_at": changes[-1].created_at if changes else None,
        },
    )
    return [m.pk for m in created]
