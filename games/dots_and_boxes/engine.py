"""Kropki i kwadraty (Dots and Boxes).

Parameters: ``rows`` and ``cols``, the number of boxes (default 5 × 5, each
1..8), so the board has ``(rows + 1) × (cols + 1)`` dots.

Segment ids follow OpenSpiel (and ``shared/vectors/README.md``): dot rows
``r = 0..rows`` top to bottom, dot columns ``c = 0..cols`` left to right;

- horizontal ``h(r, c) = cols * r + c`` for ``r = 0..rows``, ``c = 0..cols-1``
  (the segment from dot (r, c) to dot (r, c + 1));
- vertical ``v(r, c) = H + (cols + 1) * r + c`` with ``H = (rows + 1) * cols``,
  for ``r = 0..rows-1``, ``c = 0..cols`` (from dot (r, c) to dot (r + 1, c)).

Box ``(r, c)`` has the sides ``h(r, c)``, ``h(r + 1, c)``, ``v(r, c)`` and
``v(r, c + 1)``.

Rules: a drawn segment cannot be drawn again (``segment_drawn``). Completing
the fourth side of one or two boxes gives them to the mover, who moves again
(one extra move, even for two boxes); otherwise the turn passes. The game ends
when every segment is drawn (``BOXES``) or, this service's rule, as soon as a
player owns more than half of the boxes (``BOXES_MAJORITY``; 13 on 5 × 5).
Most boxes wins; equal counts (possible with an even number of boxes) draw.
The parameter ``majority_end=False`` switches the early end off (standard
rules, e.g. to compare with solvers that play to the last segment).

Human notation names the two dots a segment joins: the dot column as a letter
(``a`` = leftmost), the dot row as a number (``1`` = top row, the same
direction as the segment numbering), the two dots joined by ``-``, the
top/left dot first: ``a1-b1`` is segment 0 (the top-left horizontal one),
``a1-a2`` is the top-left vertical one (30 on 5 × 5). Parsing accepts either
order of the two dots and any letter case.

Set-up positions (``setup``, docs/analysis.md "Position editor"): ``{"lines": ..., "boxes":
..., "to_move": 1 or 2}``, one character a segment (by segment id) and one a box (row by
row), ``.`` none, ``1`` pink's, ``2`` blue's: who drew a line is only its colour; a closed
box must have an owner and an open one none (``setup_box_owner``). Every line drawn, or a
majority of boxes with ``majority_end``, is ``setup_over``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from operator import itemgetter
from typing import Any, ClassVar

from games.engine import base

MAX_SIDE = 8
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_DOT = re.compile(r"^\s*([a-z])(\d{1,2})\s*-\s*([a-z])(\d{1,2})\s*$")


# How a game of Kropki i kwadraty ends: all segments drawn, more boxes win (equal: a
# draw), or, this service's rule, as soon as a player owns more than half the boxes.
BOXES = "boxes"
BOXES_MAJORITY = "boxes_majority"

# A set-up box with an owner but not four sides, or with four sides and no owner.
SETUP_BOX_OWNER = "setup_box_owner"


class DotsAndBoxes(base.Game):
    """Kropki i kwadraty on ``rows × cols`` boxes."""

    slug: ClassVar[str] = "dots_and_boxes"
    error_codes: ClassVar[tuple[str, ...]] = (*base.ERROR_CODES, base.SEGMENT_DRAWN)
    name: ClassVar[str] = "Kropki i kwadraty"
    setup_tools: ClassVar[tuple[str, ...]] = base.SETUP_TOOLS

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        rows, cols = self.params["rows"], self.params["cols"]
        self.rows: int = rows
        self.cols: int = cols
        self.num_horizontal: int = (rows + 1) * cols
        self.num_segments: int = self.num_horizontal + rows * (cols + 1)
        self.num_boxes: int = rows * cols
        self.majority_end: bool = self.params.get("majority_end", True)
        # Each box's side mask; each segment's boxes (box index, side mask).
        self.box_masks: tuple[int, ...] = tuple(
            (1 << self.h(r, c)) | (1 << self.h(r + 1, c)) | (1 << self.v(r, c)) | (1 << self.v(r, c + 1))
            for r in range(rows)
            for c in range(cols)
        )
        boxes_of: list[list[tuple[int, int]]] = [[] for _ in range(self.num_segments)]
        for box, mask in enumerate(self.box_masks):
            for segment in range(self.num_segments):
                if mask >> segment & 1:
                    boxes_of[segment].append((box, mask))
        self.boxes_of: tuple[tuple[tuple[int, int], ...], ...] = tuple(tuple(b) for b in boxes_of)
        self.all_drawn = (1 << self.num_segments) - 1

    @classmethod
    def validate_params(cls, params: dict[str, Any]) -> dict[str, Any]:
        unknown = set(params) - {"rows", "cols", "majority_end", base.SETUP}
        if unknown:
            raise base.InvalidParamsError(f"unknown dots_and_boxes parameters: {sorted(unknown)}")
        checked: dict[str, Any] = {}
        for key in ("rows", "cols"):
            value = params.get(key, 5)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
                raise base.InvalidParamsError(f"{key} must be an integer 1..{MAX_SIDE}, not {value!r}")
            checked[key] = value
        majority_end = params.get("majority_end", True)
        if not isinstance(majority_end, bool):
            raise base.InvalidParamsError(f"majority_end must be true or false, not {majority_end!r}")
        if not majority_end:  # the default stays out, so params read {"rows", "cols"}
            checked["majority_end"] = False
        if base.SETUP in params:
            checked[base.SETUP] = cls.checked_setup(params[base.SETUP], checked)
        return checked

    @classmethod
    def read_setup(cls, setup: object, params: dict[str, Any]) -> dict[str, Any]:
        rows, cols = params["rows"], params["cols"]
        sizes = {"lines": (rows + 1) * cols + rows * (cols + 1), "boxes": rows * cols}
        if not isinstance(setup, dict) or set(setup) != {"lines", "boxes", "to_move"}:
            raise base.SetupError(
                base.SETUP_BAD, f"dots_and_boxes: a set-up is {{'lines', 'boxes', 'to_move'}}, not {setup!r}"
            )
        for key, size in sizes.items():
            value = setup[key]
            if not isinstance(value, str) or len(value) != size or set(value) - set(".12"):
                raise base.SetupError(base.SETUP_BAD, f"dots_and_boxes: a set-up's {key} are {size} of '.12'")
        if not base.is_int(setup["to_move"]) or setup["to_move"] not in (1, 2):
            raise base.SetupError(base.SETUP_BAD, f"dots_and_boxes: to_move is 1 or 2, not {setup['to_move']!r}")
        return {"lines": setup["lines"], "boxes": setup["boxes"], "to_move": setup["to_move"]}

    def empty_setup(self) -> dict[str, Any]:
        return {"lines": "." * self.num_segments, "boxes": "." * self.num_boxes, "to_move": 1}

    def setup_targets(self, setup: dict[str, Any], tool: str) -> list[int]:
        """The segments not of ``tool``'s colour; with "0", the drawn ones."""
        if tool == "0":
            return [s for s, char in enumerate(setup["lines"]) if char != "."]
        return [s for s, char in enumerate(setup["lines"]) if char != tool]

    def setup_edit(self, setup: dict[str, Any], tool: str, target: int) -> dict[str, Any]:
        """The segment ``target`` drawn in ``tool``'s colour, and every box it closes is that
        colour's; or taken away (tool "0") with the owner of its boxes."""
        if tool not in base.SETUP_TOOLS or not 0 <= target < self.num_segments:
            return setup
        lines = setup["lines"][:target] + ("." if tool == "0" else tool) + setup["lines"][target + 1 :]
        drawn = sum(1 << s for s, char in enumerate(lines) if char != ".")
        boxes = list(setup["boxes"])
        for box, mask in self.boxes_of[target]:
            boxes[box] = tool if tool != "0" and drawn & mask == mask else "."
        return setup | {"lines": lines, "boxes": "".join(boxes)}

    # -- numbering ------------------------------------------------------------

    def h(self, r: int, c: int) -> int:
        """Horizontal segment from dot (r, c) to dot (r, c + 1)."""
        return self.cols * r + c

    def v(self, r: int, c: int) -> int:
        """Vertical segment from dot (r, c) to dot (r + 1, c)."""
        return self.num_horizontal + (self.cols + 1) * r + c

    def segment_dots(self, segment: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two dots (r, c) a segment joins, top/left one first."""
        segment = self.check_action_id(segment)
        if segment < self.num_horizontal:
            r, c = divmod(segment, self.cols)
            return (r, c), (r, c + 1)
        r, c = divmod(segment - self.num_horizontal, self.cols + 1)
        return (r, c), (r + 1, c)

    def box_sides(self, r: int, c: int) -> tuple[int, int, int, int]:
        return (self.h(r, c), self.h(r + 1, c), self.v(r, c), self.v(r, c + 1))

    # -- contract -------------------------------------------------------------

    @property
    def num_actions(self) -> int:
        return self.num_segments

    @property
    def max_game_length(self) -> int:
        return self.num_segments

    # Other programs' records go on after a player holds a majority of the boxes.
    record_params: ClassVar[dict[str, Any]] = {"majority_end": False}

    def read_move(self, move: object) -> int | str:
        """A segment id (one out of range is ``unknown_action``)."""
        if base.is_int(move):
            assert isinstance(move, int)
            return move if 0 <= move < self.num_actions else base.UNKNOWN_ACTION
        raise base.BadRecord(f"a dots_and_boxes move is a segment id, not {json.dumps(move)}")

    def action_to_string(self, action: int) -> str:
        """``a1-b1`` style (see the module docstring); raises InvalidActionError."""
        (r1, c1), (r2, c2) = self.segment_dots(action)
        return f"{_LETTERS[c1]}{r1 + 1}-{_LETTERS[c2]}{r2 + 1}"

    def string_to_action(self, text: str) -> int:
        """Parse ``a1-b1`` notation; raises InvalidActionError."""
        match = _DOT.match(text.lower()) if isinstance(text, str) else None
        if match is None:
            raise base.InvalidActionError(message=f"not a segment like a1-b1: {text!r}")
        c1, r1 = _LETTERS.index(match.group(1)), int(match.group(2)) - 1
        c2, r2 = _LETTERS.index(match.group(3)), int(match.group(4)) - 1
        (r1, c1), (r2, c2) = sorted([(r1, c1), (r2, c2)])
        for r, c in ((r1, c1), (r2, c2)):
            if not (0 <= r <= self.rows and 0 <= c <= self.cols):
                raise base.InvalidActionError(message=f"dot off the board: {text!r}")
        if r1 == r2 and c2 == c1 + 1:
            return self.h(r1, c1)
        if c1 == c2 and r2 == r1 + 1:
            return self.v(r1, c1)
        raise base.InvalidActionError(message=f"dots are not neighbours: {text!r}")


class DotsAndBoxesState(base.State):
    game: DotsAndBoxes

    def __init__(self, game: DotsAndBoxes) -> None:
        super().__init__(game)
        self.drawn = 0  # bit s set: segment s is drawn
        self.drawn_by = [0] * game.num_segments  # who drew each segment
        self.box_owner = [0] * game.num_boxes
        self.box_counts = [0, 0]
        self.to_move: int | None = 1
        self._outcome: base.Outcome | None = None
        self.last: int | None = None
        if base.SETUP in game.params:
            self.set_up(game.params[base.SETUP])

    # -- set-up ---------------------------------------------------------------

    def set_up(self, setup: dict[str, Any]) -> None:
        """The lines in their colours, the boxes' owners as given, who moves."""
        game = self.game
        for segment, char in enumerate(setup["lines"]):
            if char != ".":
                self.drawn |= 1 << segment
                self.drawn_by[segment] = int(char)
                self.setup_plies += 1
        self.box_owner = [0 if char == "." else int(char) for char in setup["boxes"]]
        self.box_counts = [self.box_owner.count(1), self.box_owner.count(2)]
        self.to_move = setup["to_move"]
        if game.majority_end and 2 * max(self.box_counts) > game.num_boxes:
            self._finish(BOXES_MAJORITY)
        elif self.drawn == game.all_drawn:
            self._finish(BOXES)

    def setup_problem(self) -> str | None:
        for box, mask in enumerate(self.game.box_masks):
            if (self.drawn & mask == mask) != bool(self.box_owner[box]):
                return SETUP_BOX_OWNER
        return super().setup_problem()

    def to_setup(self) -> dict[str, Any]:
        return {
            "lines": "".join(".12"[by] for by in self.drawn_by),
            "boxes": "".join(".12"[owner] for owner in self.box_owner),
            "to_move": self.to_move or 1,
        }

    # -- queries --------------------------------------------------------------

    def current_player(self) -> int | None:
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self._outcome is not None:
            return []
        drawn = self.drawn
        return [s for s in range(self.game.num_segments) if not drawn >> s & 1]

    def _illegal_reason(self, action: int) -> str | None:
        if self.drawn >> action & 1:
            return base.SEGMENT_DRAWN
        return None

    def outcome(self) -> base.Outcome | None:
        return self._outcome

    def scores(self) -> tuple[int, int]:
        """Boxes owned by player 1 and player 2."""
        return (self.box_counts[0], self.box_counts[1])

    # -- apply ----------------------------------------------------------------

    def _apply(self, action: int) -> dict[str, Any]:
        game = self.game
        player = self.to_move
        assert player is not None
        drawn = self.drawn | (1 << action)
        self.drawn = drawn
        self.drawn_by[action] = player
        self.last = action
        completed: list[list[int]] = []
        for box, mask in game.boxes_of[action]:
            if drawn & mask == mask:
                self.box_owner[box] = player
                completed.append(list(divmod(box, game.cols)))
        self.box_counts[player - 1] += len(completed)

        mine = self.box_counts[player - 1]
        if game.majority_end and 2 * mine > game.num_boxes:
            self._finish(BOXES_MAJORITY)
        elif drawn == game.all_drawn:
            self._finish(BOXES)
        elif not completed:
            self.to_move = base.other(player)
        return {
            "segment": action,
            "boxes": completed,
            "extra_move": bool(completed) and self._outcome is None,
        }

    def _finish(self, reason: str) -> None:
        one, two = self.box_counts
        winner = 1 if one > two else 2 if two > one else None
        self._outcome = base.Outcome(winner=winner, reason=reason, scores=(one, two))
        self.to_move = None

    # -- pictures -------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """``drawn``: who drew each segment (0 = undrawn), by segment id;
        ``horizontal[r][c]`` / ``vertical[r][c]``: the same split by dot row
        and column; ``boxes[r][c]``: the owner of each box (0 = nobody);
        ``last``: the last segment drawn or None."""
        game = self.game
        rows, cols, split = game.rows, game.cols, game.num_horizontal
        by = self.drawn_by
        return {
            "rows": rows,
            "cols": cols,
            "drawn": list(by),
            "horizontal": [by[r * cols : (r + 1) * cols] for r in range(rows + 1)],
            "vertical": [by[split + r * (cols + 1) : split + (r + 1) * (cols + 1)] for r in range(rows)],
            "boxes": [self.box_owner[r * cols : (r + 1) * cols] for r in range(rows)],
            "last": self.last,
        }

    def replay_fields(self) -> dict[str, Any]:
        """``boxes``: one character per box, row by row: ``.``, ``1`` or ``2``."""
        return {"boxes": "".join(".12"[o] for o in self.box_owner)}

    def __str__(self) -> str:
        game = self.game
        lines = []
        for r in range(game.rows + 1):
            top = "+"
            for c in range(game.cols):
                top += ("-" if self.drawn >> game.h(r, c) & 1 else " ") + "+"
            lines.append(top)
            if r == game.rows:
                break
            mid = ""
            for c in range(game.cols + 1):
                mid += "|" if self.drawn >> game.v(r, c) & 1 else " "
                if c < game.cols:
                    mid += " 12"[self.box_owner[r * game.cols + c]]
            lines.append(mid)
        return "\n".join(lines)

    def canonical(self) -> bytes:
        """The segments drawn and the boxes of the side to move, then of the other: who drew
        a segment or took a box decides nothing to come, so the same lines with the same
        score seen from the mover are the same position, whoever's colour moves. The lines
        are read in each of the board's symmetries (``segment_symmetries``), the smallest kept."""
        mover = (self.to_move or 1) - 1
        mine, theirs = self.box_counts[mover], self.box_counts[1 - mover]
        game = self.game
        lines = format(self.drawn, f"0{game.num_segments}b")[::-1]  # character s: segment s drawn
        drawn = min("".join(pick(lines)) for pick in segment_symmetries(game.rows, game.cols))
        return f"{drawn}:{mine}:{theirs}".encode()

    def clone(self) -> DotsAndBoxesState:
        copy = DotsAndBoxesState.__new__(DotsAndBoxesState)
        copy.game = self.game
        copy.history = list(self.history)
        copy.drawn = self.drawn
        copy.drawn_by = list(self.drawn_by)
        copy.box_owner = list(self.box_owner)
        copy.box_counts = list(self.box_counts)
        copy.to_move = self.to_move
        copy._outcome = self._outcome
        copy.last = self.last
        copy.setup_plies = self.setup_plies
        return copy


DotsAndBoxes.state_class = DotsAndBoxesState


@cache
def segment_symmetries(rows: int, cols: int) -> tuple[Callable[[str], tuple[str, ...]], ...]:
    """For each symmetry of a board of ``rows`` × ``cols`` boxes (the two mirrors and the half
    turn; on a square board the quarter turns and diagonal mirrors too): a function that reads
    a string of one character per segment (by segment id) in that symmetry's order."""
    num_horizontal = (rows + 1) * cols

    def segment(horizontal: bool, r: int, c: int) -> int:
        return cols * r + c if horizontal else num_horizontal + (cols + 1) * r + c

    # each segment as (horizontal, r, c): horizontal ones join dots (r, c)-(r, c+1), vertical
    # ones (r, c)-(r+1, c); a symmetry maps its two dots, and the segment between them
    ends = [(True, r, c) for r in range(rows + 1) for c in range(cols)]
    ends += [(False, r, c) for r in range(rows) for c in range(cols + 1)]
    readers = []
    for move in base.grid_symmetries(rows, cols):
        order = []
        for horizontal, r, c in ends:
            (r1, c1), (r2, _) = sorted((move(r, c), move(*((r, c + 1) if horizontal else (r + 1, c)))))
            order.append(segment(r1 == r2, r1, c1))
        readers.append(itemgetter(*order))
    return tuple(readers)


GAME = DotsAndBoxes  # what games.engine registers for "dots_and_boxes"
