"""Kropki i kwadraty's puzzles (no Django; docs/puzzles.md): the chain move, proved by the
end-game solver.

With at most ``MAX_UNDRAWN`` segments left the solver gives every move's exact margin. A
position is a puzzle when the best margin is at least two boxes better than any other move's,
the best is reached by at most ``MAX_BEST`` segments (all accepted: they are one idea, such as
either end of a chain), and the best is not simply taking a box:

- ``double_deal``: boxes can be taken, and the best is to decline the last two of a chain
  (the long-chain rule's sacrifice that keeps control);
- ``chain``: no box can be taken, and one choice of what to give away is clearly best.
"""

from __future__ import annotations

import time
from typing import Any

from games.bots.puzzles import Cut

from . import bot

THEMES = ("double_deal", "chain")
FIRST_PLY = 10
MAX_UNDRAWN = 26
MAX_BEST = 4
BUDGET_S = 3.0


def find(game: Any, state: Any, budget_s: float | None = BUDGET_S) -> Cut | None:
    if state.current_player() is None:
        return None
    geo, drawn = bot._drawn_of(state)
    left = bot.undrawn(geo, drawn)
    if len(left) > MAX_UNDRAWN or len(left) < 4:
        return None
    solver = bot.Solver(geo, time.perf_counter() + budget_s if budget_s is not None else float("inf"))
    values: dict[int, int] = {}
    try:
        for s in left:
            n = bot.completes(geo, drawn, s)
            after = drawn | (1 << s)
            values[s] = n + solver.value(after, -999, 999) if n else -solver.value(after, -999, 999)
    except bot.Timeout:
        return None
    top = max(values.values())
    best = sorted(s for s, v in values.items() if v == top)
    if len(best) > MAX_BEST or any(v > top - 2 for s, v in values.items() if s not in best):
        return None
    captures = [s for s in left if bot.completes(geo, drawn, s)]
    if any(s in captures for s in best):
        return None  # taking a box is no puzzle
    return Cut("double_deal" if captures else "chain", best[:1], [best])


def keeps(game: Any, state: Any, action: int) -> bool:
    raise NotImplementedError("Kropki i kwadraty's puzzles list their accepted moves")
