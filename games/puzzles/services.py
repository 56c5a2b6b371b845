"""Trying a puzzle (docs/puzzles.md): the solver's moves judged by the engine, the first try
rated (the player's puzzle rating for the game and the puzzle's own, Glicko-2, one period each).

The position and its solution are the computer's knowledge, so the fair-play guard applies as
to a review: nobody playing a rated match now tries puzzles, and a puzzle whose position stands
in an active rated match is not shown (``position_in_rated_match``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from games import catalogue
from games.bots.puzzles import Cut, judge
from games.engine import Game, State
from games.play import guard
from kropki_site.lib.numbers import number_list
from kropki_site.lib.refusals import Refusal
from ratings import glicko2

from .models import Puzzle, PuzzleAttempt, PuzzleRating

MAX_TRIED = 64


@dataclass
class Try:
    status: str  # "going", "solved", "failed"
    game: Game
    start: State
    state: State  # after the solver's moves and the replies
    tried: list[int]
    change: tuple[float, float] | None = None  # the rating before and after, for a rated first try


def start_of(puzzle: Puzzle) -> tuple[Game, State]:
    game = catalogue.variant(puzzle.variant).game(puzzle.params or None)
    return game, game.state_from_history(puzzle.actions)


def read_tried(text: str) -> list[int]:
    """``proby``: the solver's moves so far, comma-separated."""
    tried = number_list(text, most=MAX_TRIED)
    if tried is None:
        raise Refusal("puzzle_bad_moves")
    return tried


def check_allowed(user: Any, puzzle: Puzzle, start: State) -> None:
    """The fair-play guard (module docstring)."""
    if getattr(user, "is_authenticated", False):
        guard.require_no_rated_match(user.pk)
    if guard.standing(puzzle.variant, start):
        raise Refusal("position_in_rated_match")


def attempt(user: Any, puzzle: Puzzle, tried: list[int]) -> Try:
    """Judge ``tried`` (the solver's moves from the start); a finished first try by an account
    is rated. Refusals: the guard's, ``puzzle_bad_moves`` (moves past the end)."""
    game, start = start_of(puzzle)
    check_allowed(user, puzzle, start)
    spec = catalogue.variant(puzzle.variant).game_spec
    cut = Cut(puzzle.theme, puzzle.line, puzzle.accept, puzzle.goal, len(puzzle.actions))
    status, state, read = judge(game, start, cut, tried, spec.puzzles.keeps)
    if read < len(tried):
        raise Refusal("puzzle_bad_moves")
    result = Try(status, game, start, state, tried)
    if status != "going" and getattr(user, "is_authenticated", False) and not getattr(user, "is_guest", False):
        result.change = _rate(user, puzzle, spec.slug, solved=status == "solved")
    return result


def _rate(user: Any, puzzle: Puzzle, game: str, *, solved: bool) -> tuple[float, float] | None:
    """Rate the first try (None when this is not the first)."""
    with transaction.atomic():
        row = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        mine, _ = PuzzleRating.objects.select_for_update().get_or_create(user=user, game=game)
        if PuzzleAttempt.objects.filter(user=user, puzzle=row).exists():
            return None
        player, theirs = mine.glicko, row.glicko
        score = 1.0 if solved else 0.0
        new_player = glicko2.update(player, [(theirs, score)])
        new_puzzle = glicko2.update(theirs, [(player, 1.0 - score)])
        try:
            with transaction.atomic():
                PuzzleAttempt.objects.create(
                    user=user, puzzle=row, solved=solved, rating_before=mine.rating, rating_after=new_player.rating
                )
        except IntegrityError:
            return None
        before = mine.rating
        mine.rate(new_player)
        mine.tries += 1
        mine.solved += solved
        mine.save()
        row.rate(new_puzzle)
        row.plays += 1
        row.wins += solved
        row.save(update_fields=["rating", "deviation", "volatility", "plays", "wins"])
        return before, mine.rating
