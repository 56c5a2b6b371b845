"""Every read of puzzles (docs/puzzles.md): the next one for a solver, the daily one, the index."""

from __future__ import annotations

from datetime import date
from hashlib import blake2b
from typing import Any

from django.db.models import Count, F, Func, QuerySet

from accounts.models import User
from games import catalogue
from ratings.glicko2 import DEFAULT_RATING

from .models import Puzzle, PuzzleAttempt, PuzzleRating


def puzzle(puzzle_id: int) -> Puzzle | None:
    return Puzzle.objects.filter(pk=puzzle_id).first()


def game_variants(game: str) -> list[str]:
    return [v.key for v in catalogue.game_spec(game).variants]


def rating_of(user: Any, game: str) -> PuzzleRating | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return PuzzleRating.objects.filter(user=user, game=game).first()


def ratings_of(user: Any) -> dict[str, PuzzleRating]:
    if not getattr(user, "is_authenticated", False):
        return {}
    return {r.game: r for r in PuzzleRating.objects.filter(user=user)}


def profile_ratings(user: Any) -> list[dict[str, Any]]:
    """A profile's puzzle ratings, in the site's order of games (one query)."""
    mine = {r.game: r for r in PuzzleRating.objects.filter(user=user)}
    return [
        {
            "name": spec.name,
            "rating": mine[spec.slug].rating,
            "tries": mine[spec.slug].tries,
            "solved": mine[spec.slug].solved,
        }
        for spec in catalogue.games()
        if spec.slug in mine
    ]


def next_for(user: Any, game: str, *, theme: str = "", seen: list[int] | tuple[int, ...] = ()) -> Puzzle | None:
    """The puzzle of ``game`` (``theme`` if given) nearest the solver's puzzle rating that they
    have not tried (an account: no stored try; a visitor: not in ``seen``)."""
    rows: QuerySet[Puzzle] = Puzzle.objects.filter(variant__in=game_variants(game))
    if theme:
        rows = rows.filter(theme=theme)
    mine = rating_of(user, game)
    if getattr(user, "is_authenticated", False):
        rows = rows.exclude(pk__in=PuzzleAttempt.objects.filter(user=user).values("puzzle_id"))
    if seen:
        rows = rows.exclude(pk__in=list(seen))
    target = mine.rating if mine else DEFAULT_RATING
    distance = Func(F("rating") - target, function="ABS")
    return rows.annotate(distance=distance).order_by("distance", "pk").first()


def daily(day: date) -> Puzzle | None:
    """The day's puzzle: one of all, the same for everyone that day, picked by the date's hash."""
    count = Puzzle.objects.count()
    if not count:
        return None
    index = int.from_bytes(blake2b(day.isoformat().encode(), digest_size=8).digest(), "big") % count
    return Puzzle.objects.order_by("pk")[index]


def theme_counts() -> dict[str, dict[str, int]]:
    """game slug -> {theme: how many puzzles}."""
    counts: dict[str, dict[str, int]] = {}
    variant_game = {v: catalogue.variant(v).game_slug for v in catalogue.variant_keys()}
    for variant, theme, n in Puzzle.objects.values_list("variant", "theme").annotate(n=Count("pk")).order_by():
        game = variant_game.get(variant)
        if game is not None:
            counts.setdefault(game, {}).setdefault(theme, 0)
            counts[game][theme] += n
    return counts


def account_part(user: User) -> dict[str, Any]:
    """Puzzles' part of "Download my data": the ratings and every rated try."""
    return {
        "ratings": [
            {
                "game": r.game,
                "rating": round(r.rating),
                "deviation": round(r.deviation),
                "tries": r.tries,
                "solved": r.solved,
            }
            for r in PuzzleRating.objects.filter(user=user).order_by("game")
        ],
        "tries": [
            {"puzzle": a.puzzle_id, "solved": a.solved, "at": a.at.isoformat()}
            for a in PuzzleAttempt.objects.filter(user=user).order_by("at")
        ],
    }
