"""Computer players for the site's games, at three levels, knowing nothing
of Django (they use only the engine's Game/State interface).

``choose_action(state, level, seed=None, budget_s=None)`` returns the action
the computer plays in ``state`` at ``level`` (one of ``LEVELS``: łatwy,
średni, trudny). ``budget_s`` overrides the level's default time budget;
``seed`` makes the choice reproducible. ``RandomPlayer`` plays a uniformly
random legal action, as a yardstick for benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import connect4, dots_and_boxes, kropki, pilkarzyki

LEVELS = ("latwy", "sredni", "trudny")
LEVEL_NAMES = {"latwy": "łatwy", "sredni": "średni", "trudny": "trudny"}

Chooser = Callable[[Any, str, random.Random, "float | None"], int]

_BY_GAME: dict[str, Any] = {
    "connect4": connect4,
    "dots_and_boxes": dots_and_boxes,
    "kropki": kropki,
    "pilkarzyki": pilkarzyki,
}


def default_budget(slug: str, level: str) -> float:
    """The level's time budget in seconds for one move of game ``slug``."""
    return float(_BY_GAME[slug].BUDGETS[level])


def choose_action(state: Any, level: str, *, seed: int | None = None, budget_s: float | None = None) -> int:
    """The action the computer plays at ``level`` in the unfinished ``state``.

    Raises ValueError for an unknown level or game, or a finished game.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level: {level!r}")
    module = _BY_GAME.get(state.game.slug)
    if module is None:
        raise ValueError(f"no computer player for {state.game.slug!r}")
    if state.is_terminal():
        raise ValueError("the game is over")
    rng = random.Random(seed)
    action = module.choose(state, level, rng, budget_s)
    return int(action)


class RandomPlayer:
    """Plays a uniformly random legal action (for benchmarks)."""

    name = "losowy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> int:
        action: int = self.rng.choice(state.legal_actions())
        return action


__all__ = ["LEVELS", "LEVEL_NAMES", "RandomPlayer", "choose_action", "default_budget"]
