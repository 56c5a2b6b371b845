"""Computer players for Piłkarzyki (paper soccer, the 8 × 10 field).

The search works on its own copy of the engine's tables
(``games.engine.pilkarzyki``): a bytearray of used directions per point,
rebuilt from ``state.history`` (the actions are directions), and the ball.
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

from games.engine.pilkarzyki import (
    BLOCKED,
    BORDER_USED,
    DIRECTIONS,
    FREE_DIRECTIONS,
    GOAL_WINNER,
    NEIGHBOUR,
    START_INDEX,
    point,
)

Path = tuple[int, ...]  # the directions of one turn
End = tuple[int, int, Path]  # where a turn ends: ball, zobrist, path

WIN = 100_000  # a win found k turns ahead scores WIN - k
MAX_ENDS = 4000  # steps walked per turn expansion before the list is cut

_rng_tables = random.Random(20260101)
# One random 64-bit key per segment, the same from both ends.
ZOBRIST = [0] * len(NEIGHBOUR)
for _slot, _target in enumerate(NEIGHBOUR):
    if _target >= 0 and ZOBRIST[_slot] == 0:
        _key = _rng_tables.getrandbits(64)
        ZOBRIST[_slot] = _key
        ZOBRIST[_target * 8 + ((_slot % 8) ^ 4)] = _key
PLAYER_KEY = _rng_tables.getrandbits(64)


class Timeout(Exception):
    """The search ran out of its time budget."""


def _position_value(ball: int, player: int) -> int:
    """Static value of the ball at ``ball`` for ``player`` (1 attacks the
    top goal, 2 the bottom one), before mobility."""
    x, y = point(ball)
    centre = 4 - abs(x - 4)
    near_top = max(0, 3 - y)
    near_bottom = max(0, y - 7)
    value = 20 * (5 - y) + 3 * centre * (near_top - near_bottom)
    return value if player == 1 else -value


# The static value of every point for player 1 (player 2 is its negation).
_VALUE = [_position_value(p, 1) for p in range(len(BORDER_USED))]


class Board:
    """The bots' position: used directions per point, the ball, the mover."""

    __slots__ = ("used", "ball", "to_move", "zobrist")

    def __init__(self) -> None:
        self.used = bytearray(BORDER_USED)
        self.ball = START_INDEX
        self.to_move = 1
        self.zobrist = 0

    @classmethod
    def from_history(cls, history: list[int]) -> Board:
        board = cls()
        for action in history:
            bounced = board.step(action)
            if not bounced:
                board.to_move = 3 - board.to_move
        return board

    def step(self, d: int) -> bool:
        """Move the ball in direction ``d`` (legal); True if it bounced."""
        used = self.used
        ball = self.ball
        slot = ball * 8 + d
        target = NEIGHBOUR[slot]
        bounced = used[target] != 0
        used[ball] |= 1 << d
        used[target] |= 1 << (d ^ 4)
        self.zobrist ^= ZOBRIST[slot]
        self.ball = target
        return bounced

    def unstep(self, origin: int, d: int) -> None:
        """Undo ``step(d)`` made from ``origin``."""
        used = self.used
        target = self.ball
        used[origin] &= ~(1 << d)
        used[target] &= ~(1 << (d ^ 4))
        self.zobrist ^= ZOBRIST[origin * 8 + d]
        self.ball = origin

    def free(self, p: int) -> Path:
        return FREE_DIRECTIONS[self.used[p] | BLOCKED[p]]

    def exits(self, p: int) -> int:
        return len(FREE_DIRECTIONS[self.used[p] | BLOCKED[p]])

    def evaluate(self) -> int:
        """Value for ``to_move`` of a quiet position (the turn just passed)."""
        v = _VALUE[self.ball]
        if self.to_move == 2:
            v = -v
        return v + 2 * self.exits(self.ball)

    # -- turns ----------------------------------------------------------------

    def expand(self, limit: int = MAX_ENDS) -> tuple[list[End], Path | None, Path | None]:
        """Every end of a turn of ``to_move`` from here.

        Returns ``(quiet, win, loss)``: ``quiet`` lists (ball, zobrist, path)
        of ends where the turn passes, one per resulting position; ``win`` a
        path into the goal the mover attacks (None if none); ``loss`` a path
        that loses (own goal or stuck), kept only in case nothing else is
        left. The walk stops early on a win. After ``limit`` steps bounce
        chains are no longer followed, so in a very dense position the
        lists may be short, even all empty.
        """
        player = self.to_move
        quiet: list[End] = []
        seen: set[tuple[int, int]] = set()
        path: list[int] = []
        loss: Path | None = None
        win: Path | None = None
        used = self.used
        steps = 0

        def walk() -> bool:
            nonlocal loss, win, steps
            origin = self.ball
            for d in FREE_DIRECTIONS[used[origin] | BLOCKED[origin]]:
                steps += 1
                bounced = self.step(d)
                path.append(d)
                target = self.ball
                winner = GOAL_WINNER.get(target)
                if winner is not None:
                    if winner == player:
                        win = tuple(path)
                        self.unstep(origin, d)
                        path.pop()
                        return True
                    if loss is None:
                        loss = tuple(path)
                elif bounced:
                    if used[target] | BLOCKED[target] == 0xFF:
                        if loss is None:
                            loss = tuple(path)
                    elif steps < limit:
                        if walk():
                            self.unstep(origin, d)
                            path.pop()
                            return True
                else:
                    key = (target, self.zobrist)
                    if key not in seen:
                        seen.add(key)
                        quiet.append((target, self.zobrist, tuple(path)))
                self.unstep(origin, d)
                path.pop()
            return False

        walk()
        return quiet, win, loss

    def play_path(self, path: Path) -> list[int]:
        """Play a quiet turn's path; returns the origins for ``undo_path``."""
        origins = []
        for d in path:
            origins.append(self.ball)
            self.step(d)
        self.to_move = 3 - self.to_move
        return origins

    def undo_path(self, path: Path, origins: list[int]) -> None:
        self.to_move = 3 - self.to_move
        for d, origin in zip(reversed(path), reversed(origins)):
            self.unstep(origin, d)


