"""Kropki's puzzles (no Django; docs/puzzles.md): one move, checked by the rules themselves.

- ``capture``: one move takes at least ``MIN_DOTS`` dots, and every other move takes at least
  two fewer (so the ring to close is clear).
- ``save``: the opponent threatens to take at least ``MIN_DOTS`` dots (were it their move), and
  exactly one move leaves them no capture at all.

Positions where a player has ended, or a start with the game's options (a penalty or a margin
changes what a capture is worth), are not puzzles.
"""

from __future__ import annotations

from typing import Any

from games.bots.puzzles import Cut
from games.engine.base import other

THEMES = ("capture", "save")
FIRST_PLY = 8
MIN_DOTS = 2


def gain(state: Any, action: int, player: int) -> int:
    """The dots ``player`` takes by playing ``action`` now (their score's rise)."""
    after = state.clone()
    after.to_move = player
    before: int = after.scores()[player - 1]
    after.apply_action(action)
    return int(after.scores()[player - 1]) - before


def _dots(state: Any) -> list[int]:
    end = state.game.end_action
    return [a for a in state.legal_actions() if a != end]


def best_capture(state: Any, player: int) -> tuple[int, int | None]:
    """The most dots ``player`` takes with one move from ``state`` (were it their move), and the
    first point that takes them (None when no move takes any). The review's reasons use it too
    (games/kropki/review.py)."""
    best, where = 0, None
    for action in _dots(state):
        taken = gain(state, action, player)
        if taken > best:
            best, where = taken, action
    return best, where


def find(game: Any, state: Any, budget_s: float | None = None) -> Cut | None:  # no search: no budget
    player = state.current_player()
    if player is None or any(state.ended) or game.params.keys() & {"penalty", "margin", "territory"}:
        return None
    moves = _dots(state)
    gains = {a: gain(state, a, player) for a in moves}
    top = max(gains.values(), default=0)
    if top >= MIN_DOTS:
        best = [a for a, g in gains.items() if g == top]
        if len(best) == 1 and all(g <= top - 2 for a, g in gains.items() if a != best[0]):
            return Cut("capture", best, [best])
        return None
    if top > 0:
        return None  # a small capture muddies a save
    rival = other(player)
    threats = [a for a in moves if gain(state, a, rival) >= MIN_DOTS]
    if not threats:
        return None
    saves = []
    for action in moves:
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() or after.current_player() != rival:
            continue
        left = _dots(after)
        # the threatening points first: most moves fail there at once
        ordered = [a for a in threats if a in left] + [a for a in left if a not in threats]
        if all(gain(after, a, rival) == 0 for a in ordered):
            saves.append(action)
            if len(saves) > 1:
                return None
    return Cut("save", saves, [saves]) if len(saves) == 1 else None


def keeps(game: Any, state: Any, action: int) -> bool:
    raise NotImplementedError("Kropki's puzzles list their accepted moves")
