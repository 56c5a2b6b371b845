"""Cztery w rzędzie's review: exact where the solver answers in time, an estimate before.

Positions are evaluated from the last to the first (``games.bots.review.analyse``), so the
solver's table (``solver.py``, in C, kept between calls; emptied when a review starts) holds
the end game when the earlier positions are asked. Each position gets ``SOLVE_NODES`` for its
exact value and a column that keeps it (``solver.keeping_move``, centre first: the quickest
win, the slowest loss): won, drawn or lost with best play, and in how many moves. Once a
position takes more, every earlier one (fewer discs: harder still) is estimated instead, in
``ESTIMATE_NODES``, by trudny's Python search (alpha-beta with the threat evaluation; a forced
result it finds is exact),
except the first plies when an opening book is there (``book.py``; none is shipped: docs/bots.md),
which it answers exactly at once. The site's early draw (no line of four possible any more) changes no value.

Both bounds are nodes, not seconds (version 3): the same game always gets the same figures,
however loaded the machine (version 2 gave the solver 0.3 s and the estimate 0.05 s).
"""

from __future__ import annotations

import math
from typing import Any

from games.bots.review import Evaluate, Evaluation, sigmoid

from . import book, bot, solver
from .bits import CELLS, winning_cells

# 2: the faster solver (a prime-indexed table) makes more plies exact; 3: bounded by nodes
VERSION = "connect4-solver-3"
CENTRE_FIRST = [3, 2, 4, 1, 5, 0, 6]
SOLVE_NODES = 2_500_000  # about 0.3 s of the solver here (7.8 M nodes a second)
ESTIMATE_NODES = 5_000  # about 0.05 s of the Python search here
SCALE = 120.0  # the search's threat evaluation: one good threat more (40 + 80) is about 73 %

# bench/analysis.py's cases: (name, engine parameters, plies to play (None: to the end), target seconds).
BENCH_CASES: list[tuple[str, dict[str, Any], int | None, float]] = [("connect4", {}, None, 2.0)]


def _exact(value: solver.Value, column: int) -> Evaluation:
    if value.score > 0:
        return Evaluation(1.0, column, exact=True, detail={"win_in": value.plies})
    if value.score < 0:
        return Evaluation(0.0, column, exact=True, detail={"loss_in": value.plies})
    return Evaluation(0.5, column, exact=True, detail={"draw": True})


def _estimate(columns: list[int]) -> Evaluation:
    """trudny's Python search, iterative deepening within ``ESTIMATE_NODES``."""
    board = bot.Board.from_columns(columns)
    wins = [c for c in board.legal() if board.wins_now(c)]
    if wins:
        return Evaluation(1.0, wins[0], exact=True, detail={"win_in": 1})
    searcher = bot.Searcher(math.inf, max_nodes=ESTIMATE_NODES)
    order = [c for c in CENTRE_FIRST if board.can_play(c)]
    best, top = order[0], 0
    for depth in range(1, CELLS - board.moves + 1):
        try:
            scores, best_now = bot._root_search(searcher, board, depth, order)
        except bot.Timeout:
            break
        best, top = best_now, scores[best_now]
        if abs(top) >= bot.WIN - CELLS:
            break
        order = [best, *sorted((c for c in order if c != best), key=lambda c: -scores[c])]
    if top >= bot.WIN - CELLS:  # a win the search proved: WIN minus the disc it lands on
        return Evaluation(1.0, best, exact=True, detail={"win_in": bot.WIN - top - board.moves})
    if top <= -(bot.WIN - CELLS):
        return Evaluation(0.0, best, exact=True, detail={"loss_in": bot.WIN + top - board.moves})
    return Evaluation(sigmoid(top, SCALE), best, detail={"estimate": top})


def evaluator(game: Any) -> Evaluate:
    if not solver.available():
        raise RuntimeError("the Connect Four solver is not built: no review")
    solver.forget()  # what the solver finds within its nodes depends on this review alone
    gave_up = [False]

    def evaluate(state: Any, ply: int, played: int | None = None) -> Evaluation:
        columns = state.columns()
        if not gave_up[0] or len(columns) <= book.plies():  # the opening book answers at once
            try:
                value, column = solver.keeping_move(columns, CENTRE_FIRST, max_nodes=SOLVE_NODES)
            except solver.SolverTimeout:
                gave_up[0] = True
            else:
                return _exact(value, column)
        return _estimate(columns)

    return evaluate


def _discs(plies: int) -> int:
    """The winner's own discs in a forced win of ``plies`` discs (the winner's first among them)."""
    return (plies + 1) // 2


# The codes ``why`` gives (its docstring says each one's figures); the spec words every one.
WHY_CODES: tuple[str, ...] = (
    "missed_four",
    "left_four",
    "missed_double",
    "opened_four",
    "allowed_double",
    "win_let_go",
    "forced_loss",
)


def _doubles(board: bot.Board) -> list[int]:
    """The columns where the player to move drops a disc after which the other side cannot stop a
    four: it has no four of its own, and the mover's fours-to-be are two it could play at once,
    or one right above another (blocking the lower gives the upper)."""
    found = []
    for col in board.legal():
        then = bot.Board(board.pos, board.mask, board.moves)
        then.play(col)  # ``then.pos``: the other side's discs, to move
        possible = then.possible()
        if winning_cells(then.pos, then.mask) & possible:
            continue
        threats = winning_cells(then.pos ^ then.mask, then.mask)
        playable = threats & possible
        if playable.bit_count() >= 2 or playable & (threats >> 1):
            found.append(col)
    return found


def why(state: Any, played: int, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """A mistake's reason (``games.bots.review.Reviewer.why``), the first that holds, columns 1..7:

    - ``missed_four``: the mover could make four in ``column`` and played elsewhere;
    - ``left_four``: the opponent could already make four in ``column`` and the move did not stop it;
    - ``missed_double``: a disc in ``column`` made two fours at once (or one above another), a
      win, and the move was elsewhere;
    - ``opened_four``: the disc made room for the opponent's four right above it, in ``column``;
    - ``allowed_double``: the opponent's disc in ``column`` then makes two fours at once (or one
      above another), and only one can be blocked;
    - ``win_let_go``: the mover won by force (with their ``discs``-th disc) and after the move no longer;
    - ``forced_loss``: after the move the opponent wins by force, with their ``discs``-th disc.
    """
    columns = state.columns()
    board = bot.Board.from_columns(columns)
    own = bot._immediate(board)[0]  # the columns that make four at once
    if own and played not in own:
        return {"code": "missed_four", "column": own[0] + 1}
    doubles = _doubles(board)
    board.play(played)
    threats = bot._immediate(board)[0]  # the opponent's, now to move
    left = [c for c in threats if c != played]
    if left:
        return {"code": "left_four", "column": left[0] + 1}
    if doubles and played not in doubles:
        return {"code": "missed_double", "column": doubles[0] + 1}
    if threats:
        return {"code": "opened_four", "column": played + 1}
    if doubles := _doubles(board):
        return {"code": "allowed_double", "column": doubles[0] + 1}
    won = before["detail"].get("win_in")
    if won is not None and "loss_in" not in after["detail"]:
        return {"code": "win_let_go", "discs": _discs(won)}
    lost = after["detail"].get("win_in")
    if lost is not None:
        return {"code": "forced_loss", "discs": _discs(lost)}
    return None
