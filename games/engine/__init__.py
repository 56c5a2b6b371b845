"""The rules of the site's games, knowing nothing of Django.

``GAMES`` maps a slug to its Game class; ``get_game(slug, **params)`` builds
one and raises InvalidParamsError for an unknown slug or bad parameters.
"""

from __future__ import annotations

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
    State,
    other,
)
from .connect4 import Connect4
from .dots_and_boxes import DotsAndBoxes
from .kropki import Kropki
from .pilkarzyki import Pilkarzyki

GAMES: dict[str, type[Game]] = {cls.slug: cls for cls in (Kropki, Connect4, DotsAndBoxes, Pilkarzyki)}


def get_game(slug: str, **params: Any) -> Game:
    try:
        cls = GAMES[slug]
    except (KeyError, TypeError):
        raise InvalidParamsError(f"unknown game: {slug!r}") from None
    return cls(**params)


__all__ = [
    "ERROR_CODES",
    "GAMES",
    "Connect4",
    "DotsAndBoxes",
    "Effect",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidParamsError",
    "Kropki",
    "Outcome",
    "Pilkarzyki",
    "State",
    "get_game",
    "other",
]
