"""Computer players for Piłkarzyki (paper soccer, the 8 × 10 field).

The search works on its own copy of the engine's tables
(``games.pilkarzyki.engine``): a bytearray of used directions per point,
rebuilt from the state's set-up path and history (the actions are directions), and the ball.
A step sets two bits and undoing it clears them, so nothing is copied
inside the search.

A *turn* is one decision: the first step and every step after a bounce, up
to the point where the turn passes, the ball enters a goal or the mover is
stuck. ``Turns.expand`` lists the ends of every turn from a position by a
depth-first walk, deduplicated by the resulting position (the end point and
a Zobrist hash of the segments the turn used), each with one path leading
there; an end in the goal the mover attacks is a win, in the own goal or
stuck a loss.

Levels:

- ``trudny``: negamax alpha-beta over whole turns with iterative deepening
  within the time budget, a transposition table (bounds and the best end per
  position, for ordering), ends ordered by the evaluation. The evaluation
  (for the player about to move) is the ball's distance to the two goals,
  how central it is near a goal, and a small term for the exits of the
  ball's point. It takes a goal it can reach this turn, never plays a turn
  that lets the opponent score in the next one when another turn does not,
  and knows that a stuck ball loses.
- ``sredni``: the best end of its own turn by the same evaluation, with
  noise, one turn deep (takes a goal, avoids own goals and stuck ends).
- ``latwy``: one step at a time: takes a goal in one step, avoids an own
  goal or getting stuck in one step, otherwise a step forward half of the
  time and a random step otherwise.

Once a turn is chosen the remaining steps of its path are remembered (keyed
by the history they continue), so the bounce chain is played out without
searching again.
"""

from __future__ import annotations

import random
import time
from typing import Any

from games.pilkarzyki.engine import BLOCKED, DIRECTIONS, FREE_DIRECTIONS, GOAL_WINNER

from .bot_board import MAX_ENDS, PLAYER_KEY, VALUE, WIN, Board, End, Path, Timeout

# -- trudny ---------------------------------------------------------------------


class Searcher:
    """Negamax alpha-beta over turns with a transposition table."""

    def __init__(self, board: Board, deadline: float, max_nodes: int | None = None) -> None:
        self.board = board
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int, int]] = {}  # key -> depth, lo, hi, best zobrist

    def _key(self) -> int:
        b = self.board
        return (b.zobrist ^ (PLAYER_KEY if b.to_move == 2 else 0)) * 128 + b.ball

    def ordered(self, quiet: list[End], best_z: int | None) -> list[End]:
        """Ends sorted by the opponent's static value (lowest first), the
        table's best end first."""
        board = self.board
        opponent = 3 - board.to_move
        sign = 1 if opponent == 1 else -1
        used, blocked = board.used, BLOCKED

        def cost(end: End) -> int:
            if end[1] == best_z:
                return -10 * WIN
            ball = end[0]
            # the opponent's view of the end (its exits from the turn's
            # origin position are an approximation: cheap and good enough)
            return sign * VALUE[ball] + 2 * len(FREE_DIRECTIONS[used[ball] | blocked[ball]])

        return sorted(quiet, key=cost)

    def search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Value for ``board.to_move`` of the position, looking ``depth`` turns."""
        self.nodes += 1
        if not self.nodes & 15 and time.perf_counter() > self.deadline:
            raise Timeout
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Timeout
        board = self.board
        if depth <= 0:
            return board.evaluate()
        key = self._key()
        entry = self.table.get(key)
        best_z: int | None = None
        if entry is not None:
            e_depth, e_lo, e_hi, best_z = entry
            if e_depth >= depth:
                if e_lo >= beta:
                    return e_lo
                if e_hi <= alpha:
                    return e_hi
                if e_lo == e_hi:
                    return e_lo
        quiet, win, loss = board.expand()
        if win is not None:
            return WIN - ply
        if not quiet:
            return -(WIN - ply) if loss is not None else board.evaluate()
        alpha0 = alpha
        best = -2 * WIN
        best_end = quiet[0][1]
        for end in self.ordered(quiet, best_z):
            path = end[2]
            origins = board.play_path(path)
            try:
                v = -self.search(depth - 1, -beta, -max(alpha, best), ply + 1)
            finally:
                board.undo_path(path, origins)
            if v > best:
                best = v
                best_end = end[1]
                if best >= beta:
                    break
        lo, hi = -2 * WIN, 2 * WIN
        if best <= alpha0:
            hi = best
        elif best >= beta:
            lo = best
        else:
            lo = hi = best
        self.table[key] = (depth, lo, hi, best_end)
        return best


# Figures of trudny's last search (the depth completed, nodes, root ends),
# for benchmarks and tests.
LAST_SEARCH: dict[str, int] = {}


def search_turns(
    board: Board, budget_s: float, max_depth: int = 12, max_nodes: int | None = None
) -> tuple[Path, int | None]:
    """trudny's search: (the best turn's path, its value for the player to move), iterative
    deepening over whole turns until ``budget_s``, ``max_depth`` or ``max_nodes`` (the review's
    bound: the same position always gets the same search). The value is None when
    no search was needed (a goal this turn, no turn left, a single turn); a value beyond
    ``WIN // 2`` is a forced win (``WIN - value`` turns ahead), below ``-WIN // 2`` a loss."""
    LAST_SEARCH.clear()
    deadline = time.perf_counter() + budget_s
    quiet, win, loss = board.expand()
    if win is not None:
        return win, WIN
    if not quiet:
        return (loss or board.free(board.ball)[:1]), -WIN
    if len(quiet) == 1:
        return quiet[0][2], None
    searcher = Searcher(board, deadline, max_nodes)
    ends = searcher.ordered(quiet, None)
    best = ends[0]
    value: int | None = None
    depth = 1
    while depth <= max_depth:
        scores: dict[int, int] = {}
        try:
            alpha = -2 * WIN
            best_now = ends[0]
            for end in ends:
                path = end[2]
                origins = board.play_path(path)
                try:
                    v = -searcher.search(depth - 1, -2 * WIN, -alpha, 1)
                finally:
                    board.undo_path(path, origins)
                scores[end[1]] = v
                if v > alpha:
                    alpha = v
                    best_now = end
        except Timeout:
            # The last depth's best end is searched first: an end that beat
            # it at this depth before time ran out is the better choice.
            if ends[0][1] in scores and best_now is not ends[0]:
                best = best_now
                value = scores[best_now[1]]
            break
        best = best_now
        value = alpha
        LAST_SEARCH.update(depth=depth, nodes=searcher.nodes, ends=len(ends))
        if alpha >= WIN // 2 or alpha <= -WIN // 2:
            break  # a proven win, or every end proven lost
        ends = [best_now, *sorted((e for e in ends if e is not best_now), key=lambda e: -scores[e[1]])]
        depth += 1
    return best[2], value


