"""The rules of the site's games, knowing nothing of Django.

Each game is a folder, ``games/<slug>/``, whose ``engine.py`` names its Game
class as ``GAME``. ``BUILT_IN`` is the one list of the site's own games: the
engine lookup here, the computer players (``games.bots``) and the catalogue
(``games.catalogue``, the pages' register) each load ``games/<slug>/`` from it.

``GAMES`` maps a slug to its Game class (filled on first use, so that a game's
engine can import ``games.engine.base`` while this package loads); a game from
outside joins it through ``games.catalogue.register``. ``get_game(slug,
**params)`` builds one and raises InvalidParamsError for an unknown slug or bad
parameters.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .base import (
    ERROR_CODES,
    Effect,
    EngineError,
    Game,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    Outcome,
    SetupError,
    State,
    column_name,
    other,
)

# The site's own games, in the site's order: each is the folder games/<slug>/.
BUILT_IN = ("kropki", "connect4", "dots_and_boxes", "pilkarzyki")

_GAMES: dict[str, type[Game]] = {}


def _engines() -> dict[str, type[Game]]:
    if not _GAMES:
        for slug in BUILT_IN:
            cls: type[Game] = import_module(f"games.{slug}.engine").GAME
            assert cls.slug == slug, f"games/{slug}/engine.py names a game called {cls.slug!r}"
            _GAMES[slug] = cls
    return _GAMES


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        return _engines()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_game(slug: str, **params: Any) -> Game:
    try:
        cls = _engines()[slug]
    except (KeyError, TypeError):
        raise InvalidParamsError(f"unknown game: {slug!r}") from None
    return cls(**params)


__all__ = [
    "BUILT_IN",
    "ERROR_CODES",
    "GAMES",
    "Effect",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidParamsError",
    "Outcome",
    "SetupError",
    "State",
    "column_name",
    "get_game",
    "other",
]
