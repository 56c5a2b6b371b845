"""The catalogue of games: one ``GameSpec`` per game that every other module
reads (see ``spec.py``). The built-in games register here, in the site's order."""

from __future__ import annotations

from . import connect4, dots_and_boxes, kropki, pilkarzyki  # noqa: F401  (each registers its game)
from .spec import (
    Board,
    Bot,
    GameSpec,
    Variant,
    by_rules_slug,
    game_spec,
    games,
    reason_words,
    register,
    unregister,
    variant,
    variant_choices,
    variant_keys,
    variant_name,
    variants,
)

__all__ = [
    "Board",
    "Bot",
    "GameSpec",
    "Variant",
    "by_rules_slug",
    "game_spec",
    "games",
    "reason_words",
    "register",
    "unregister",
    "variant",
    "variant_choices",
    "variant_keys",
    "variant_name",
    "variants",
]
