"""Exact values of Cztery w rzędzie positions (no Django).

The search is C (``games/connect4/solver.c``, built by
``games/connect4/solver_build.py`` into ``solver_ext``); the first plies come
from the opening book (``games/connect4/book.py``) when it covers them.

Scores follow Pascal Pons' convention, always for the player to move:
``0`` a draw; ``22 - n`` a win with one's own ``n``-th disc (so the empty
board, won by the first player with his 21st disc, scores ``+1``); ``n - 22``
a loss to the opponent's ``n``-th disc. The higher the better: among winning
moves the highest score wins soonest, among losing ones it loses latest.

The site's early draw (all 69 lines dead) changes no score: once no line can
be completed every continuation is a draw. It only shortens a drawn game,
which is why a draw's ``plies`` is ``None``.

    >>> solve([3, 3, 3, 3, 3]).result          # doctest: +SKIP
    'win'
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from . import book
from .bits import CELLS, COLUMN_MASKS, H1, WIDTH, children, winning_cells

try:
    from .solver_ext import ffi, lib
except ImportError:  # not built: scripts/setup.sh builds it
    ffi = lib = None

_TIMEOUT = -1000  # solver.c's C4_TIMEOUT
_ILLEGAL = -2000  # solver.c's C4_ILLEGAL


class SolverMissing(RuntimeError):
    """The compiled solver is not built (``scripts/setup.sh`` builds it)."""


class SolverTimeout(TimeoutError):
    """The search did not finish within its budget."""


@dataclass(frozen=True)
class Value:
    """The perfect-play value of a position for the player to move.

    ``score``: Pons' score (see the module). ``plies``: discs still to be
    played until the winning disc, both sides' counted, when the game is won
    or lost under perfect play (the winner hurrying, the loser delaying);
    ``None`` for a draw."""

    score: int
    plies: int | None

    @classmethod
    def from_score(cls, score: int, moves: int) -> Value:
        """The value of ``score`` in a position with ``moves`` discs on the board."""
        if score > 0:  # our (22 - score)-th disc wins; we have moves // 2 already
            own = 22 - score - moves // 2
            return cls(score, 2 * own - 1)
        if score < 0:  # the opponent's (22 + score)-th disc wins
            theirs = 22 + score - (moves - moves // 2)
            return cls(score, 2 * theirs)
        return cls(0, None)

    @property
    def result(self) -> str:
        """``win``, ``draw`` or ``loss`` for the player to move."""
        return "win" if self.score > 0 else "loss" if self.score < 0 else "draw"

    @property
    def own_moves(self) -> int | None:
        """For a win: the mover's discs still to play, the winning one included."""
        return None if self.plies is None or self.score <= 0 else (self.plies + 1) // 2


def available() -> bool:
    """True when the compiled solver is built."""
    return lib is not None


def forget() -> None:
    """Forget the solver's table (kept between calls; at once: the table's next generation, not
    a clearing of its 67 MB): what a search bounded in nodes finds then depends only on the
    questions asked since."""
    _need_lib()
    lib.c4_reset()


def position(columns: list[int]) -> tuple[int, int, int]:
    """``(cur, mask, moves)`` after ``columns`` (0-based): ``cur`` = the
    mover's discs. Raises ValueError for an illegal sequence or a finished
    game (a four, or a full board)."""
    cur = mask = 0
    for i, col in enumerate(columns):
        if not (isinstance(col, int) and 0 <= col < WIDTH):
            raise ValueError(f"not a column 0..6: {col!r}")
        move = (mask + (1 << (col * H1))) & COLUMN_MASKS[col]
        if not move:
            raise ValueError(f"column {col} is full at ply {i}")
        if winning_cells(cur, mask) & move:
            raise ValueError(f"the game is over: ply {i} made four")
        cur ^= mask
        mask |= move
    if len(columns) >= CELLS:
        raise ValueError("the board is full")
    return cur, mask, len(columns)


def _need_lib() -> None:
    if lib is None:
        raise SolverMissing("games.connect4.solver_ext is not built (run games/connect4/solver_build.py)")


class _Clock:
    """The deadline of one question, in seconds, nodes or both, handed out as what is left of it."""

    def __init__(self, budget_s: float | None, max_nodes: int | None = None) -> None:
        self.deadline = None if budget_s is None else time.perf_counter() + budget_s
        self.budget_s = budget_s
        self.max_nodes = max_nodes
        self.nodes_at_start = int(lib.c4_nodes()) if lib is not None and max_nodes is not None else 0

    def left(self) -> tuple[float, int]:
        """Seconds and nodes for the next C call (0 = no limit); SolverTimeout when none are left."""
        seconds, nodes = 0.0, 0
        if self.deadline is not None:
            seconds = self.deadline - time.perf_counter()
            if seconds <= 0:
                raise SolverTimeout(f"no answer within {self.budget_s} s")
        if self.max_nodes is not None:
            nodes = self.max_nodes - (int(lib.c4_nodes()) - self.nodes_at_start)
            if nodes <= 0:
                raise SolverTimeout(f"no answer within {self.max_nodes} nodes")
        return seconds, nodes

    def check(self, result: int) -> int:
        if result == _TIMEOUT:
            raise SolverTimeout(f"no answer within {self.budget_s} s or {self.max_nodes} nodes")
        return result


