"""The variants the site offers: a game from the engine registry with fixed
parameters. Each variant is its own rating pool and matchmaking queue.

Pure Python (no Django): the key is what the database, URLs and ratings store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, get_game


@dataclass(frozen=True)
class Variant:
    key: str  # stored in Match.variant and Rating.variant; also the URL slug
    game_slug: str  # engine registry slug
    params: dict[str, Any] = field(default_factory=dict)
    rules_slug: str = ""  # /zasady/<rules_slug>/

    def game(self) -> Game:
        return get_game(self.game_slug, **self.params)


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant("kropki-10", "kropki", {"width": 10, "height": 10}, "kropki"),
        Variant("kropki-20", "kropki", {"width": 20, "height": 20}, "kropki"),
        Variant("cztery-w-rzedzie", "connect4", {}, "cztery-w-rzedzie"),
        Variant("kropki-i-kwadraty", "dots_and_boxes", {"rows": 5, "cols": 5}, "kropki-i-kwadraty"),
    )
}

VARIANT_KEYS = tuple(VARIANTS)


def get_variant(key: str) -> Variant:
    """The variant called ``key``; raises KeyError for an unknown one."""
    return VARIANTS[key]
