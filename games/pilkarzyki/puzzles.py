"""Piłkarzyki's puzzles (no Django; docs/puzzles.md): the goal in one turn, proved by searching
the turn.

A position (a turn's start or a bounce in it) is a puzzle when the player to move can score in
this turn (bounce after bounce), not in one step, and at most ``MAX_KEYS`` of the open directions lead to such a goal (the
others give the move away or run into a dead end). Any path that scores is a solution: each
step is judged by ``keeps`` (a goal is still reachable this turn), so the puzzle lists no moves.
The whole turn's tree is searched, at most ``MAX_NODES`` positions (else no puzzle).
"""

from __future__ import annotations

from typing import Any

from games.bots.puzzles import Cut

THEMES = ("goal",)
FIRST_PLY = 6
MAX_KEYS = 2
MAX_NODES = 4_000


class _TooBig(Exception):
    pass


def _path(state: Any, player: int, budget: list[int]) -> list[int] | None:
    """The shortest run of ``player``'s steps from ``state`` that scores this turn, or None."""
    if state.is_terminal():
        outcome = state.outcome()
        return [] if outcome is not None and outcome.winner == player and outcome.reason == "goal" else None
    if state.current_player() != player:
        return None
    best: list[int] | None = None
    for action in state.legal_actions():
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        after = state.clone()
        after.apply_action(action)
        rest = _path(after, player, budget)
        if rest is not None and (best is None or len(rest) + 1 < len(best)):
            best = [action, *rest]
    return best


def find(game: Any, state: Any, budget_s: float | None = None) -> Cut | None:  # no search: no budget
    player = state.current_player()
    if player is None:
        return None
    budget = [MAX_NODES]
    keys: list[list[int]] = []
    try:
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            rest = _path(after, player, budget)
            if rest is not None:
                keys.append([action, *rest])
    except _TooBig:
        return None
    if not keys or len(keys) > MAX_KEYS or min(len(k) for k in keys) < 2:
        return None
    return Cut("goal", min(keys, key=len), None, goal="win")


def scores_this_turn(state: Any, player: int) -> bool | None:
    """Whether ``player``, to move in ``state``, can score within this turn; None: more than
    ``MAX_NODES`` positions to tell. The review's reasons ask it too (games/pilkarzyki/review.py)."""
    try:
        return _path(state, player, [MAX_NODES]) is not None
    except _TooBig:
        return None


def keeps(game: Any, state: Any, action: int) -> bool:
    """Whether ``action`` keeps a goal within the turn for the player to move."""
    player = state.current_player()
    after = state.clone()
    after.apply_action(action)
    return scores_this_turn(after, player) is True
