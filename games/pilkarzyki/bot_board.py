"""The Piłkarzyki computer's board: its own copy of the engine's tables (a
bytearray of used directions per point and the ball), turns as sequences of
steps, Zobrist keys of the segments, and the static value of a position.
A step sets two bits and undoing it clears them, so nothing is copied inside
the search (games/pilkarzyki/bot.py)."""

from __future__ import annotations

import random
from typing import Any

from games.pilkarzyki.engine import (
    BLOCKED,
    BORDER_USED,
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
VALUE = [_position_value(p, 1) for p in range(len(BORDER_USED))]


class Board:
    """The bots' position: used directions per point, the ball, the mover."""

    __slots__ = ("ball", "to_move", "used", "zobrist")

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

    @classmethod
    def from_state(cls, state: Any) -> Board:
        """The board of an engine state: its set-up's path and its moves stepped, its mover."""
        board = cls.from_history([*state.setup_path, *state.history])
        board.to_move = state.to_move or board.to_move
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
        v = VALUE[self.ball]
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
                    elif steps < limit and walk():
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
        for d, origin in zip(reversed(path), reversed(origins), strict=True):
            self.unstep(origin, d)