# -- trudny ---------------------------------------------------------------------


class Searcher:
    """Negamax alpha-beta over turns with a transposition table."""

    def __init__(self, board: Board, deadline: float) -> None:
        self.board = board
        self.deadline = deadline
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
            return sign * _VALUE[ball] + 2 * len(FREE_DIRECTIONS[used[ball] | blocked[ball]])

        return sorted(quiet, key=cost)

    def search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Value for ``board.to_move`` of the position, looking ``depth`` turns."""
        self.nodes += 1
        if not self.nodes & 15 and time.perf_counter() > self.deadline:
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


def choose_trudny(board: Board, budget_s: float, rng: random.Random) -> Path:
    LAST_SEARCH.clear()
    deadline = time.perf_counter() + budget_s
    quiet, win, loss = board.expand()
    if win is not None:
        return win
    if not quiet:
        return loss or board.free(board.ball)[:1]
    if len(quiet) == 1:
        return quiet[0][2]
    searcher = Searcher(board, deadline)
    ends = searcher.ordered(quiet, None)
    best = ends[0]
    depth = 1
    while depth <= 12:
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
            break
        best = best_now
        LAST_SEARCH.update(depth=depth, nodes=searcher.nodes, ends=len(ends))
        if alpha >= WIN // 2 or alpha <= -WIN // 2:
            break  # a proven win, or every end proven lost
        ends = [best_now] + sorted((e for e in ends if e is not best_now), key=lambda e: -scores[e[1]])
        depth += 1
    return best[2]


# -- sredni and latwy -------------------------------------------------------------


def choose_sredni(board: Board, budget_s: float, rng: random.Random) -> Path:
    quiet, win, loss = board.expand(limit=MAX_ENDS // 4)
    if win is not None:
        return win
    if not quiet:
        return loss or board.free(board.ball)[:1]
    sign = 1 if board.to_move == 1 else -1
    return max(quiet, key=lambda e: sign * _VALUE[e[0]] + rng.randint(-15, 15))[2]


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
            safe.append((_VALUE[target] if player == 1 else -_VALUE[target], d))
    if not safe:
        return (legal[0],)
    if rng.random() < 0.5:
        top = max(v for v, _ in safe)
        return (rng.choice([d for v, d in safe if v == top]),)
    return (rng.choice(safe)[1],)


CHOOSERS = {"latwy": choose_latwy, "sredni": choose_sredni, "trudny": choose_trudny}
BUDGETS = {"latwy": 0.05, "sredni": 0.3, "trudny": 1.8}

# The rest of a chosen turn: (level, history so far) -> the next direction.
_PLANS: dict[tuple[str, tuple[int, ...]], int] = {}
_MAX_PLANS = 4096


def choose(state: Any, level: str, rng: random.Random, budget_s: float | None = None) -> int:
    """The direction (action) ``level`` plays in the engine ``state``."""
    history = tuple(state.history)
    planned = _PLANS.pop((level, history), None)
    if planned is not None and state.is_legal(planned):
        return planned
    board = Board.from_history(list(history))
    path = CHOOSERS[level](board, BUDGETS[level] if budget_s is None else budget_s, rng)
    if len(_PLANS) > _MAX_PLANS:
        _PLANS.clear()
    for i in range(1, len(path)):
        _PLANS[(level, history + path[:i])] = path[i]
    return path[0]


__all__ = ["BUDGETS", "DIRECTIONS", "choose"]
