"""The catalogue of games: one ``GameSpec`` per game that every other module
reads (see ``spec.py``). Each built-in game (``games.engine.BUILT_IN``) registers
itself in its folder's ``spec.py``, loaded here."""

from __future__ import annotations

from importlib import import_module

from games.engine import BUILT_IN

from .spec import (
    CORRESPONDENCE_DAYS,
    CORRESPONDENCE_SUFFIX,
    Board,
    Bot,
    Choice,
    GameSpec,
    Option,
    Variant,
    by_rules_slug,
    draw_words,
    end_reasons,
    game_params,
    game_spec,
    games,
    is_correspondence_pool,
    option_fields,
    option_values,
    options_words,
    pool_key,
    pool_keys,
    pool_variant,
    reason_words,
    register,
    unregister,
    variant,
    variant_choices,
    variant_games,
    variant_keys,
    variant_name,
    variants,
    win_sentences,
    worded,
)

for _slug in BUILT_IN:
    import_module(f"games.{_slug}.spec")  # registers the game

__all__ = [
    "CORRESPONDENCE_DAYS",
    "CORRESPONDENCE_SUFFIX",
    "Board",
    "Bot",
    "Choice",
    "GameSpec",
    "Option",
    "Variant",
    "by_rules_slug",
    "draw_words",
    "end_reasons",
    "game_params",
    "game_spec",
    "games",
    "is_correspondence_pool",
    "option_fields",
    "option_values",
    "options_words",
    "pool_key",
    "pool_keys",
    "pool_variant",
    "reason_words",
    "register",
    "unregister",
    "variant",
    "variant_choices",
    "variant_games",
    "variant_keys",
    "variant_name",
    "variants",
    "win_sentences",
    "worded",
]
