"""Cztery w rzędzie's puzzles (no Django; docs/puzzles.md): a win in N, proved by the solver.

From the position, the player to move wins with their N-th disc (2 ≤ N ≤ ``MAX_OWN``) under
best defence, and at each of their moves but the last exactly one column wins at all (a
slower win included); the
opponent's replies are the longest defence (the lowest such column). At the last move any
column that makes four is accepted. The theme is ``win_<N>``.

``only_move``: exactly one column keeps the position's result (a win too long for the above, or
a draw) and every other loses it, while the opponent threatens no four at once (a plain block is
no puzzle); one move, that column.
"""

from __future__ import annotations

from typing import Any

from games.bots.puzzles import Cut

from . import solver

MAX_OWN = 4
THEMES = (*(f"win_{n}" for n in range(2, MAX_OWN + 1)), "only_move")
FIRST_PLY = 10  # the solver is quick from here on (bench/c4_solver.py: 10 discs, median 0.06 s)
BUDGET_S = 2.0


def _fours(state: Any) -> list[int]:
    """The columns that make four now."""
    wins = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() and after.outcome().winner == state.current_player():
            wins.append(action)
    return wins


def _threatened(state: Any) -> bool:
    """Whether the opponent would make four at once were it their move."""
    rival = state.clone()
    rival.to_move = 3 - state.current_player()
    return bool(_fours(rival))


def _only_move(state: Any, budget_s: float | None) -> Cut | None:
    try:
        values = solver.move_values(list(state.history), budget_s)
    except (solver.SolverTimeout, solver.SolverMissing):
        return None
    rank = {"win": 2, "draw": 1, "loss": 0}
    best = max(rank[v.result] for v in values.values())
    keeping = [c for c, v in values.items() if rank[v.result] == best]
    if best == 0 or len(keeping) != 1 or len(values) < 3 or _threatened(state):
        return None
    return Cut("only_move", keeping, [keeping])


def find(game: Any, state: Any, budget_s: float | None = BUDGET_S) -> Cut | None:
    if state.current_player() is None or _fours(state):
        return None  # a four in one is not a puzzle
    columns = list(state.history)
    try:
        value = solver.solve(columns, budget_s)
    except (solver.SolverTimeout, solver.SolverMissing):
        return None
    own = value.own_moves
    if value.result != "win" or own is None or own > MAX_OWN:
        return _only_move(state, budget_s)
    return _win_line(state, own, budget_s) or _only_move(state, budget_s)


def _win_line(state: Any, own: int, budget_s: float | None) -> Cut | None:
    columns = list(state.history)
    start_own = own
    line: list[int] = []
    accept: list[list[int] | None] = []
    after = state.clone()
    try:
        while True:
            fours = _fours(after)
            if fours:  # the last move: any four
                line.append(fours[0])
                accept.append(fours)
                break
            values = solver.move_values(columns, budget_s)
            winning = [c for c, v in values.items() if v.result == "win"]  # a slower win counts too
            if len(winning) != 1:
                return None
            line.append(winning[0])
            accept.append(winning)
            after.apply_action(winning[0])
            columns.append(winning[0])
            _value, defences = solver.best_moves(columns, budget_s)
            reply = min(defences)
            line.append(reply)
            accept.append(None)
            after.apply_action(reply)
            columns.append(reply)
            own -= 1
    except (solver.SolverTimeout, solver.SolverMissing):
        return None
    return Cut(f"win_{start_own}", line, accept, goal="win")


def keeps(game: Any, state: Any, action: int) -> bool:
    raise NotImplementedError("Cztery w rzędzie's puzzles list their accepted moves")