def choose_trudny(board: Board, budget_s: float, rng: random.Random) -> Path:
    return search_turns(board, budget_s)[0]


# -- sredni and latwy -------------------------------------------------------------


def choose_sredni(board: Board, budget_s: float, rng: random.Random) -> Path:
    quiet, win, loss = board.expand(limit=MAX_ENDS // 4)
    if win is not None:
        return win
    if not quiet:
        return loss or board.free(board.ball)[:1]
    sign = 1 if board.to_move == 1 else -1
    return max(quiet, key=lambda e: sign * VALUE[e[0]] + rng.randint(-15, 15))[2]


def choose_latwy(board: Board, budget_s: float, rng: random.Random) -> Path:
    player = board.to_move
    safe: list[tuple[int, int]] = []  # (value, direction)
    legal = board.free(board.ball)
    for d in legal:
        origin = board.ball
        bounced = board.step(d)
        target = board.ball
        winner = GOAL_WINNER.get(target)
        stuck = bounced and winner is None and board.exits(target) == 0
        board.unstep(origin, d)
        if winner == player:
            return (d,)
        if winner is None and not stuck:
            safe.append((VALUE[target] if player == 1 else -VALUE[target], d))
    if not safe:
        return (legal[0],)
    if rng.random() < 0.5:
        top = max(v for v, _ in safe)
        return (rng.choice([d for v, d in safe if v == top]),)
    return (rng.choice(safe)[1],)


CHOOSERS = {"latwy": choose_latwy, "sredni": choose_sredni, "trudny": choose_trudny}
BUDGETS = {"latwy": 0.05, "sredni": 0.3, "trudny": 1.8}

# The rest of a chosen turn: (level, the set-up, history so far) -> the next direction.
_PLANS: dict[tuple[str, str, tuple[int, ...]], int] = {}
_MAX_PLANS = 4096


def choose(state: Any, level: str, rng: random.Random, budget_s: float | None = None) -> int:
    """The direction (action) ``level`` plays in the engine ``state``."""
    history = tuple(state.history)
    start = repr(state.game.params.get("setup"))  # a set-up's position, where the history starts
    planned = _PLANS.pop((level, start, history), None)
    if planned is not None and state.is_legal(planned):
        return planned
    board = Board.from_state(state)
    path = CHOOSERS[level](board, BUDGETS[level] if budget_s is None else budget_s, rng)
    if len(_PLANS) > _MAX_PLANS:
        _PLANS.clear()
    for i in range(1, len(path)):
        _PLANS[(level, start, history + path[:i])] = path[i]
    return path[0]


__all__ = ["BUDGETS", "DIRECTIONS", "choose"]
