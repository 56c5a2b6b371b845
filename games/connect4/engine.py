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

Set-up positions (``setup``, docs/analysis.md "Position editor"): ``{"cells": ...}``, the
42 cells row by row from the top, each ``.``, ``1`` or ``2``. Who moves follows from the
discs (pink moves first: as many pink discs as blue, pink to move; one more, blue). Refused:
a disc with an empty cell under it (``setup_floating``), counts that do not alternate
(``setup_discs_count``), a line of four (``setup_four``), discs no order of moves could
drop (``setup_unreachable``: a blue disc under every pink one pink could have started
with, say), a full or dead board (``setup_over``). ``setup_order`` finds one order of moves
that drops them (a search over the columns' heights: 0.5 s at worst in 23,000 random
boards, cached); the bots and the solver play on from it (``State.columns()``).

Representation: one bitboard per player, bit ``col * 7 + row`` (row 0 at the
bottom, bit row 6 of every column always empty so that shifts never wrap), plus
the column heights and a 69-bit mask of dead lines. ``clone()`` copies a few
ints. Bots may call ``_apply`` directly after their own legality check (the
unchecked tier).
"""

from __future__ import annotations

import json
from functools import lru_cache
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

# Why a set-up is refused (docstring above), beyond base.SETUP_BAD and base.SETUP_OVER.
SETUP_FLOATING = "setup_floating"
SETUP_DISCS_COUNT = "setup_discs_count"
SETUP_FOUR = "setup_four"
SETUP_UNREACHABLE = "setup_unreachable"
_CELL_CHARS = ".12"


def _cell_index(col: int, row: int) -> int:
    """The index in a set-up's ``cells`` of 0-based ``col`` and ``row`` (0 = bottom)."""
    return (ROWS - 1 - row) * COLUMNS + col


def _stack(cells: str, col: int) -> str:
    """A column of a set-up's ``cells`` from the bottom up to its top disc."""
    column = "".join(cells[_cell_index(col, row)] for row in range(ROWS))
    return column.rstrip(".")


@lru_cache(maxsize=256)
def setup_order(cells: str) -> tuple[int, ...] | None:
    """One order of moves (columns) that drops the discs of ``cells`` (no floating disc, counts
    that alternate), pink first, or None if there is none. A search over the columns' heights
    (each a state once): the next disc must be the colour to move."""
    stacks = [_stack(cells, col) for col in range(COLUMNS)]
    total = sum(len(stack) for stack in stacks)
    dead: set[tuple[int, ...]] = set()
    path: list[int] = []
    heights = [0] * COLUMNS

    def search(played: int) -> bool:
        if played == total:
            return True
        key = tuple(heights)
        if key in dead:
            return False
        colour = "1" if played % 2 == 0 else "2"
        for col in range(COLUMNS):
            height = heights[col]
            if height < len(stacks[col]) and stacks[col][height] == colour:
                heights[col] = height + 1
                path.append(col)
                if search(played + 1):
                    return True
                path.pop()
                heights[col] = height
        dead.add(key)
        return False

    return tuple(path) if search(0) else None


