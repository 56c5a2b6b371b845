"""What the puzzle tests need in a live site's database (tests/browser/test_puzzles_browser.py,
the page walks): puzzles cut from given positions, and players in a language."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games import catalogue
from games.bots.puzzles import Cut
from games.puzzles import builder
from games.puzzles.models import Puzzle

from .players import session_cookie, user_made

__all__ = ["puzzle_made", "puzzle_solver"]


def puzzle_made(*, variant: str, history: list[int]) -> dict[str, Any]:
    """The puzzle the game's finder finds after ``history`` (made once): its id, line and moves."""
    spec = catalogue.variant(variant).game_spec
    game = catalogue.variant(variant).game()
    found = spec.puzzles.find(game, game.state_from_history(history))
    assert found is not None, "no puzzle at this position"
    builder.store(variant, {}, history, Cut(found.theme, found.line, found.accept, found.goal, len(history)))
    row = Puzzle.objects.get(variant=variant, actions=history)
    return {"id": row.pk, "line": row.line, "accept": row.accept}


def puzzle_solver(*, username: str, language: str) -> dict[str, Any]:
    """A player (made once) in ``language`` and a session of theirs."""
    user = user_made(username, language=language)
    return {"cookie_name": settings.SESSION_COOKIE_NAME, "cookie": session_cookie(user), "id": user.pk}