def _score(cur: int, mask: int, moves: int, clock: _Clock) -> int:
    known = book.lookup(cur, mask, moves)
    if known is not None:
        return known
    _need_lib()
    return clock.check(int(lib.c4_solve(cur, mask, moves, *clock.left())))


def solve(columns: list[int], budget_s: float | None = None) -> Value:
    """The value of the position after ``columns`` (0-based) for the player to
    move. ``budget_s``: give up with SolverTimeout after that long (None: no
    limit)."""
    cur, mask, moves = position(columns)
    return Value.from_score(_score(cur, mask, moves, _Clock(budget_s)), moves)


def _child_score(ncur: int, nmask: int, moves: int, wins: bool, clock: _Clock) -> int:
    """The mover's score after a move from a position with ``moves`` discs."""
    if wins:
        return (CELLS + 1 - moves) // 2
    if moves + 1 == CELLS:
        return 0
    return -_score(ncur, nmask, moves + 1, clock)


def move_values(columns: list[int], budget_s: float | None = None) -> dict[int, Value]:
    """Every legal column's exact value for the player to move (the value
    of the position he gets by playing it, counted from now)."""
    cur, mask, moves = position(columns)
    clock = _Clock(budget_s)
    if moves + 1 > book.plies():
        _need_lib()
        out = ffi.new("int[7]")
        clock.check(int(lib.c4_move_values(cur, mask, moves, *clock.left(), out)))
        scores = {c: int(out[c]) for c in range(WIDTH) if out[c] != _ILLEGAL}
    else:
        scores = {c: _child_score(ncur, nmask, moves, wins, clock) for c, ncur, nmask, wins in children(cur, mask)}
    return {c: Value.from_score(s, moves) for c, s in scores.items()}


def best_moves(columns: list[int], budget_s: float | None = None) -> tuple[Value, list[int]]:
    """The position's value and every column that keeps it (the fastest win,
    or the slowest loss)."""
    values = move_values(columns, budget_s)
    best = max(v.score for v in values.values())
    return Value.from_score(best, len(columns)), [c for c, v in values.items() if v.score == best]


def _at_least(cur: int, mask: int, moves: int, target: int, clock: _Clock) -> bool:
    """Whether the position scores at least ``target`` for its mover (book
    first, else one null-window search)."""
    known = book.lookup(cur, mask, moves)
    if known is not None:
        return known >= target
    _need_lib()
    return clock.check(int(lib.c4_at_least(cur, mask, moves, target, *clock.left()))) == 1


def _first_reaching(cur: int, mask: int, moves: int, order: list[int], target: int, clock: _Clock) -> int:
    """The first column of ``order`` after which the mover scores at least ``target``."""
    by_column = {c: (ncur, nmask, wins) for c, ncur, nmask, wins in children(cur, mask)}
    for c in order:
        if c not in by_column:
            continue
        ncur, nmask, wins = by_column[c]
        if wins or moves + 1 == CELLS:
            if _child_score(ncur, nmask, moves, wins, clock) >= target:
                return c
        # we reach the target iff the opponent's score after the column is <= -target
        elif not _at_least(ncur, nmask, moves + 1, 1 - target, clock):
            return c
    raise ValueError(f"no column of {order} reaches {target}")


def keeping_move(
    columns: list[int], order: list[int], budget_s: float | None = None, max_nodes: int | None = None
) -> tuple[Value, int]:
    """The position's value and the first column of ``order`` that keeps it
    exactly (the fastest win, the slowest loss). Cheaper than
    ``best_moves``: one exact solve, then one null-window test per column
    tried. Raises SolverTimeout past ``budget_s`` or ``max_nodes``."""
    cur, mask, moves = position(columns)
    clock = _Clock(budget_s, max_nodes)
    score = _score(cur, mask, moves, clock)
    return Value.from_score(score, moves), _first_reaching(cur, mask, moves, order, score, clock)


def result_keeping_move(columns: list[int], order: list[int], budget_s: float | None = None) -> tuple[str, int]:
    """The position's result for the mover (``win``, ``draw``, ``loss``) and
    the first column of ``order`` that keeps it, not necessarily the fastest
    win. Two null-window searches at most for the result, so it answers
    where the exact value takes too long (and what an interrupted exact
    search left in the table helps). In a lost position: ``order[0]``.
    Raises SolverTimeout past ``budget_s``."""
    cur, mask, moves = position(columns)
    clock = _Clock(budget_s)
    if _at_least(cur, mask, moves, 1, clock):
        result, target = "win", 1
    elif _at_least(cur, mask, moves, 0, clock):
        result, target = "draw", 0
    else:
        return "loss", order[0]
    return result, _first_reaching(cur, mask, moves, order, target, clock)