class Connect4(base.Game):
    """Cztery w rzędzie: 7 columns × 6 rows, no parameters."""

    slug: ClassVar[str] = "connect4"
    error_codes: ClassVar[tuple[str, ...]] = (*base.ERROR_CODES, COLUMN_FULL)
    name: ClassVar[str] = "Cztery w rzędzie"

    columns = COLUMNS
    rows = ROWS
    setup_tools: ClassVar[tuple[str, ...]] = base.SETUP_TOOLS

    @classmethod
    def read_setup(cls, setup: object, params: dict[str, Any]) -> dict[str, Any]:
        cells = setup.get("cells") if isinstance(setup, dict) and set(setup) == {"cells"} else None
        if not isinstance(cells, str) or len(cells) != COLUMNS * ROWS or set(cells) - set(_CELL_CHARS):
            raise base.SetupError(base.SETUP_BAD, f"connect4: a set-up is {{'cells': 42 of '.12'}}, not {setup!r}")
        return {"cells": cells}

    def empty_setup(self) -> dict[str, Any]:
        return {"cells": "." * (COLUMNS * ROWS)}

    def setup_targets(self, setup: dict[str, Any], tool: str) -> list[int]:
        """The columns with room (a disc), or with a disc (taking the top one out)."""
        cells = setup["cells"]
        if tool == "0":
            return [c for c in range(COLUMNS) if _stack(cells, c)]
        return [c for c in range(COLUMNS) if len(_stack(cells, c)) < ROWS]

    def setup_edit(self, setup: dict[str, Any], tool: str, target: int) -> dict[str, Any]:
        """A disc dropped into the column ``target``, or its top disc taken out (tool "0")."""
        cells = list(setup["cells"])
        height = len(_stack(setup["cells"], target))
        if tool == "0" and height:
            cells[_cell_index(target, height - 1)] = "."
        elif tool in ("1", "2") and height < ROWS:
            cells[_cell_index(target, height)] = tool
        return {"cells": "".join(cells)}

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
        self.setup_cells = ""  # a set-up's cells (its discs are dropped by ``setup_order``)
        if base.SETUP in game.params:
            self.set_up(game.params[base.SETUP])

    # -- set-up ---------------------------------------------------------------

    def set_up(self, setup: dict[str, Any]) -> None:
        cells = setup["cells"]
        for col in range(COLUMNS):
            for row in range(ROWS):
                char = cells[_cell_index(col, row)]
                if char != ".":
                    self.boards[int(char) - 1] |= _bit(col, row)
                    self.heights[col] = row + 1  # the top disc's: a floating one stays where it is
        discs = [bin(board).count("1") for board in self.boards]
        self.setup_plies = sum(discs)
        self.to_move = 1 if discs[0] <= discs[1] else 2
        for line, mask in enumerate(LINE_MASKS):
            if mask & self.boards[0] and mask & self.boards[1]:
                self.dead |= 1 << line
                self.dead_count += 1
        self.setup_cells = cells
        for player in (1, 2):
            if has_four(self.boards[player - 1]):
                self._finish(player, FOUR_IN_A_ROW)
                return
        if (self.boards[0] | self.boards[1]) == _FULL_BOARD:
            self._finish(None, FULL_BOARD)
        elif self.dead == _ALL_DEAD:
            self._finish(None, NO_LINE_POSSIBLE)

    def setup_problem(self) -> str | None:
        cells = self.to_setup()["cells"]
        if any("." in _stack(cells, col) for col in range(COLUMNS)):
            return SETUP_FLOATING
        pink, blue = cells.count("1"), cells.count("2")
        if pink - blue not in (0, 1):
            return SETUP_DISCS_COUNT
        if self._outcome is not None:
            return SETUP_FOUR if self._outcome.reason == FOUR_IN_A_ROW else base.SETUP_OVER
        return SETUP_UNREACHABLE if setup_order(cells) is None else None

    def to_setup(self) -> dict[str, Any]:
        cells = [_CELL_CHARS[self.cell(col, row)] for row in reversed(range(ROWS)) for col in range(COLUMNS)]
        return {"cells": "".join(cells)}

    def columns(self) -> list[int]:
        """The moves from the empty board to this position (a set-up's discs by ``setup_order``,
        then the moves since): what the bots and the solver replay."""
        return [*(setup_order(self.setup_cells) or ()), *self.history] if self.setup_cells else list(self.history)

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
        mover = (self.boards[0] | self.boards[1]).bit_count() % 2  # the side to move, from the count of discs
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
        copy.setup_cells = self.setup_cells
        copy.setup_plies = self.setup_plies
        return copy


Connect4.state_class = Connect4State


GAME = Connect4  # what games.engine registers for "connect4"
