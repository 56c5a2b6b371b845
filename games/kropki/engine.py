"""Kropki (Dots): surround the opponent's dots with a closed chain of yours.

Rules: docs/rules.md, "Kropki". Where the words leave a case open, the
replays of the community engine pointsgame/oppai-rs decide
(tests/games/engine/test_kropki_vectors.py), so capture detection follows the same local
method: after a dot is placed, look only at its 8 neighbours, walk the
tightest chain of live dots around each gap between them, and flood the inside
of every chain found. Nothing ever scans the whole board per move.

Board layout. Points live in one flat ``bytearray`` with a one-point border:
``stride = width + 1`` and point ``(x, y)`` is ``(y + 1) * stride + x + 1``.
The border column at index 0 of each row doubles as column ``width`` of the
row above, so every on-board point has all 8 neighbours in the array and every
neighbour off the board is marked ``_BAD``.

Each point is a bit set:

- ``_PUT``: a dot stands here; ``_BLUE`` tells its colour (set = player 2).
- ``_CAPTURED``: for a dot, it lies in the *other* colour's territory; for an
  empty point, it is territory of the colour in ``_BLUE``. Nobody may play on
  a captured point.
- ``_BOUND``: the dot belongs to a chain that made territory.
- ``_EMPTY_BASE``: an empty enclosure of the colour in ``_BLUE`` (shown as
  ``x``/``y``); still playable by both players.

Actions: ``y * width + x`` places a dot, ``width * height`` ends the game
(zakończ) for the player to move. Notation: column letters ``a``..``z``,
``aa``.. then the row number from the top, ``1``..``height`` (``"e5"`` is
``x=4, y=4``); ``"zakończ"`` ends the game (``"end"`` and ``"zakoncz"`` are
accepted too).

Equal scores at the end are a draw: ``Outcome(winner=None, reason=SCORE)``.

Set-up positions (``setup``, docs/analysis.md "Position editor"): ``{"dots": ..., "to_move":
1 or 2, "score": [pink, blue]}``, the points row by row from the top, each ``.``, ``1`` or
``2``, and the score (the dots each side took before). Plain dots only: they
are placed in the points' order by the rules, and any that enclose an opponent's dot refuse
the set-up (``setup_capture``; an empty ring stands, as in a game). Not with a ``start``
(the editor turns a start's dots into the set-up's); a full board or a score already ahead by
the ``margin`` is ``setup_over``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from itertools import compress
from operator import itemgetter
from typing import Any, ClassVar

from games.engine.base import (
    ERROR_CODES as CONTRACT_CODES,
)
from games.engine.base import (
    NOT_YOUR_TURN,
    OCCUPIED,
    OFF_BOARD,
    SETUP,
    SETUP_BAD,
    SETUP_TOOLS,
    UNKNOWN_ACTION,
    BadRecord,
    Effect,
    EngineError,
    Game,
    GameOverError,
    InvalidActionError,
    InvalidParamsError,
    Outcome,
    SetupError,
    State,
    column_name,
    grid_symmetries,
    is_int,
    other,
)

# How a game of Kropki ends: the higher score wins, equal scores draw; with a margin (an option),
# the moment one player's score leads by it.
SCORE = "score"
MARGIN = "margin"

# The moves Kropki refuses with codes of its own (stable: the socket and the replay speak them).
INSIDE_TERRITORY = "inside_territory"  # a point inside someone's territory
PLAYER_HAS_ENDED = "player_has_ended"  # a player who ended their game places no more dots
ERROR_CODES: tuple[str, ...] = (*CONTRACT_CODES, OFF_BOARD, OCCUPIED, INSIDE_TERRITORY, PLAYER_HAS_ENDED)
# A set-up whose dots enclose an opponent's dot (the module's docstring).
SETUP_CAPTURE = "setup_capture"

MIN_WIDTH, MAX_WIDTH = 5, 40
MIN_HEIGHT, MAX_HEIGHT = 5, 40
DEFAULT_WIDTH = DEFAULT_HEIGHT = 10

# Starting positions (SPEC.md "Kropki: options"): the dots on the board before the first
# move, as (dx, dy, player) from the centre point (width // 2, height // 2). A cross is two
# dots of each colour on the diagonals of the square left of and above the centre, pink's
# on the falling diagonal; the same points as oppai-rs's InitialPosition (pink as its first
# player), so games from a cross compare between the two engines. Pink still moves first.
EMPTY = "empty"
STARTS: dict[str, tuple[tuple[int, int, int], ...]] = {
    EMPTY: (),
    "cross": ((-1, -1, 1), (-1, 0, 2), (0, 0, 1), (0, -1, 2)),
    "two_crosses": ((-2, -1, 1), (-2, 0, 2), (-1, 0, 1), (-1, -1, 2), (0, 0, 1), (0, -1, 2), (1, -1, 1), (1, 0, 2)),
    "triple_cross": ((-1, -1, 1), (-1, 0, 2), (0, 0, 1), (0, -1, 2), (1, -1, 1), (0, -2, 2), (0, 1, 1), (1, 0, 2)),
}

# Seed 001's options (SPEC.md "Kropki: options"), each left out of the parameters when off:
# ``margin`` (the game ends once a score leads by it), ``penalty`` (−1 for each of one's own dots
# inside one's own new territory) and ``territory`` (empty rings scored at the end: ``_territory``).
MARGINS = (1, 15, 30)
OPTIONS = ("margin", "penalty", "territory")

END_NOTATION = "zakończ"
_END_ALIASES = frozenset({"zakończ", "zakoncz", "end"})

_BLUE = 1
_PUT = 2
_CAPTURED = 4
_BOUND = 8
_EMPTY_BASE = 16
_BAD = 32

# Point byte -> 1 when a dot may go there (no dot, no territory, on the board).
_FREE_TABLE = bytes(0 if cell & (_PUT | _CAPTURED | _BAD) else 1 for cell in range(256))

# Grid characters of vectors/README.md, indexed by the low three bits
# (_BLUE | _PUT | _CAPTURED) of a point.
_GRID_CHARS = ".", ".", "A", "B", "1", "2", "a", "b"


def _colour_bit(player: int) -> int:
    return _BLUE if player == 2 else 0


def _column_index(name: str) -> int:
    value = 0
    for char in name:
        value = value * 26 + (ord(char) - ord("a") + 1)
    return value - 1


class Kropki(Game):
    """Kropki on a ``width`` x ``height`` grid of intersections (5..40 x 5..40), from an
    empty board or one of the ``STARTS`` (param ``start``, absent for an empty board), with
    seed 001's ``OPTIONS`` (each absent when off)."""

    slug: ClassVar[str] = "kropki"
    error_codes: ClassVar[tuple[str, ...]] = ERROR_CODES
    name: ClassVar[str] = "Kropki"
    position_params: ClassVar[tuple[str, ...]] = (SETUP, "start")
    setup_tools: ClassVar[tuple[str, ...]] = SETUP_TOOLS

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.width: int = self.params["width"]
        self.height: int = self.params["height"]
        self.stride: int = self.width + 1
        self.end_action: int = self.width * self.height  # never None for Kropki
        s = self.stride
        # N, NE, E, SE, S, SW, W, NW: clockwise on the screen (y grows down).
        self.offsets: tuple[int, ...] = (-s, -s + 1, 1, s + 1, s, s - 1, -1, -s - 1)
        size = s * (self.height + 2) + 1
        blank = bytearray(size)
        for pos in range(size):
            x, y = pos % s - 1, pos // s - 1
            if not (0 <= x < self.width and 0 <= y < self.height):
                blank[pos] = _BAD
        self.blank_points: bytes = bytes(blank)
        self.pos_of_action: tuple[int, ...] = tuple(
            (a // self.width + 1) * s + a % self.width + 1 for a in range(self.end_action)
        )
        # The inverse, over the whole array (border points map to -1); both
        # run in the same order, so filtering it keeps actions ascending.
        action_of_pos = [-1] * size
        for action, pos in enumerate(self.pos_of_action):
            action_of_pos[pos] = action
        self.action_of_pos: tuple[int, ...] = tuple(action_of_pos)
        cx, cy = self.width // 2, self.height // 2
        # (action, player) of each dot of the starting position
        self.start_dots: tuple[tuple[int, int], ...] = tuple(
            ((cy + dy) * self.width + cx + dx, player) for dx, dy, player in STARTS[self.params.get("start", EMPTY)]
        )
        self.margin: int | None = self.params.get("margin")
        self.penalty: bool = self.params.get("penalty", False)
        self.territory: bool = self.params.get("territory", False)

    @classmethod
    def validate_params(cls, params: dict[str, Any]) -> dict[str, Any]:
        unknown = set(params) - {"width", "height", "start", SETUP, *OPTIONS}
        if unknown:
            raise InvalidParamsError(f"kropki: unknown parameters {sorted(unknown)}")
        width = params.get("width", DEFAULT_WIDTH)
        height = params.get("height", DEFAULT_HEIGHT)
        start = params.get("start", EMPTY)
        for label, value, low, high in (
            ("width", width, MIN_WIDTH, MAX_WIDTH),
            ("height", height, MIN_HEIGHT, MAX_HEIGHT),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InvalidParamsError(f"kropki: {label} must be an integer {low}..{high}, not {value!r}")
        if not isinstance(start, str) or start not in STARTS:
            raise InvalidParamsError(f"kropki: start must be one of {sorted(STARTS)}, not {start!r}")
        margin = params.get("margin")
        if margin is not None and (isinstance(margin, bool) or margin not in MARGINS):
            raise InvalidParamsError(f"kropki: margin must be one of {list(MARGINS)}, not {margin!r}")
        for flag in ("penalty", "territory"):
            if not isinstance(params.get(flag, False), bool):
                raise InvalidParamsError(f"kropki: {flag} must be true or false, not {params[flag]!r}")
        # a default (an empty start, an option off) is left out, so the parameters of every
        # game from before it existed stay equal
        valid = {"width": width, "height": height} | ({} if start == EMPTY else {"start": start})
        if margin is not None:
            valid["margin"] = margin
        valid |= {flag: True for flag in ("penalty", "territory") if params.get(flag)}
        if SETUP in params:
            valid[SETUP] = cls.checked_setup(params[SETUP], valid)
        return valid

    @classmethod
    def read_setup(cls, setup: object, params: dict[str, Any]) -> dict[str, Any]:
        size = params["width"] * params["height"]
        if "start" in params or not isinstance(setup, dict) or set(setup) != {"dots", "to_move", "score"}:
            raise SetupError(SETUP_BAD, f"kropki: a set-up is {{'dots', 'to_move', 'score'}}, not {setup!r}")
        dots, to_move, score = setup["dots"], setup["to_move"], setup["score"]
        if not isinstance(dots, str) or len(dots) != size or set(dots) - set(".12"):
            raise SetupError(SETUP_BAD, f"kropki: a set-up's dots are {size} of '.12'")
        if not is_int(to_move) or to_move not in (1, 2):
            raise SetupError(SETUP_BAD, f"kropki: to_move is 1 or 2, not {to_move!r}")
        if not (isinstance(score, list) and len(score) == 2 and all(is_int(n) and 0 <= n <= size for n in score)):
            raise SetupError(SETUP_BAD, f"kropki: a set-up's score is [pink, blue] 0..{size}, not {score!r}")
        return {"dots": dots, "to_move": to_move, "score": list(score)}

    def empty_setup(self) -> dict[str, Any]:
        return {"dots": "." * (self.width * self.height), "to_move": 1, "score": [0, 0]}

    def setup_targets(self, setup: dict[str, Any], tool: str) -> list[int]:
        """The points a dot of ``tool``'s colour is not on yet; with "0", the dots."""
        if tool == "0":
            return [a for a, char in enumerate(setup["dots"]) if char != "."]
        return [a for a, char in enumerate(setup["dots"]) if char != tool]

    def setup_edit(self, setup: dict[str, Any], tool: str, target: int) -> dict[str, Any]:
        """A dot of ``tool``'s colour on the point ``target`` (one of the other colour replaced),
        or none there (tool "0")."""
        dots = setup["dots"]
        if tool not in SETUP_TOOLS or not 0 <= target < len(dots):
            return setup
        return setup | {"dots": dots[:target] + ("." if tool == "0" else tool) + dots[target + 1 :]}

    @property
    def num_actions(self) -> int:
        return self.width * self.height + 1

    @property
    def max_game_length(self) -> int:
        # Every dot fills a point for good; each player ends at most once.
        return self.width * self.height + 2

    # -- coordinates and notation ----------------------------------------

    def action_for(self, x: object, y: object) -> int:
        """The action placing a dot at ``(x, y)``.

        Raises InvalidActionError with code ``off_board`` for integer
        coordinates outside the board and ``unknown_action`` for non-integers.
        """
        if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int) or not isinstance(y, int):
            raise InvalidActionError(UNKNOWN_ACTION, f"coordinates must be integers, not {x!r}, {y!r}")
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise InvalidActionError(OFF_BOARD, f"({x}, {y}) is off the {self.width}x{self.height} board")
        return y * self.width + x

    def xy(self, action: int) -> tuple[int, int]:
        """``(x, y)`` of a dot action; raises InvalidActionError otherwise."""
        self.check_action_id(action)
        if action == self.end_action:
            raise InvalidActionError(message="the end action has no coordinates")
        return action % self.width, action // self.width

    def read_move(self, move: object) -> int | str:
        """A record's move: ``[x, y]`` (a pair off the board is ``off_board``) or ``["end"]``."""
        if isinstance(move, list) and move == ["end"]:
            return UNKNOWN_ACTION if self.end_action is None else self.end_action
        if isinstance(move, list) and len(move) == 2 and is_int(move[0]) and is_int(move[1]):
            try:
                return self.action_for(move[0], move[1])
            except EngineError as error:
                return error.code
        raise BadRecord(f'a kropki move is [x, y] or ["end"], not {json.dumps(move)}')

    def action_to_string(self, action: int) -> str:
        self.check_action_id(action)
        if action == self.end_action:
            return END_NOTATION
        return f"{column_name(action % self.width)}{action // self.width + 1}"

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidActionError(message=f"notation must be text, not {text!r}")
        cleaned = text.strip().lower()
        if cleaned in _END_ALIASES:
            return self.end_action
        letters = cleaned.rstrip("0123456789")
        digits = cleaned[len(letters) :]
        if not letters or not digits or not letters.isascii() or not letters.isalpha() or digits[0] == "0":
            raise InvalidActionError(message=f"cannot read {text!r} as a Kropki move")
        return self.action_for(_column_index(letters), int(digits) - 1)


class KropkiState(State):
    """One Kropki position. ``clone()`` copies arrays; it never replays."""

    game: Kropki

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        assert isinstance(game, Kropki)
        self.points = bytearray(game.blank_points)
        self.free = game.width * game.height
        self.captured_dots = [0, 0, 0]  # by dot colour; index 0 unused
        self.penalties = [0, 0, 0]  # by player: own dots inside own new territory (option ``penalty``)
        self.bonus = [0, 0, 0]  # by player: the territory scored at the end (option ``territory``)
        self.dot_movers = (0, 0)  # who placed the second-to-last and the last dot (0: nobody yet)
        self.ended = [False, False, False]  # by player; index 0 unused
        self.to_move: int | None = 1
        self.last: int | None = None
        # Every territory so far: (owner, chain of board positions in order).
        self.territory_chains: list[tuple[int, tuple[int, ...]]] = []
        self._outcome: Outcome | None = None
        for action, player in game.start_dots:  # a start never encloses anything
            self._place(game.pos_of_action[action], player, [])
        self.setup_captures = False  # a set-up's dots enclosed something (setup_problem)
        if SETUP in game.params:
            self.set_up(game.params[SETUP])

    # -- set-up -----------------------------------------------------------

    def set_up(self, setup: dict[str, Any]) -> None:
        """The dots placed by the rules in the points' order, the score, and who moves."""
        game = self.game
        territories: list[dict[str, Any]] = []
        for action, char in enumerate(setup["dots"]):
            if char != ".":
                self._place(game.pos_of_action[action], int(char), territories)
                self.setup_plies += 1
        self.setup_captures = bool(territories)
        pink, blue = setup["score"]
        self.captured_dots = [0, blue, pink]  # by dot colour: pink's score is the blue dots taken
        self._pass_turn(other(setup["to_move"]))  # to the mover, unless the board is full or the margin reached

    def setup_problem(self) -> str | None:
        return SETUP_CAPTURE if self.setup_captures else super().setup_problem()

    def to_setup(self) -> dict[str, Any]:
        """The dots that are not captured, the score of the dots taken, who moves (pink once the
        game is over): the territories do not come along (a set-up has no captures)."""
        dots = "".join(
            ("2" if cell & _BLUE else "1") if cell & (_PUT | _CAPTURED) == _PUT else "."
            for cell in map(self.points.__getitem__, self.game.pos_of_action)
        )
        return {"dots": dots, "to_move": self.to_move or 1, "score": [self.captured_dots[2], self.captured_dots[1]]}

    # -- queries ----------------------------------------------------------

    def current_player(self) -> int | None:
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self.to_move is None:
            return []
        actions = list(compress(self.game.action_of_pos, self.points.translate(_FREE_TABLE)))
        actions.append(self.game.end_action)
        return actions

    def free_points(self) -> int:
        """How many points a dot may still go on (empty, in no territory)."""
        return self.free

    def _illegal_reason(self, action: int) -> str | None:
        if action == self.game.end_action:
            return None
        cell = self.points[self.game.pos_of_action[action]]
        if cell & _PUT:
            return OCCUPIED
        if cell & _CAPTURED:
            return INSIDE_TERRITORY
        return None

    def illegal_reason_for(self, player: int, action: object) -> str | None:
        """Like ``illegal_reason`` but for a given player (who may not be the
        one to move): ``player_has_ended`` if that player has ended the game,
        ``not_your_turn`` if it is the other player's move."""
        reason = self.illegal_reason(action)
        if reason is not None and reason not in (OCCUPIED, INSIDE_TERRITORY):
            return reason
        if player not in (1, 2):
            return UNKNOWN_ACTION
        if self.ended[player]:
            return PLAYER_HAS_ENDED
        if player != self.to_move:
            return NOT_YOUR_TURN
        return reason

    def turn_refusal(self, player: int) -> str:
        return PLAYER_HAS_ENDED if self.ended[player] else NOT_YOUR_TURN

    def has_ended(self, player: int) -> bool:
        """Whether ``player`` has ended the game (zakończ)."""
        return self.ended[player]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def scores(self) -> tuple[int, int]:
        captured, penalties, bonus = self.captured_dots, self.penalties, self.bonus
        return captured[2] - penalties[1] + bonus[1], captured[1] - penalties[2] + bonus[2]

    def empty_territory(self) -> tuple[int, int]:
        """The empty points in each player's empty rings (``baseny``), pink's first."""
        counts = [0, 0]
        points = self.points
        for pos in self.game.pos_of_action:
            cell = points[pos]
            if cell & (_EMPTY_BASE | _PUT) == _EMPTY_BASE:
                counts[cell & _BLUE] += 1
        return counts[0], counts[1]

    def _territory(self) -> None:
        """Seed 001's third example: half a point for each empty point of one's empty rings,
        less half a point for whoever placed the second-to-last dot; the difference between
        the two, rounded down, goes to the one ahead. Counted in half points."""
        halves = [0, *self.empty_territory()]
        second_to_last = self.dot_movers[0]
        if second_to_last:
            halves[second_to_last] -= 1
        difference = halves[1] - halves[2]
        if difference:
            self.bonus[1 if difference > 0 else 2] = abs(difference) // 2

    # -- applying ---------------------------------------------------------

    def _apply(self, action: int) -> dict[str, Any]:
        player = self.to_move
        if player is None:  # guarded by apply_action; kept for direct callers
            raise GameOverError(message="the game is over")
        game = self.game
        if action == game.end_action:
            self.ended[player] = True
            self._pass_turn(player)
            return {"x": None, "y": None, "ended": True, "territories": [], "taken": False}

        pos = game.pos_of_action[action]
        territories: list[dict[str, Any]] = []
        taken = self._place(pos, player, territories)
        self.last = pos
        self.dot_movers = (self.dot_movers[1], player)
        self._pass_turn(player)
        return {
            "x": action % game.width,
            "y": action // game.width,
            "ended": False,
            "territories": territories,
            "taken": taken,
        }

    def _pass_turn(self, player: int) -> None:
        """Hand the move on: to the opponent unless they have ended (solo
        play); nobody once both have ended or no free point is left."""
        opponent = other(player)
        nxt: int | None = player if self.ended[opponent] else opponent
        reason = SCORE
        if (self.ended[1] and self.ended[2]) or self.free == 0:
            nxt = None
            if self.game.territory:
                self._territory()
        elif self.game.margin is not None:
            s1, s2 = self.scores()
            if abs(s1 - s2) >= self.game.margin:
                nxt, reason = None, MARGIN
        self.to_move = nxt
        if nxt is None:
            s1, s2 = self.scores()
            winner = 1 if s1 > s2 else 2 if s2 > s1 else None
            self._outcome = Outcome(winner=winner, reason=reason, scores=(s1, s2))

    def _place(self, pos: int, player: int, territories: list[dict[str, Any]]) -> bool:
        """Put ``player``'s dot on the free ``pos`` and resolve enclosures,
        the mover's first. Returns whether the new dot itself was taken."""
        points = self.points
        cell = points[pos]
        colour = _colour_bit(player)
        points[pos] = (cell & ~_BLUE) | colour | _PUT
        self.free -= 1
        if not cell & _EMPTY_BASE:
            self._find_captures(pos, player, territories)
            return False
        if cell & _BLUE == colour:
            # A dot in the mover's own empty enclosure: the enclosure keeps
            # standing around it and no chain search is made (as oppai-rs).
            points[pos] &= ~_EMPTY_BASE
            return False
        # The mover's enclosures first: a dot that takes something lives and
        # breaks the enclosure it stands in. (oppai-rs also spares a dot that
        # closes only an empty ring; our rules say it must take something. No
        # replay and no random game we tried ever reaches that difference.)
        taken_before = len(territories)
        self._find_captures(pos, player, territories)
        if len(territories) > taken_before:
            self._clear_empty_enclosure(pos)
            return False
        self._opponent_takes(pos, other(player), territories)
        return True

    def _live(self, pos: int, colour: int) -> bool:
        return self.points[pos] & (_PUT | _CAPTURED | _BLUE) == _PUT | colour

    def _gaps(self, center: int, colour: int) -> list[tuple[int, int]]:
        """The gaps between the live dots of ``colour`` around ``center``.

        Each gap is (direction of the first chain dot after it, the empty
        orthogonal neighbour that would lie inside a chain closed there),
        looking at the W, S, E and N sides in turn.
        """
        points = self.points
        s = self.game.stride
        want = _PUT | colour
        mask = _PUT | _CAPTURED | _BLUE
        west, east, north, south = center - 1, center + 1, center - s, center + s
        has_w = points[west] & mask == want
        has_e = points[east] & mask == want
        has_n = points[north] & mask == want
        has_s = points[south] & mask == want
        gaps: list[tuple[int, int]] = []
        if not has_w:
            if points[north - 1] & mask == want:
                gaps.append((7, west))
            elif has_n:
                gaps.append((0, west))
        if not has_s:
            if points[south - 1] & mask == want:
                gaps.append((5, south))
            elif has_w:
                gaps.append((6, south))
        if not has_e:
            if points[south + 1] & mask == want:
                gaps.append((3, east))
            elif has_s:
                gaps.append((4, east))
        if not has_n:
            if points[north + 1] & mask == want:
                gaps.append((1, north))
            elif has_e:
                gaps.append((2, north))
        return gaps

    def _walk_chain(self, start: int, colour: int, direction: int) -> tuple[list[int], bool]:
        """Follow live dots of ``colour`` from ``start`` through its neighbour
        in ``direction``, always taking the leftmost turn, back to ``start``.

        Returns (chain, encloses): the chain is emptied when the walk runs
        into the border; ``encloses`` is true when the closed chain turns the
        way that surrounds the gap it started from (negative signed area).
        """
        points = self.points
        offsets = self.game.offsets
        want = _PUT | colour
        mask = _PUT | _CAPTURED | _BLUE
        center = start + offsets[direction]
        chain = [start, center]
        on_chain = {center}
        while True:
            direction = ((direction + 6) | 1) & 7
            pos = center + offsets[direction]
            while points[pos] & mask != want:
                if points[pos] & _BAD:
                    return [], False
                direction = (direction + 1) & 7
                pos = center + offsets[direction]
            if pos == start:
                break
            if pos in on_chain:
                while chain[-1] != pos:
                    on_chain.discard(chain.pop())
            else:
                on_chain.add(pos)
                chain.append(pos)
            center = pos
        s = self.game.stride
        area = 0
        px, py = chain[-1] % s, chain[-1] // s
        for pos in chain:
            x, y = pos % s, pos // s
            area += px * y - py * x
            px, py = x, y
        return chain, area < 0

    def _find_captures(self, pos: int, player: int, territories: list[dict[str, Any]]) -> bool:
        """Close every chain the new dot at ``pos`` completes and resolve them,
        shortest first. Returns whether any chain closed (even around nothing)."""
        colour = _colour_bit(player)
        gaps = self._gaps(pos, colour)
        wanted = len(gaps) - 1
        if wanted <= 0:
            return False
        chains: list[tuple[list[int], int]] = []
        for direction, inside in gaps:
            chain, encloses = self._walk_chain(pos, colour, direction)
            if encloses:
                chains.append((chain, inside))
                if len(chains) == wanted:
                    break
            elif 0 < len(chain) < 4:
                # A short chain walked the wrong way round cannot close
                # another gap either.
                wanted -= 1
                if len(chains) == wanted:
                    break
        chains.sort(key=lambda item: len(item[0]))
        for chain, inside in chains:
            self._enclose(chain, inside, player, territories)
        return bool(chains)

    def _enclose(self, chain: list[int], inside: int, player: int, territories: list[dict[str, Any]]) -> bool:
        """Flood the inside of ``chain`` from ``inside``. With an opponent dot
        inside it becomes ``player``'s territory; otherwise the empty points
        inside become ``player``'s empty enclosure. Returns whether it took."""
        points = self.points
        s = self.game.stride
        colour = _colour_bit(player)
        bound_own = _PUT | _BOUND | colour
        seen = set(chain)
        seen.add(inside)
        if inside in set(chain) or points[inside] & (_PUT | _BOUND | _BLUE) == bound_own:
            return False
        region = [inside]
        i = 0
        opponent_dots = 0
        while i < len(region):
            pos = region[i]
            i += 1
            cell = points[pos]
            if cell & _BAD:  # cannot happen for a closed chain; never leave the board
                return False
            if cell & _PUT and cell & _BLUE != colour:
                opponent_dots += 1
            for nxt in (pos - s, pos + s, pos - 1, pos + 1):
                if nxt not in seen:
                    seen.add(nxt)
                    if points[nxt] & (_PUT | _BOUND | _BLUE) != bound_own:
                        region.append(nxt)
        if not opponent_dots:
            for pos in region:
                cell = points[pos]
                if not cell & _PUT:
                    points[pos] = (cell & ~_BLUE) | colour | _EMPTY_BASE
            return False

        for pos in chain:
            points[pos] |= _BOUND
        new_points: list[int] = []
        captured: list[int] = []
        freed: list[int] = []
        penalised: list[int] = []  # own dots inside, with the option ``penalty``
        opponent = other(player)
        for pos in region:
            cell = points[pos]
            if not cell & _PUT:
                if not (cell & _CAPTURED and cell & _BLUE == colour):
                    new_points.append(pos)
                if not cell & _CAPTURED:
                    self.free -= 1
                points[pos] = (cell & ~(_EMPTY_BASE | _BLUE)) | _CAPTURED | colour
            elif cell & _BLUE != colour:
                if not cell & _CAPTURED:
                    captured.append(pos)
                    self.captured_dots[opponent] += 1
                points[pos] = (cell & ~_BOUND) | _CAPTURED
            elif cell & _CAPTURED:
                freed.append(pos)
                self.captured_dots[player] -= 1
                points[pos] = cell & ~_CAPTURED
            elif self.game.penalty:
                penalised.append(pos)
        self.penalties[player] += len(penalised)
        self.territory_chains.append((player, tuple(chain)))
        coords = self._coords
        territories.append(
            {
                "owner": player,
                "chain": coords(chain),
                "points": coords(new_points),
                "captured": coords(captured),
                "freed": coords(freed),
            }
            | ({"penalised": coords(penalised)} if penalised else {})
        )
        return True

    def _clear_empty_enclosure(self, pos: int) -> None:
        """Forget the empty enclosure (of either colour) that ``pos`` is part
        of: the mover played into it and lived."""
        points = self.points
        s = self.game.stride
        if not points[pos] & _EMPTY_BASE:
            return
        points[pos] &= ~_EMPTY_BASE
        stack = [pos]
        while stack:
            here = stack.pop()
            for nxt in (here - s, here + s, here - 1, here + 1):
                if points[nxt] & _EMPTY_BASE:
                    points[nxt] &= ~_EMPTY_BASE
                    stack.append(nxt)

    def _opponent_takes(self, pos: int, owner: int, territories: list[dict[str, Any]]) -> None:
        """The dot at ``pos`` went into an empty enclosure of ``owner`` and
        closed nothing itself: the enclosure around it becomes ``owner``'s
        territory. Its chain is found by walking west to ``owner``'s dots."""
        points = self.points
        colour = _colour_bit(owner)
        probe = pos
        while True:
            probe -= 1
            while probe >= 0 and points[probe] & (_PUT | _BLUE) != _PUT | colour:
                probe -= 1
            if probe < 0:  # an empty enclosure always has a wall to the west
                return
            for direction, inside in self._gaps(probe, colour):
                chain, encloses = self._walk_chain(probe, colour, direction)
                if encloses and self._inside_ring(pos, chain):
                    self._enclose(chain, inside, owner, territories)
                    return

    def _inside_ring(self, pos: int, ring: list[int]) -> bool:
        """Whether ``pos`` lies inside the polygon ``ring`` (a ray cast to the
        west, counting the ring's crossings of the point's row)."""
        s = self.game.stride
        px, py = pos % s, pos // s
        crossings = 0
        state = 0  # 0 none, 1 the ring came from the row below, -1 from above

        def side(node: int) -> int | None:
            x, y = node % s, node // s
            if x > px:
                return 0
            dy = y - py
            if dy == 1:
                return 1
            if dy == -1:
                return -1
            if dy == 0:
                return None  # on the row: keep the previous side
            return 0

        for node in ring:
            now = side(node)
            if now is None:
                continue
            if now and state == -now:
                crossings += 1
            state = now
        if state:
            first = 0
            for node in ring:
                now = side(node)
                if now is not None:
                    first = now
                    break
            if first == -state:
                crossings += 1
        return crossings % 2 == 1

    # -- pictures ---------------------------------------------------------

    def _coords(self, positions: list[int] | tuple[int, ...]) -> list[list[int]]:
        s = self.game.stride
        return [[pos % s - 1, pos // s - 1] for pos in positions]

    def grid(self) -> str:
        """The board in the alphabet of ``vectors/README.md``, row by row."""
        points = self.points
        chars = []
        for pos in self.game.pos_of_action:
            cell = points[pos]
            if cell & (_PUT | _CAPTURED):
                chars.append(_GRID_CHARS[cell & 7])
            elif cell & _EMPTY_BASE:
                chars.append("y" if cell & _BLUE else "x")
            else:
                chars.append(".")
        return "".join(chars)

    def replay_fields(self) -> dict[str, Any]:
        return {"grid": self.grid()}

    def apply_action_for_viewers(self, action: int) -> Effect:
        """The move's effect for live frames: the engine's details without
        the territories' inner points (``cells`` says them), plus ``cells``,
        every point whose grid character changed as ``[action id, char]``
        (the alphabet of ``grid``): new dots, captured and freed dots,
        territory, empty enclosures made or broken. O(board) string work,
        once per real move; the bots use ``apply_action``."""
        before = self.grid()
        effect = self.apply_action(action)
        after = self.grid()
        details = effect.details
        details["territories"] = [
            {"owner": t["owner"], "chain": t["chain"], "captured": t["captured"]} for t in details["territories"]
        ]
        details["cells"] = [[i, char] for i, (old, char) in enumerate(zip(before, after, strict=True)) if old != char]
        return effect

    def view(self) -> dict[str, Any]:
        game = self.game
        points = self.points
        dots: list[list[int]] = []
        territory: list[str] = []
        empty: list[list[int]] = []
        for action, pos in enumerate(game.pos_of_action):
            cell = points[pos]
            x, y = action % game.width, action // game.width
            blue = 2 if cell & _BLUE else 1
            if cell & _PUT:
                captured = bool(cell & _CAPTURED)
                dots.append([x, y, blue, int(captured)])
                territory.append(str(other(blue)) if captured else "0")
            elif cell & _CAPTURED:
                territory.append(str(blue))
            else:
                territory.append("0")
                if cell & _EMPTY_BASE:
                    empty.append([x, y, blue])
        s = game.stride
        return {
            "width": game.width,
            "height": game.height,
            "grid": self.grid(),
            "dots": dots,
            "territory": "".join(territory),
            "chains": [{"owner": owner, "chain": self._coords(chain)} for owner, chain in self.territory_chains],
            "empty_enclosures": empty,
            "last": None if self.last is None else [self.last % s - 1, self.last // s - 1],
            "ended": [self.ended[1], self.ended[2]],
            "scores": list(self.scores()),
            "to_move": self.to_move,
        }

    def __str__(self) -> str:
        game = self.game
        grid = self.grid()
        names = [column_name(x) for x in range(game.width)]
        cell_width = max(len(name) for name in names) + 1
        lines = ["   " + "".join(name.rjust(cell_width) for name in names)]
        for y in range(game.height):
            row = grid[y * game.width : (y + 1) * game.width]
            lines.append(f"{y + 1:>3}" + "".join(char.rjust(cell_width) for char in row))
        s1, s2 = self.scores()
        to_move = "koniec" if self.to_move is None else f"ruch: {self.to_move}"
        lines.append(f"wynik {s1}:{s2}, {to_move}")
        return "\n".join(lines)

    def canonical(self) -> bytes:
        """The board's points (dots, their colours and what is captured or enclosed), read in
        each of the board's symmetries (mirrors and rotations: ``board_symmetries``) and the
        smallest kept, so a position relayed mirrored or turned is the same position; then the
        dots each colour lost, who has ended and who is to move."""
        points = self.points
        board = min(bytes(pick(points)) for pick in board_symmetries(self.game.width, self.game.height))
        tail = [*self.captured_dots[1:], *(int(e) for e in self.ended[1:]), self.to_move or 0]
        if self.game.penalty:
            tail += self.penalties[1:]
        if self.game.territory:  # who placed the second-to-last dot counts at the end
            tail.append(self.dot_movers[0])
        return board + b":" + ",".join(map(str, tail)).encode()

    def clone(self) -> KropkiState:
        copy = KropkiState.__new__(KropkiState)
        copy.game = self.game
        copy.history = list(self.history)
        copy.points = bytearray(self.points)
        copy.free = self.free
        copy.captured_dots = list(self.captured_dots)
        copy.penalties = list(self.penalties)
        copy.bonus = list(self.bonus)
        copy.dot_movers = self.dot_movers
        copy.ended = list(self.ended)
        copy.to_move = self.to_move
        copy.last = self.last
        copy.territory_chains = list(self.territory_chains)
        copy._outcome = self._outcome
        copy.setup_captures = self.setup_captures
        copy.setup_plies = self.setup_plies
        return copy


Kropki.state_class = KropkiState


@cache
def board_symmetries(width: int, height: int) -> tuple[Callable[[bytearray], tuple[int, ...]], ...]:
    """For each symmetry of a ``width`` × ``height`` board (the two mirrors and the half turn;
    on a square board the quarter turns and the diagonal mirrors too): a function that reads a
    state's ``points`` at the board's points in that symmetry's order (the identity first)."""
    stride = width + 1

    def pos(x: int, y: int) -> int:
        return (y + 1) * stride + x + 1

    cells = [(x, y) for y in range(height) for x in range(width)]
    return tuple(itemgetter(*(pos(*move(x, y)) for x, y in cells)) for move in grid_symmetries(width - 1, height - 1))


GAME = Kropki  # what games.engine registers for "kropki"
