"""Cztery w rzędzie (Connect Four) on the fixed 7 × 6 board.

Actions are the columns 0..6; the human notation is "1".."7" (left to right).
A disc falls to the lowest free cell of its column; a full column is
``column_full``. Four or more of the mover's discs in a row through the disc
just played win at once (``FOUR_IN_A_ROW``).

Draws: a full board without a line (``FULL_BOARD``), and this service's early
draw: each of the 69 lines of four cells is *dead* once it holds a disc of
each colour, and the game ends at once when all 69 are dead
(``NO_LINE_POSSIBLE``). The two endings never compete with a win: the line a
win completes holds only the winner's discs, so it is live. A full board
without a line has every line dead; when the last disc both fills the board and
kills the last line, the reason given is ``FULL_BOARD`` (docs/rules.md: both
are recorded simply as a draw).

Coordinates shown to people and pages (effects, ``view()``, winning lines) are
``[column 1..7, row 1..6 from the bottom]``, as in the shared vectors.

Representation: one bitboard per player, bit ``col * 7 + row`` (row 0 at the
bottom, bit row 6 of every column always empty so that shifts never wrap), plus
the column heights and a 69-bit mask of dead lines. ``clone()`` copies a few
ints. Bots may call ``_apply`` directly after their own legality check (the
unchecked tier).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from games.engine import base

from .bits import canonical_key

COLUMNS = 7
ROWS = 6
NUM_LINES = 69
_STRIDE = ROWS + 1  # bits per column, one sentinel bit on top
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (dcol, drow)


def _bit(col: int, row: int) -> int:
    return 1 << (col * _STRIDE + row)


def _build_lines() -> tuple[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]]:
    masks: list[int] = []
    cells: list[tuple[tuple[int, int], ...]] = []
    for col in range(COLUMNS):
        for row in range(ROWS):
            for dc, dr in _DIRECTIONS:
                end_col, end_row = col + 3 * dc, row + 3 * dr
                if 0 <= end_col < COLUMNS and 0 <= end_row < ROWS:
                    line = tuple((col + i * dc, row + i * dr) for i in range(4))
                    cells.append(line)
                    mask = 0
                    for c, r in line:
                        mask |= _bit(c, r)
                    masks.append(mask)
    return tuple(masks), tuple(cells)


LINE_MASKS, LINE_CELLS = _build_lines()
assert len(LINE_MASKS) == NUM_LINES

# For every cell bit index: the (line index, line mask) pairs through it.
_LINES_THROUGH: dict[int, tuple[tuple[int, int], ...]] = {}
for _col in range(COLUMNS):
    for _row in range(ROWS):
        _LINES_THROUGH[_col * _STRIDE + _row] = tuple((i, m) for i, m in enumerate(LINE_MASKS) if m & _bit(_col, _row))

_FULL_BOARD = sum(_bit(c, r) for c in range(COLUMNS) for r in range(ROWS))
_ALL_DEAD = (1 << NUM_LINES) - 1


def has_four(bits: int) -> bool:
    """True if ``bits`` (one player's bitboard) holds four in a row anywhere."""
    for shift in (1, _STRIDE, _STRIDE - 1, _STRIDE + 1):
        pairs = bits & (bits >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


# How a game of Cztery w rzędzie ends: a line of four wins; a full board without a line,
# and (this service's rule) a board where no line of four can be completed any more, draw.
FOUR_IN_A_ROW = "four_in_a_row"
FULL_BOARD = "full_board"
NO_LINE_POSSIBLE = "no_line_possible"

# The move Cztery w rzędzie refuses with a code of its own (stable: the socket and the replay speak it).
COLUMN_FULL = "column_full"


class Connect4(base.Game):
    """Cztery w rzędzie: 7 columns × 6 rows, no parameters."""

    slug: ClassVar[str] = "connect4"
    error_codes: ClassVar[tuple[str, ...]] = (*base.ERROR_CODES, COLUMN_FULL)
    name: ClassVar[str] = "Cztery w rzędzie"

    columns = COLUMNS
    rows = ROWS

    @property
    def num_actions(self) -> int:
        return COLUMNS

    @property
    def max_game_length(self) -> int:
        return COLUMNS * ROWS

    def read_moves(self, moves: object) -> list[object]:
        """A list of columns, or one string of them ("4453...")."""
        if isinstance(moves, str):
            return list(moves)
        if not isinstance(moves, list):
            raise base.BadRecord("moves must be a list or a string")
        return moves

    def read_move(self, move: object) -> int | str:
        """A column 1..7 (another number is ``unknown_action``), or a digit as text."""
        if base.is_int(move):
            assert isinstance(move, int)
            column = move - 1
            return column if 0 <= column < self.num_actions else base.UNKNOWN_ACTION
        if isinstance(move, str):
            try:
                return self.string_to_action(move)
            except base.EngineError as error:
                return error.code
        raise base.BadRecord(f"a connect4 move is a column 1..7, not {json.dumps(move)}")

    def action_to_string(self, action: int) -> str:
        """ "1".."7"; raises InvalidActionError for anything but 0..6."""
        return str(self.check_action_id(action) + 1)

    def string_to_action(self, text: str) -> int:
        """Parse "1".."7" (surrounding spaces allowed); raises InvalidActionError."""
        if not isinstance(text, str):
            raise base.InvalidActionError(message=f"not a column: {text!r}")
        stripped = text.strip()
        if len(stripped) != 1 or stripped not in "1234567":
            raise base.InvalidActionError(message=f"not a column 1..7: {text!r}")
        return int(stripped) - 1


class Connect4State(base.State):
    game: Connect4

    def __init__(self, game: Connect4) -> None:
        super().__init__(game)
        self.boards = [0, 0]  # bitboards of player 1 and player 2
        self.heights = [0] * COLUMNS
        self.dead = 0  # bit i set: line i holds both colours
        self.dead_count = 0
        self.to_move: int | None = 1
        self._outcome: base.Outcome | None = None
        self.last: tuple[int, int] | None = None  # (col, row), 0-based
        self.winning: list[tuple[tuple[int, int], ...]] = []  # 0-based cells

    # -- queries ------------------------------------------------------------

    def current_player(self) -> int | None:
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self._outcome is not None:
            return []
        return [c for c in range(COLUMNS) if self.heights[c] < ROWS]

    def _illegal_reason(self, action: int) -> str | None:
        if self.heights[action] >= ROWS:
            return COLUMN_FULL
        return None

    def outcome(self) -> base.Outcome | None:
        return self._outcome

    def scores(self) -> tuple[int, int]:
        """Cztery w rzędzie has no score: always (0, 0)."""
        return (0, 0)

    def cell(self, col: int, row: int) -> int:
        """0 (empty), 1 or 2 at 0-based ``col`` and ``row`` (0 = bottom)."""
        bit = _bit(col, row)
        if self.boards[0] & bit:
            return 1
        if self.boards[1] & bit:
            return 2
        return 0

    @property
    def winning_lines(self) -> list[list[list[int]]]:
        """Every line of four the last disc completed, cells as [col 1..7, row 1..6]."""
        return [[[c + 1, r + 1] for c, r in line] for line in self.winning]

    @property
    def live_lines(self) -> int:
        return NUM_LINES - self.dead_count

    # -- apply --------------------------------------------------------------

    def _apply(self, action: int) -> dict[str, Any]:
        player = self.to_move
        assert player is not None
        index = player - 1
        col = action
        row = self.heights[col]
        shift = col * _STRIDE + row
        bit = 1 << shift
        mine = self.boards[index] | bit
        self.boards[index] = mine
        self.heights[col] = row + 1
        self.last = (col, row)

        theirs = self.boards[1 - index]
        dead = self.dead
        newly_dead = 0
        for line, mask in _LINES_THROUGH[shift]:
            if not (dead >> line) & 1 and mask & theirs:
                dead |= 1 << line
                newly_dead += 1
        self.dead = dead
        self.dead_count += newly_dead

        if has_four(mine):
            self.winning = self._lines_through(mine, col, row)
            self._finish(player, FOUR_IN_A_ROW)
        elif (self.boards[0] | self.boards[1]) == _FULL_BOARD:
            self._finish(None, FULL_BOARD)
        elif dead == _ALL_DEAD:
            self._finish(None, NO_LINE_POSSIBLE)
        else:
            self.to_move = base.other(player)
        return {
            "column": col + 1,
            "row": row + 1,
            "winning_lines": self.winning_lines,
            "dead_lines": self.dead_count,
        }

    def _finish(self, winner: int | None, reason: str) -> None:
        self._outcome = base.Outcome(winner=winner, reason=reason, scores=(0, 0))
        self.to_move = None

    @staticmethod
    def _lines_through(mine: int, col: int, row: int) -> list[tuple[tuple[int, int], ...]]:
        """All windows of four own discs through (col, row). Before this disc
        there was no four, so every four on the board goes through it."""
        lines: list[tuple[tuple[int, int], ...]] = []
        for dc, dr in _DIRECTIONS:
            run = [(col, row)]
            for sign in (-1, 1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < COLUMNS and 0 <= r < ROWS and mine & _bit(c, r):
                    if sign < 0:
                        run.insert(0, (c, r))
                    else:
                        run.append((c, r))
                    c, r = c + sign * dc, r + sign * dr
            for start in range(len(run) - 3):
                lines.append(tuple(run[start : start + 4]))
        return lines

    # -- pictures -----------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """``cells``: 6 rows, top row first, each 7 ints (0 empty, 1, 2), so
        the cell [column c, row r from the bottom] is ``cells[6 - r][c - 1]``.
        ``last``: {"column", "row"} of the last disc (1-based) or None."""
        cells = [[self.cell(c, r) for c in range(COLUMNS)] for r in reversed(range(ROWS))]
        last = None if self.last is None else {"column": self.last[0] + 1, "row": self.last[1] + 1}
        return {
            "columns": COLUMNS,
            "rows": ROWS,
            "cells": cells,
            "last": last,
            "winning_lines": self.winning_lines,
            "dead_lines": self.dead_count,
            "live_lines": NUM_LINES - self.dead_count,
        }

    def replay_fields(self) -> dict[str, Any]:
        return {"dead_lines": self.dead_count, "winning_lines": self.winning_lines}

    def __str__(self) -> str:
        marks = ".XO"
        lines = ["".join(marks[self.cell(c, r)] for c in range(COLUMNS)) for r in reversed(range(ROWS))]
        lines.append("1234567")
        return "\n".join(lines)

    def canonical(self) -> bytes:
        """The mover's discs and all discs as one key (the opening book's, ``bits.canonical_key``),
        the smaller of the board's and its mirror image's: a position reached by another move
        order, or its left-right mirror, is the same position."""
        mover = len(self.history) % 2  # the side to move, from the count of discs
        return canonical_key(self.boards[mover], self.boards[0] | self.boards[1]).to_bytes(8, "little")

    def clone(self) -> Connect4State:
        copy = Connect4State.__new__(Connect4State)
        copy.game = self.game
        copy.history = list(self.history)
        copy.boards = list(self.boards)
        copy.heights = list(self.heights)
        copy.dead = self.dead
        copy.dead_count = self.dead_count
        copy.to_move = self.to_move
        copy._outcome = self._outcome
        copy.last = self.last
        copy.winning = list(self.winning)
        return copy


Connect4.state_class = Connect4State


GAME = Connect4  # what games.engine registers for "connect4"
