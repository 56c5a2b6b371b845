"""Computer players for the site's games, at three levels, knowing nothing
of Django (they use only the engine's Game/State interface).

``choose_action(state, level, seed=None, budget_s=None)`` returns the action
the computer plays in ``state`` at ``level`` (one of ``LEVELS``: łatwy,
średni, trudny). It is the one door to the computer: the site's matches,
the benchmarks and the tests all go through it. A game's player is its
folder's ``bot.py`` (``games/<slug>/bot.py``, for each of
``games.engine.BUILT_IN``); a game from outside brings its own through
``games.catalogue.register``, which calls ``register`` here. ``budget_s`` overrides the level's default time budget;
``seed`` makes the choice reproducible. ``RandomPlayer`` plays a uniformly
random legal action, as a yardstick for benchmarks.
"""

from __future__ import annotations

import random
from importlib import import_module
from typing import Any, Protocol

from games.engine import BUILT_IN

LEVELS = ("latwy", "sredni", "trudny")
LEVEL_NAMES = {"latwy": "łatwy", "sredni": "średni", "trudny": "trudny"}


class Bot(Protocol):
    """A game's computer player (``games/<slug>/bot.py``)."""

    BUDGETS: dict[str, float]

    def choose(self, state: Any, level: str, rng: random.Random, budget_s: float | None = None) -> int: ...


_BOTS: dict[str, Bot] = {}


def _bots() -> dict[str, Bot]:
    if not all(slug in _BOTS for slug in BUILT_IN):
        for slug in BUILT_IN:
            _BOTS.setdefault(slug, import_module(f"games.{slug}.bot"))  # a module is the Bot
    return _BOTS


def register(slug: str, bot: Bot) -> None:
    """Let ``bot`` play game ``slug`` (a game from outside; see games.catalogue.register)."""
    _bots()[slug] = bot


def unregister(slug: str) -> None:
    if slug not in BUILT_IN:
        _bots().pop(slug, None)


def default_budget(slug: str, level: str) -> float:
    """The level's time budget in seconds for one move of game ``slug``."""
    return float(_bots()[slug].BUDGETS[level])


def choose_action(state: Any, level: str, *, seed: int | None = None, budget_s: float | None = None) -> int:
    """The action the computer plays at ``level`` in the unfinished ``state``.

    Raises ValueError for an unknown level or game, or a finished game.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level: {level!r}")
    bot = _bots().get(state.game.slug)
    if bot is None:
        raise ValueError(f"no computer player for {state.game.slug!r}")
    if state.is_terminal():
        raise ValueError("the game is over")
    rng = random.Random(seed)
    action = bot.choose(state, level, rng, budget_s)
    return int(action)


class RandomPlayer:
    """Plays a uniformly random legal action (for benchmarks)."""

    name = "losowy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> int:
        action: int = self.rng.choice(state.legal_actions())
        return action


__all__ = ["LEVELS", "LEVEL_NAMES", "Bot", "RandomPlayer", "choose_action", "default_budget", "register", "unregister"]
