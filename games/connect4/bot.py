"""Computer players for Cztery w rzędzie (Connect Four, 7 columns x 6 rows).

The search works on its own bitboards (Pascal Pons' layout): column ``c``
holds bits ``7c .. 7c+5`` from the bottom up, bit ``7c+6`` is a sentinel.
``pos`` holds the discs of the player to move, ``mask`` all discs; the
pair is rebuilt from ``state.columns()`` (the actions are the columns: a set-up's order, then
the moves), so the bots depend on nothing but the engine's public interface.

Levels:

- ``trudny``: negamax alpha-beta, transposition table, move ordering (table
  move, then moves that create the most threats, centre first), iterative
  deepening within the time budget and a threat-parity evaluation at the
  horizon. Once the search reaches the end of the game it is a perfect
  solver. It never plays into a loss it can see and takes a forced win.
- ``sredni``: the same search cut at depth 4, with noise on the root scores.
- ``latwy``: wins at once when it can, blocks an immediate loss, otherwise
  a random column with a bias to the centre.

The site's early draw (all 69 lines dead) is ignored by the search: once no
line can be completed by either side every continuation is a draw anyway,
so the values of wins and losses do not change, only the search is slower
to see the draw.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from . import book, solver
from .bits import BOARD, BOTTOM, COLUMN_MASKS, H1, HEIGHT, WIDTH, winning_cells
from .bits import CELLS as SIZE

log = logging.getLogger(__name__)
if not solver.available():
    log.warning(
        "Cztery w rzędzie: the exact solver is missing; trudny plays the Python search. "
        "Build it with: .venv/bin/python games/connect4/solver_build.py"
    )

TOP_MASKS = [1 << (HEIGHT - 1 + c * H1) for c in range(WIDTH)]
BOTTOM_MASKS = [1 << (c * H1) for c in range(WIDTH)]
# Rows counted from 1 at the bottom: the first player profits from threats on
# odd rows, the second on even rows (Allis' zugzwang rule).
ODD_ROWS = sum(BOTTOM << r for r in (0, 2, 4))
EVEN_ROWS = sum(BOTTOM << r for r in (1, 3, 5))
CENTRE_ORDER = (3, 2, 4, 1, 5, 0, 6)
CENTRE_WEIGHT = (0, 1, 2, 4, 2, 1, 0)

WIN = 1000  # a win on disc n scores WIN - n; heuristic values stay below 300


class Timeout(Exception):
    """The search ran out of its time budget."""


def is_four(pos: int) -> bool:
    for d in (1, H1, HEIGHT, H1 + 1):
        m = pos & (pos >> d)
        if m & (m >> 2 * d):
            return True
    return False


class Board:
    """Bitboard position; ``moves`` = number of discs."""

    __slots__ = ("mask", "moves", "pos")

    def __init__(self, pos: int = 0, mask: int = 0, moves: int = 0) -> None:
        self.pos = pos
        self.mask = mask
        self.moves = moves

    @classmethod
    def from_columns(cls, columns: list[int]) -> Board:
        board = cls()
        for col in columns:
            board.play(col)
        return board

    def can_play(self, col: int) -> bool:
        return not self.mask & TOP_MASKS[col]

    def play(self, col: int) -> None:
        self.pos ^= self.mask
        self.mask |= self.mask + BOTTOM_MASKS[col]
        self.moves += 1

    def legal(self) -> list[int]:
        return [c for c in range(WIDTH) if self.can_play(c)]

    def possible(self) -> int:
        return (self.mask + BOTTOM) & BOARD

    def move_bit(self, col: int) -> int:
        return (self.mask + BOTTOM_MASKS[col]) & COLUMN_MASKS[col]

    def wins_now(self, col: int) -> bool:
        return bool(winning_cells(self.pos, self.mask) & self.possible() & COLUMN_MASKS[col])


def _col_of(bit: int) -> int:
    return (bit.bit_length() - 1) // H1


class Searcher:
    """Alpha-beta negamax with a transposition table and a deadline (and a bound in nodes: the review's)."""

    def __init__(self, deadline: float, max_depth: int = 64, max_nodes: int | None = None) -> None:
        self.deadline = deadline
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.nodes = 0

    def evaluate(self, pos: int, mask: int, moves: int, mine: int, theirs: int) -> int:
        """Heuristic value for the player to move. Threats (empty cells that
        complete a four) count by Allis' zugzwang rule: the first player
        profits from threats on odd rows, the second from even rows, and a
        threat lying above an opponent threat in its column is worth little.
        Plus discs in the centre columns."""
        opp = pos ^ mask
        empty = BOARD ^ mask
        mine &= empty
        theirs &= empty
        if moves & 1:  # second player to move
            good_me, good_opp = EVEN_ROWS, ODD_ROWS
        else:
            good_me, good_opp = ODD_ROWS, EVEN_ROWS
        above_theirs = (theirs << 1) & BOARD
        above_mine = (mine << 1) & BOARD
        for _ in range(4):
            above_theirs |= (above_theirs << 1) & BOARD
            above_mine |= (above_mine << 1) & BOARD
        my_live = mine & ~above_theirs
        their_live = theirs & ~above_mine
        my_good = (my_live & good_me).bit_count()
        their_good = (their_live & good_opp).bit_count()
        score = 40 * my_good - 40 * their_good
        score += 6 * (mine.bit_count() - theirs.bit_count())
        if my_good and not their_good:
            score += 80
        elif their_good and not my_good:
            score -= 80
        for c in (2, 3, 4):
            cm = COLUMN_MASKS[c]
            score += CENTRE_WEIGHT[c] * ((pos & cm).bit_count() - (opp & cm).bit_count())
        return score

    def search(self, pos: int, mask: int, moves: int, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise Timeout
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Timeout
        possible = (mask + BOTTOM) & BOARD
        mine = winning_cells(pos, mask)
        if mine & possible:
            return WIN - moves - 1
        opp = pos ^ mask
        theirs = winning_cells(opp, mask)
        forced = possible & theirs
        if forced:
            if forced & (forced - 1):
                return -(WIN - moves - 2)
            possible = forced
        candidates = possible & ~(theirs >> 1)
        if not candidates:
            return -(WIN - moves - 2)
        if moves >= SIZE - 2:
            return 0
        hi = WIN - moves - 3
        if beta > hi:
            beta = hi
            if alpha >= beta:
                return beta
        lo = -(WIN - moves - 4)
        if alpha < lo:
            alpha = lo
            if alpha >= beta:
                return alpha
        if depth <= 0:
            return self.evaluate(pos, mask, moves, mine, theirs)

        key = pos + mask
        entry = self.table.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_lo, e_hi, tt_move = entry
            if e_depth >= depth:
                if e_lo >= beta:
                    return e_lo
                if e_hi <= alpha:
                    return e_hi
                if e_lo == e_hi:
                    return e_lo
                if e_lo > alpha:
                    alpha = e_lo
                if e_hi < beta:
                    beta = e_hi
        alpha0, beta0 = alpha, beta

        # order: table move, then most new threats, centre first
        ordered = []
        for c in CENTRE_ORDER:
            bit = candidates & COLUMN_MASKS[c]
            if bit:
                if c == tt_move:
                    ordered.append((1000, c, bit))
                else:
                    npos = pos | bit
                    ordered.append(
                        ((winning_cells(npos, mask | bit) & ~bit).bit_count() * 8 - CENTRE_ORDER.index(c) // 2, c, bit)
                    )
        ordered.sort(reverse=True)
        best = -WIN
        best_move = ordered[0][1]
        for _, c, bit in ordered:
            nmask = mask | bit
            v = -self.search(opp, nmask, moves + 1, depth - 1, -beta, -alpha)
            if v > best:
                best = v
                best_move = c
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        lo_b, hi_b = -WIN, WIN
        if best <= alpha0:
            hi_b = best
        elif best >= beta0:
            lo_b = best
        else:
            lo_b = hi_b = best
        self.table[key] = (depth, lo_b, hi_b, best_move)
        return best

    def root_scores(self, board: Board, depth: int, columns: list[int]) -> dict[int, int]:
        """Exact (full window) score of each column at ``depth``."""
        scores = {}
        for c in columns:
            child = Board(board.pos, board.mask, board.moves)
            child.play(c)
            if is_four(child.pos ^ child.mask):
                scores[c] = WIN - child.moves
                continue
            scores[c] = -self.search(child.pos, child.mask, child.moves, depth - 1, -WIN, WIN)
        return scores


def _immediate(board: Board) -> tuple[list[int], list[int], list[int]]:
    """(winning columns, columns that stop the opponent's immediate win or
    all columns, columns not playing under an opponent threat)."""
    legal = board.legal()
    possible = board.possible()
    mine = winning_cells(board.pos, board.mask) & possible
    wins = [c for c in legal if mine & COLUMN_MASKS[c]]
    theirs = winning_cells(board.pos ^ board.mask, board.mask)
    forced = possible & theirs
    blocks = [c for c in legal if forced & COLUMN_MASKS[c]] if forced else legal
    safe = [c for c in blocks if not (board.move_bit(c) << 1) & theirs & COLUMN_MASKS[c]]
    return wins, blocks, safe


def choose_trudny(board: Board, budget_s: float, rng: random.Random) -> int:
    start = time.perf_counter()
    deadline = start + budget_s
    wins, blocks, safe = _immediate(board)
    if wins:
        return wins[0]
    if len(blocks) == 1:
        return blocks[0]
    columns = safe or blocks
    if len(columns) == 1:
        return columns[0]
    searcher = Searcher(deadline)
    columns = sorted(columns, key=lambda c: abs(3 - c))
    best = columns[0]
    remaining = SIZE - board.moves
    depth = 1
    while depth <= remaining:
        try:
            scores, best_now = _root_search(searcher, board, depth, columns)
        except Timeout:
            break
        best = best_now
        top = scores[best]
        # a proven result (a win found, or every move but one proven lost)
        if top >= WIN - SIZE or depth >= remaining:
            break
        # columns proven lost are dropped from later iterations
        alive = [c for c in columns if scores[c] > -(WIN - SIZE)]
        if len(alive) == 1:
            best = alive[0]
            break
        if best not in alive:
            break  # every column is lost: keep the longest resistance
        if alive:
            columns = [best, *sorted((c for c in alive if c != best), key=lambda c: -scores[c])]
        depth += 1
    return best


def _root_search(searcher: Searcher, board: Board, depth: int, columns: list[int]) -> tuple[dict[int, int], int]:
    """Alpha-beta at the root, ``columns`` in order. Returns the scores (the
    best one exact, the others upper bounds that may equal it) and the best
    column: the first that strictly raised alpha."""
    scores: dict[int, int] = {}
    alpha = -WIN - 1
    best = columns[0]
    for c in columns:
        child = Board(board.pos, board.mask, board.moves)
        child.play(c)
        v = -searcher.search(child.pos, child.mask, child.moves, depth - 1, -WIN, -max(alpha, -WIN))
        scores[c] = v
        if v > alpha:
            alpha = v
            best = c
    return scores, best


def choose_sredni(board: Board, budget_s: float, rng: random.Random) -> int:
    wins, blocks, safe = _immediate(board)
    if wins:
        return wins[0]
    columns = safe or blocks
    if len(columns) == 1:
        return columns[0]
    searcher = Searcher(time.perf_counter() + budget_s)
    try:
        scores = searcher.root_scores(board, 4, columns)
    except Timeout:
        return rng.choice(columns)
    noisy = {c: v + (rng.randint(-25, 25) if abs(v) < WIN - SIZE else 0) for c, v in scores.items()}
    return max(columns, key=lambda c: noisy[c])


def choose_latwy(board: Board, budget_s: float, rng: random.Random) -> int:
    wins, blocks, _ = _immediate(board)
    if wins:
        return wins[0]
    if len(blocks) < len(board.legal()):
        return blocks[0]
    weights = [1 + CENTRE_WEIGHT[c] for c in blocks]
    return rng.choices(blocks, weights=weights)[0]


CHOOSERS = {"latwy": choose_latwy, "sredni": choose_sredni, "trudny": choose_trudny}
BUDGETS = {"latwy": 0.05, "sredni": 0.3, "trudny": 1.8}
# trudny: the share of the budget the exact solver may take before the
# Python search gets what is left, and the fewest discs it is asked with
# (earlier positions take it far longer than the budget, docs/bots.md: the
# Python search then has all of it)
SOLVER_SHARE = 0.9
# of the solver's time: the share for the exact value before it settles for
# keeping the result (win, draw)
EXACT_SHARE = 0.7
SOLVER_FROM_DISCS = 8
# trudny at its own budget, before LONG_BEFORE_DISCS discs: a few positions there take the
# solver 2-5 s (docs/bots.md), so it may think up to PERFECT_BUDGET_S rather than play a
# move that may give the value away; later it answers within the budget
PERFECT_BUDGET_S = 8.0
LONG_BEFORE_DISCS = 12


def choose_perfect(columns: list[int], budget_s: float, rng: random.Random) -> int | None:
    """A column that keeps the position's exact value (the fastest win, the
    slowest loss), tried in an order shuffled by ``rng`` so that equal
    columns vary; failing that in time, one that keeps its result (win or
    draw); None when the solver is missing, out of time or the position is
    lost (then the Python search picks the longest resistance it sees)."""
    if not solver.available():
        return None
    if book.plies() <= len(columns) < SOLVER_FROM_DISCS:
        return None  # neither the book nor the search answers in time
    order = [c for c in range(WIDTH) if columns.count(c) < HEIGHT]
    rng.shuffle(order)
    start = time.perf_counter()
    try:
        return solver.keeping_move(columns, order, budget_s * EXACT_SHARE)[1]
    except solver.SolverTimeout:
        pass
    # not the exact value in time: at least the result (win / draw), with
    # what the exact search left in the table
    try:
        result, column = solver.result_keeping_move(columns, order, budget_s - (time.perf_counter() - start))
    except solver.SolverTimeout:
        return None
    return None if result == "loss" else column  # a lost position: the search resists longer


def choose(state: Any, level: str, rng: random.Random, budget_s: float | None = None) -> int:
    """The column (action) ``level`` plays in the engine ``state``. trudny
    asks the exact solver first (``SOLVER_SHARE`` of the budget, or up to
    ``PERFECT_BUDGET_S`` early on at its own budget) and plays the Python
    search with the rest when it does not answer in time."""
    start = time.perf_counter()
    budget = BUDGETS[level] if budget_s is None else budget_s
    columns = state.columns()
    if level == "trudny":
        long = budget_s is None and len(columns) < LONG_BEFORE_DISCS
        perfect = choose_perfect(columns, PERFECT_BUDGET_S if long else budget * SOLVER_SHARE, rng)
        if perfect is not None:
            return perfect
        budget = max(budget - (time.perf_counter() - start), budget * (1 - SOLVER_SHARE))
    return CHOOSERS[level](Board.from_columns(columns), budget, rng)
