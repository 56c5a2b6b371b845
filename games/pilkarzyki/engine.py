"""Piłkarzyki (paper soccer) on the fixed 8 × 10 field.

Rules: docs/rules.md, "Piłkarzyki". Points are ``(x, y)`` with
``x = 0..8`` left to right and ``y = 0..10`` top to bottom, plus the goal
points ``(3..5, -1)`` (top goal) and ``(3..5, 11)`` (bottom goal). The ball
starts at ``(4, 5)``. Pink (player 1) attacks the top goal, blue (player 2)
the bottom one.

Actions are the eight directions, clockwise from the top goal:
``0 N (0, -1)``, ``1 NE (1, -1)``, ``2 E (1, 0)``, ``3 SE (1, 1)``,
``4 S (0, 1)``, ``5 SW (-1, 1)``, ``6 W (-1, 0)``, ``7 NW (-1, -1)``; the
notation is the compass name (``"N"``, ``"NE"`` ..., any letter case). An
action moves the ball one step along a segment nobody has used yet.

Why a move is refused (stable codes, base.py's where they exist):

- ``off_board``: the step leaves the field (no point there);
- ``not_a_goal_entry``: the step ends on a goal point but does not start on
  the goal line between the posts (only ``(3,0)->(4,-1)``, ``(4,0)->(3..5,-1)``
  and ``(5,0)->(4,-1)``, and the same at the bottom, enter a goal);
- ``segment_drawn``: the segment is used, by an earlier move or because it is
  border (the field's sides, the goal lines except the two mouths per goal,
  the goals' sides and backs);
- ``game_over``.

Bounce (odbicie): when the point the ball lands on already had a used
segment before the move (the border counts: every point on the field's
edge, both posts included, but not the middle of a goal mouth), the same
player moves again; otherwise the turn passes. The ball on a goal point ends
the game: the side attacking that goal wins, whoever moved
(``GOAL``/``OWN_GOAL``). A player who must move and has no unused segment
left loses (``STUCK``). There are no draws and no scores (always ``(0, 0)``).

Representation: points are indices into flat arrays of ``9 × 13`` cells
(rows ``y = -1..11``; only the six goal cells of the two outer rows are
real points). ``used[p]`` is a byte with bit ``d`` set when the segment
from ``p`` in direction ``d`` is used (border included), kept on both ends,
so a move and its legality are a few table look-ups and the legal actions of
a position come from one byte. ``clone()`` copies a bytearray and a list.

Set-up positions (``setup``, docs/analysis.md "Position editor"): ``{"path": ..., "by": ...,
"to_move": 1 or 2}``: the lines as the ball's path from the kick-off point, one direction
digit ``0``..``7`` a step, and each line's colour (``1`` or ``2``, ``by``), walked without the
turns' rules; who moves is the set-up's. The used lines of any game are such a path, so every
position of the game can be set up. Each step must be a move the field allows (an unused
segment, on the field, never into a goal: else ``setup_bad``); a ball with no free segment is
``setup_over``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, ClassVar

from games.engine import base

WIDTH = 8  # squares; points x = 0..8
LENGTH = 10  # squares; points y = 0..10
START = (4, 5)
GOAL_XS = (3, 4, 5)
TOP_GOAL_Y = -1
BOTTOM_GOAL_Y = LENGTH + 1

# The ball enters a goal only across the goal line (this game's own code).
NOT_A_GOAL_ENTRY = "not_a_goal_entry"
# Every code this game's moves can be refused with.
ERROR_CODES: tuple[str, ...] = (*base.ERROR_CODES, base.OFF_BOARD, base.SEGMENT_DRAWN, NOT_A_GOAL_ENTRY)

# Termination reasons of this game.
GOAL = "goal"  # the ball in the goal the mover attacks
OWN_GOAL = "own_goal"  # the ball in the mover's own goal: the other side wins
STUCK = "stuck"  # the player to move has no unused segment: that player loses

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_NAME_TO_DIRECTION = {name: d for d, name in enumerate(DIRECTION_NAMES)}

_COLS = WIDTH + 1
_ROWS = LENGTH + 3  # y = -1 .. 11


def index(x: int, y: int) -> int:
    """The flat index of point ``(x, y)`` (goal rows included)."""
    return (y + 1) * _COLS + x


def point(p: int) -> tuple[int, int]:
    """``(x, y)`` of the flat index ``p``."""
    row, x = divmod(p, _COLS)
    return x, row - 1


def _is_field(x: int, y: int) -> bool:
    return 0 <= x <= WIDTH and 0 <= y <= LENGTH


def _is_goal(x: int, y: int) -> bool:
    return y in (TOP_GOAL_Y, BOTTOM_GOAL_Y) and x in GOAL_XS


def _is_border(x1: int, y1: int, x2: int, y2: int) -> bool:
    """Whether the segment between two neighbouring field points is border
    (used from the start). The goals' sides and backs are border too, but no
    step runs along them (they are not goal entries): ``_build_tables`` only
    lists them for pictures."""
    if x1 == x2 and x1 in (0, WIDTH):
        return True  # the sides
    if y1 == y2 and y1 in (0, LENGTH):
        return min(x1, x2) not in (3, 4)  # the goal lines, except the mouths
    return False


def _is_goal_entry(x1: int, y1: int, x2: int, y2: int) -> bool:
    """Whether the step from the field point (x1, y1) to the goal point
    (x2, y2) enters the goal from the line between the posts."""
    line_y = 0 if y2 == TOP_GOAL_Y else LENGTH
    if y1 != line_y:
        return False
    return x1 == 4 or (x2 == 4 and x1 in (3, 5))


def _build_tables() -> tuple[list[int], bytes, bytes, list[str | None], list[tuple[int, int, int, int]]]:
    """Static tables: neighbour index per (point, direction) (-1 off the
    field), the border ``used`` bytes, the points' mask of steps that are not
    moves at all, the refusal code of each such step, and every border
    segment once."""
    size = _COLS * _ROWS
    neighbour = [-1] * (size * 8)
    used = bytearray(size)
    blocked = bytearray(size)
    why: list[str | None] = [None] * (size * 8)
    border: list[tuple[int, int, int, int]] = []
    for p in range(size):
        x, y = point(p)
        if not (_is_field(x, y) or _is_goal(x, y)):
            blocked[p] = 0xFF
            continue
        for d, (dx, dy) in enumerate(DIRECTIONS):
            nx, ny = x + dx, y + dy
            slot = p * 8 + d
            if _is_goal(x, y):
                # The game is over on a goal point: its steps only matter as
                # the other end of a goal entry, which the field point owns.
                if _is_field(nx, ny) and _is_goal_entry(nx, ny, x, y):
                    neighbour[slot] = index(nx, ny)
                else:
                    blocked[p] |= 1 << d
                    why[slot] = base.OFF_BOARD
                continue
            if _is_goal(nx, ny):
                if not _is_goal_entry(x, y, nx, ny):
                    blocked[p] |= 1 << d
                    why[slot] = NOT_A_GOAL_ENTRY
                    continue
            elif not _is_field(nx, ny):
                blocked[p] |= 1 << d
                why[slot] = base.OFF_BOARD
                continue
            neighbour[slot] = index(nx, ny)
            if _is_field(nx, ny) and _is_border(x, y, nx, ny):
                used[p] |= 1 << d
                if (x, y) < (nx, ny):
                    border.append((x, y, nx, ny))
    # The goals' sides and backs: border segments with no move along them
    # (their steps are refused as not a goal entry), drawn all the same.
    for gy, line_y in ((TOP_GOAL_Y, 0), (BOTTOM_GOAL_Y, LENGTH)):
        border.append((3, min(gy, line_y), 3, max(gy, line_y)))
        border.append((5, min(gy, line_y), 5, max(gy, line_y)))
        border.append((3, gy, 4, gy))
        border.append((4, gy, 5, gy))
    border.sort()
    return neighbour, bytes(used), bytes(blocked), why, border


NEIGHBOUR, BORDER_USED, BLOCKED, _WHY, BORDER_SEGMENTS = _build_tables()
START_INDEX = index(*START)
# Legal directions of a position from the byte ``used[p] | blocked[p]``.
FREE_DIRECTIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(d for d in range(8) if not mask >> d & 1) for mask in range(256)
)
GOAL_WINNER: dict[int, int] = {index(x, TOP_GOAL_Y): 1 for x in GOAL_XS} | {index(x, BOTTOM_GOAL_Y): 2 for x in GOAL_XS}
# Segments a game can use: every step that is a move, each segment once.
NUM_PLAYABLE_SEGMENTS = sum(
    1
    for p in range(_COLS * _ROWS)
    for d in range(8)
    if NEIGHBOUR[p * 8 + d] >= 0 and not BORDER_USED[p] >> d & 1 and p < NEIGHBOUR[p * 8 + d]
)


class Pilkarzyki(base.Game):
    """Piłkarzyki: the 8 × 10 field, goals three points wide; no parameters."""

    slug: ClassVar[str] = "pilkarzyki"
    name: ClassVar[str] = "Piłkarzyki"
    error_codes: ClassVar[tuple[str, ...]] = ERROR_CODES

    width = WIDTH
    length = LENGTH
    start = START
    setup_tools: ClassVar[tuple[str, ...]] = base.SETUP_TOOLS

    @classmethod
    def read_setup(cls, setup: object, params: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(setup, dict) or set(setup) != {"path", "by", "to_move"}:
            raise base.SetupError(base.SETUP_BAD, f"pilkarzyki: a set-up is {{'path', 'by', 'to_move'}}, not {setup!r}")
        path, by, to_move = setup["path"], setup["by"], setup["to_move"]
        if not (isinstance(path, str) and isinstance(by, str) and len(path) == len(by)):
            raise base.SetupError(base.SETUP_BAD, "pilkarzyki: a set-up's path and by are strings of one length")
        if set(path) - set("01234567") or set(by) - set("12") or not base.is_int(to_move) or to_move not in (1, 2):
            raise base.SetupError(base.SETUP_BAD, "pilkarzyki: path of 0..7, by of 1 and 2, to_move 1 or 2")
        used, ball = bytearray(BORDER_USED), START_INDEX
        for char in path:
            direction = int(char)
            if not _free_step(used, ball, direction):
                raise base.SetupError(base.SETUP_BAD, f"pilkarzyki: the path {path!r} is no walk of the ball")
            ball = _step(used, ball, direction)
        return {"path": path, "by": by, "to_move": to_move}

    def empty_setup(self) -> dict[str, Any]:
        return {"path": "", "by": "", "to_move": 1}

    def setup_targets(self, setup: dict[str, Any], tool: str) -> list[int]:
        """The directions the ball may go from its point (a line of ``tool``'s colour); with "0",
        back along the last line (it is taken back)."""
        if tool == "0":
            return [int(setup["path"][-1]) ^ 4] if setup["path"] else []
        state = self.draft(setup)
        assert isinstance(state, PilkarzykiState)
        return [d for d in range(8) if _free_step(state.used, state.ball, d)]

    def setup_edit(self, setup: dict[str, Any], tool: str, target: int) -> dict[str, Any]:
        """One more line from the ball in the direction ``target``, in ``tool``'s colour; or the
        last line taken back (tool "0")."""
        if target not in self.setup_targets(setup, tool):
            return setup
        if tool == "0":
            return setup | {"path": setup["path"][:-1], "by": setup["by"][:-1]}
        return setup | {"path": setup["path"] + str(target), "by": setup["by"] + tool}

    @property
    def num_actions(self) -> int:
        return 8

    @property
    def max_game_length(self) -> int:
        # Every action uses one segment for good.
        return NUM_PLAYABLE_SEGMENTS

    def read_move(self, move: object) -> int | str:
        """A direction 0..7 or its compass name ("N", "NE"...)."""
        return self._read_index(move, "a direction 0..7")

    def action_to_string(self, action: int) -> str:
        """``"N"``, ``"NE"`` ... ``"NW"``; raises InvalidActionError."""
        return DIRECTION_NAMES[self.check_action_id(action)]

    def string_to_action(self, text: str) -> int:
        """Parse a compass name (any case, spaces around allowed); raises
        InvalidActionError."""
        if not isinstance(text, str):
            raise base.InvalidActionError(message=f"not a direction: {text!r}")
        try:
            return _NAME_TO_DIRECTION[text.strip().upper()]
        except KeyError:
            raise base.InvalidActionError(message=f"not a direction N, NE, ... NW: {text!r}") from None

    def step(self, x: int, y: int, action: int) -> tuple[int, int]:
        """The point one step from ``(x, y)`` in direction ``action`` (it may
        lie off the field)."""
        dx, dy = DIRECTIONS[self.check_action_id(action)]
        return x + dx, y + dy

    def action_between(self, x1: int, y1: int, x2: int, y2: int) -> int:
        """The direction from ``(x1, y1)`` to the neighbouring ``(x2, y2)``;
        raises InvalidActionError if they are not neighbours."""
        try:
            return DIRECTIONS.index((x2 - x1, y2 - y1))
        except ValueError:
            raise base.InvalidActionError(message=f"({x1}, {y1}) and ({x2}, {y2}) are not neighbours") from None


def _free_step(used: bytes | bytearray, ball: int, direction: int) -> bool:
    """Whether the ball at ``ball`` may go ``direction`` in a set-up: an unused segment of the
    field, not into a goal."""
    if (used[ball] | BLOCKED[ball]) >> direction & 1:
        return False
    return NEIGHBOUR[ball * 8 + direction] not in GOAL_WINNER


def _step(used: bytearray, ball: int, direction: int) -> int:
    """Use the segment from ``ball`` in ``direction`` (both ends) and return the ball's new point."""
    target = NEIGHBOUR[ball * 8 + direction]
    used[ball] |= 1 << direction
    used[target] |= 1 << (direction ^ 4)
    return target


class PilkarzykiState(base.State):
    """One position: the ball, the used segments, whose move it is."""

    game: Pilkarzyki

    def __init__(self, game: Pilkarzyki) -> None:
        super().__init__(game)
        self.used = bytearray(BORDER_USED)
        self.ball = START_INDEX
        self.to_move: int | None = 1
        self._outcome: base.Outcome | None = None
        # Every move so far: (from index, to index, player).
        self.moves: list[tuple[int, int, int]] = []
        # A set-up's lines, as ``moves``, and its path (the directions from the kick-off point).
        self.setup_lines: list[tuple[int, int, int]] = []
        self.setup_path: tuple[int, ...] = ()
        if base.SETUP in game.params:
            self.set_up(game.params[base.SETUP])

    # -- set-up ---------------------------------------------------------------

    def set_up(self, setup: dict[str, Any]) -> None:
        """The path walked line by line, then the set-up's mover (stuck there: the game is over)."""
        for char, by in zip(setup["path"], setup["by"], strict=True):
            start = self.ball
            self.ball = _step(self.used, start, int(char))
            self.setup_lines.append((start, self.ball, int(by)))
        self.setup_path = tuple(int(char) for char in setup["path"])
        self.setup_plies = len(self.setup_path)
        self.to_move = setup["to_move"]
        if self.used[self.ball] | BLOCKED[self.ball] == 0xFF:
            self._finish(base.other(self.to_move), STUCK)

    def to_setup(self) -> dict[str, Any]:
        """The lines as the ball walked them (the set-up's, then the moves'), who moves (pink
        once the game is over)."""
        lines = [*self.setup_lines, *self.moves]
        path = "".join(
            str(DIRECTIONS.index((point(b)[0] - point(a)[0], point(b)[1] - point(a)[1]))) for a, b, _ in lines
        )
        return {"path": path, "by": "".join(str(by) for _, _, by in lines), "to_move": self.to_move or 1}

    # -- queries --------------------------------------------------------------

    def current_player(self) -> int | None:
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self._outcome is not None:
            return []
        ball = self.ball
        return list(FREE_DIRECTIONS[self.used[ball] | BLOCKED[ball]])

    def _illegal_reason(self, action: int) -> str | None:
        ball = self.ball
        if BLOCKED[ball] >> action & 1:
            return _WHY[ball * 8 + action]
        if self.used[ball] >> action & 1:
            return base.SEGMENT_DRAWN
        return None

    def outcome(self) -> base.Outcome | None:
        return self._outcome

    def scores(self) -> tuple[int, int]:
        """Piłkarzyki has no score: always (0, 0)."""
        return (0, 0)

    @property
    def ball_xy(self) -> tuple[int, int]:
        return point(self.ball)

    @property
    def moves_again(self) -> bool:
        """Whether the player who made the last move moves again (a bounce)."""
        return bool(self.moves) and self.to_move is not None and self.to_move == self.moves[-1][2]

    # -- apply ----------------------------------------------------------------

    def _apply(self, action: int) -> dict[str, Any]:
        player = self.to_move
        assert player is not None
        used = self.used
        start = self.ball
        target = NEIGHBOUR[start * 8 + action]
        bounced = used[target] != 0
        used[start] |= 1 << action
        used[target] |= 1 << (action ^ 4)
        self.ball = target
        self.moves.append((start, target, player))

        goal: str | None = None
        stuck: int | None = None
        winner = GOAL_WINNER.get(target)
        if winner is not None:
            goal = "top" if winner == 1 else "bottom"
            self._finish(winner, GOAL if winner == player else OWN_GOAL)
        else:
            nxt = player if bounced else base.other(player)
            if used[target] | BLOCKED[target] == 0xFF:
                stuck = nxt
                self._finish(base.other(nxt), STUCK)
            else:
                self.to_move = nxt
        return {
            "direction": action,
            "from": list(point(start)),
            "to": list(point(target)),
            "segment": [*point(start), *point(target)],
            "bounced": bounced and goal is None,
            "extra_move": bounced and self._outcome is None,
            "goal": goal,
            "stuck": stuck,
        }

    def apply_action_for_viewers(self, action: int) -> base.Effect:
        """``apply_action``, whose details also carry ``legal``: the directions
        open from the ball's new point, so a page patches its targets without
        knowing the rules (docs/protocol.md, "Move frames")."""
        effect = self.apply_action(action)
        effect.details["legal"] = self.legal_actions()
        return effect

    def _finish(self, winner: int, reason: str) -> None:
        self._outcome = base.Outcome(winner=winner, reason=reason, scores=(0, 0))
        self.to_move = None

    # -- pictures -------------------------------------------------------------

    def turn_path(self) -> list[list[int]]:
        """The points the ball has passed in the current (or, once the game is
        over, the last) turn, the turn's first point first."""
        moves = self.moves
        if not moves:
            return [list(point(self.ball))]
        last_player = moves[-1][2]
        first = len(moves) - 1
        while first > 0 and moves[first - 1][2] == last_player:
            first -= 1
        if self.to_move is not None and self.to_move != last_player:
            return [list(point(self.ball))]  # a new turn, nothing played yet
        return [list(point(moves[first][0]))] + [list(point(m[1])) for m in moves[first:]]

    def view(self) -> dict[str, Any]:
        """``ball``: [x, y]; ``segments``: every used segment in the order
        played as [x1, y1, x2, y2, owner]; ``border``: the border segments
        [x1, y1, x2, y2]; ``turn``: the points of the current turn so far
        (the whole last turn once over); ``legal``: the legal directions;
        ``moves_again``: the last mover moves again; ``goals``: who attacks
        each goal and its points."""
        return {
            "width": WIDTH,
            "length": LENGTH,
            "ball": list(point(self.ball)),
            "segments": [[*point(a), *point(b), owner] for a, b, owner in [*self.setup_lines, *self.moves]],
            "border": [list(s) for s in BORDER_SEGMENTS],
            "goals": {
                "top": {"attacker": 1, "points": [[x, TOP_GOAL_Y] for x in GOAL_XS]},
                "bottom": {"attacker": 2, "points": [[x, BOTTOM_GOAL_Y] for x in GOAL_XS]},
            },
            "turn": self.turn_path(),
            "legal": self.legal_actions(),
            "to_move": self.to_move,
            "moves_again": self.moves_again,
        }

    def replay_fields(self) -> dict[str, Any]:
        """``ball``: [x, y]; ``moves_again``: the last mover moves again."""
        return {"ball": list(point(self.ball)), "moves_again": self.moves_again}

    def __str__(self) -> str:
        """The field as text: ``o`` the ball, ``+`` a point with a used
        segment (the ball bounces there), ``.`` a point without."""
        lines = []
        for y in range(TOP_GOAL_Y, BOTTOM_GOAL_Y + 1):
            row = []
            for x in range(WIDTH + 1):
                if not (_is_field(x, y) or _is_goal(x, y)):
                    row.append(" ")
                    continue
                p = index(x, y)
                if p == self.ball:
                    row.append("o")
                elif self.used[p]:
                    row.append("+")
                else:
                    row.append(".")
            lines.append(" ".join(row))
        to_move = "koniec" if self.to_move is None else f"ruch: {self.to_move}"
        lines.append(f"piłka {list(point(self.ball))}, {to_move}")
        return "\n".join(lines)

    def canonical(self) -> bytes:
        """The segments used and where the ball is, seen by the side to move as attacking the
        top goal (blue's positions turned upside down: the colours are folded), and the
        smaller of that and its left-right mirror image (the pitch is symmetric)."""
        used, ball = bytes(self.used), self.ball
        if self.to_move == 2:
            used, ball = _UPSIDE_DOWN(used, ball)
        board, ball = min((used, ball), _MIRROR(used, ball))
        return board + f":{ball}".encode()

    def clone(self) -> PilkarzykiState:
        copy = PilkarzykiState.__new__(PilkarzykiState)
        copy.game = self.game
        copy.history = list(self.history)
        copy.used = bytearray(self.used)
        copy.ball = self.ball
        copy.to_move = self.to_move
        copy._outcome = self._outcome
        copy.moves = list(self.moves)
        copy.setup_lines = self.setup_lines
        copy.setup_path = self.setup_path
        copy.setup_plies = self.setup_plies
        return copy


Pilkarzyki.state_class = PilkarzykiState


@dataclass(frozen=True)
class _Flip:
    """A symmetry of the pitch (its own inverse): each cell's image, and the byte table that
    maps a cell's used bits (one per direction) to the image's."""

    image: tuple[int, ...]
    bits: bytes

    @classmethod
    def of(cls, point_of: Callable[[int, int], tuple[int, int]], direction_of: Callable[[int], int]) -> _Flip:
        image = tuple(index(*point_of(*point(p))) for p in range(_COLS * _ROWS))
        bits = bytes(sum(1 << direction_of(d) for d in range(8) if b >> d & 1) for b in range(256))
        return cls(image, bits)

    def __call__(self, used: bytes, ball: int) -> tuple[bytes, int]:
        """``used`` and ``ball`` seen in this symmetry."""
        return bytes(itemgetter(*self.image)(used)).translate(self.bits), self.image[ball]


# x -> 8 - x (N and S stay, NE <-> NW ...); y -> 10 - y (N <-> S, NE <-> SE ..., the goals swap)
_MIRROR = _Flip.of(lambda x, y: (WIDTH - x, y), lambda d: (8 - d) % 8)
_UPSIDE_DOWN = _Flip.of(lambda x, y: (x, LENGTH - y), lambda d: (4 - d) % 8)


GAME = Pilkarzyki  # what games.engine registers for "pilkarzyki"
