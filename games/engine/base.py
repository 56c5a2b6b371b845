"""The contract every game implements: a Game (rules and parameters) and its
State (one position), in the spirit of OpenSpiel's Game/State split with
python-chess's value types and errors.

Players are the integers 1 (pink, moves first) and 2 (blue). Actions are dense
integers in ``range(game.num_actions)``. A state is its history: replaying
``state.history`` from the initial state gives the same state, and
``to_dict``/``from_dict`` store nothing else.

Standard library only: this package must never import Django.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

PLAYERS = (1, 2)


def other(player: int) -> int:
    """The opponent of ``player`` (1 <-> 2)."""
    return 3 - player


# Stable error codes: the WebSocket protocol, the replay command and the pages
# all speak these, so never rename one. These are every game's (the contract's);
# a game adds its own in its engine (``Game.error_codes``) and words them in its
# spec (``GameSpec.error_words``). OFF_BOARD, OCCUPIED and SEGMENT_DRAWN are here
# for any game whose board has points or lines; their words are the site's.
NOT_YOUR_TURN = "not_your_turn"
GAME_OVER = "game_over"
UNKNOWN_ACTION = "unknown_action"
OFF_BOARD = "off_board"
OCCUPIED = "occupied"
SEGMENT_DRAWN = "segment_drawn"

ERROR_CODES = (NOT_YOUR_TURN, GAME_OVER, UNKNOWN_ACTION)

# Set-up positions (the analysis board's editor, docs/analysis.md "Position editor"): a game
# that has them takes the parameter ``setup``, a position to start from instead of its own
# start. Why one is refused (``SetupError.code``; a game adds its own, worded in its spec's
# ``error_words``): not a set-up of this game at all; the game is over there already.
SETUP = "setup"
SETUP_BAD = "setup_bad"
SETUP_OVER = "setup_over"
# The editor's tools: put a piece of pink's, of blue's; take one away.
SETUP_TOOLS = ("1", "2", "0")


class EngineError(ValueError):
    """Base of every engine error; ``code`` is one of its game's ``error_codes``."""

    code: str = UNKNOWN_ACTION

    def __init__(self, code: str | None = None, message: str = "") -> None:
        if code is not None:
            self.code = code
        super().__init__(message or self.code)


class InvalidActionError(EngineError):
    """Not an action of this game at all (bad id, unparsable notation)."""

    code = UNKNOWN_ACTION


class IllegalActionError(EngineError):
    """A real action that is not legal in this position."""


class GameOverError(IllegalActionError):
    """The game is over: no action is legal any more."""

    code = GAME_OVER


class InvalidParamsError(ValueError):
    """Unknown game slug or parameters out of range."""


class SetupError(InvalidParamsError):
    """A set-up position (the parameter ``setup``) that is refused: ``code`` says why
    (``SETUP_BAD``, ``SETUP_OVER`` or one of the game's own)."""

    def __init__(self, code: str, message: str = "") -> None:
        self.code = code
        super().__init__(message or code)


class BadRecord(ValueError):
    """A game record (``python -m games.engine replay``) we cannot replay: a move
    of the wrong shape, say."""


def is_int(value: object) -> bool:
    """An int that is not a bool (JSON's true/false are not moves)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winner`` is 1, 2, or None for a draw; ``reason``
    is one of the game's own endings (each engine names its own; match-level endings
    such as resign, timeout and abort are the site's business, not the rules')."""

    winner: int | None
    reason: str
    scores: tuple[int, int]

    @property
    def is_draw(self) -> bool:
        return self.winner is None


@dataclass
class Effect:
    """What one applied action did, for pages and live frames.

    ``details`` is game specific (territories and captured dots in Kropki,
    winning lines in Cztery w rzędzie, completed boxes in Kropki i kwadraty).
    """

    player: int
    action: int
    notation: str
    next_player: int | None
    details: dict[str, Any] = field(default_factory=dict)


class Game:
    """Rules and parameters; immutable. Subclasses set ``slug`` and ``name``."""

    slug: ClassVar[str]
    name: ClassVar[str]  # Polish display name
    state_class: ClassVar[type[State]]
    # Every code this game's moves can be refused with: the contract's and its own.
    error_codes: ClassVar[tuple[str, ...]] = ERROR_CODES
    # The action by which a player ends their own part of the game (Kropki's
    # "end"), or None. When a player's time runs out the site plays it for them
    # instead of losing the match (docs/rules.md, "The clock").
    end_action: int | None = None

    # The parameters that place pieces rather than set rules (the set-up; Kropki's start): the
    # position says them, so the live-position guard keys positions by the others.
    position_params: ClassVar[tuple[str, ...]] = (SETUP,)
    # The editor's tools (``SETUP_TOOLS``) when the game has set-up positions, else ().
    setup_tools: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = self.validate_params(params)

    # -- per game ---------------------------------------------------------

    @classmethod
    def validate_params(cls, params: dict[str, Any]) -> dict[str, Any]:
        """Return the full, checked parameter dict; raise InvalidParamsError. This default: a
        game without parameters, but for a set-up when it has set-up positions."""
        if set(params) - ({SETUP} if cls.setup_tools else set()):
            raise InvalidParamsError(f"{cls.slug} takes no parameters: {sorted(params)}")
        return {SETUP: cls.checked_setup(params[SETUP], {})} if SETUP in params else {}

    @property
    def num_actions(self) -> int:
        raise NotImplementedError

    @property
    def max_game_length(self) -> int:
        """An upper bound on the number of applied actions in one game."""
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        """Human notation of an action; raises InvalidActionError."""
        raise NotImplementedError

    def string_to_action(self, text: str) -> int:
        """Parse human notation; raises InvalidActionError."""
        raise NotImplementedError

    # -- common -----------------------------------------------------------

    def new_initial_state(self) -> State:
        return self.state_class(self)

    def state_from_history(self, actions: Iterable[int]) -> State:
        """Replay ``actions`` from the start; raises EngineError on any bad one."""
        state = self.new_initial_state()
        for action in actions:
            state.apply_action(action)
        return state

    def state_from_dict(self, data: dict[str, Any]) -> State:
        if data.get("game") != self.slug:
            raise InvalidParamsError(f"not a {self.slug} state: {data.get('game')!r}")
        if dict(data.get("params") or {}) != self.params:
            raise InvalidParamsError(f"params differ: {data.get('params')!r} != {self.params!r}")
        return self.state_from_history(data.get("history") or [])

    def check_action_id(self, action: object) -> int:
        """Return ``action`` if it is an int in range; raise InvalidActionError."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise InvalidActionError(message=f"action must be an integer, not {action!r}")
        if not 0 <= action < self.num_actions:
            raise InvalidActionError(message=f"action {action} out of range 0..{self.num_actions - 1}")
        return action

    # The parameters other programs' records are replayed with unless they say
    # otherwise (``python -m games.engine replay``; see games/engine/replay.py).
    record_params: ClassVar[dict[str, Any]] = {}

    def read_moves(self, moves: object) -> list[object]:
        """A record's moves, one item each. Raises BadRecord."""
        if not isinstance(moves, list):
            raise BadRecord("moves must be a list")
        return moves

    def read_move(self, move: object) -> int | str:
        """One move of a record as an action id, or the error code of a move that is
        rejected before it reaches the board (off the board, no such column). Raises
        BadRecord for a move of the wrong shape."""
        raise BadRecord(f"no replay for game {self.slug!r}")

    def _read_index(self, move: object, what: str) -> int | str:
        """A move written as the action id itself (or the engine's notation)."""
        if is_int(move):
            assert isinstance(move, int)
            return move if 0 <= move < self.num_actions else UNKNOWN_ACTION
        if isinstance(move, str):
            try:
                return self.string_to_action(move)
            except EngineError as error:
                return error.code
        raise BadRecord(f"a {self.slug} move is {what}, not {json.dumps(move)}")

    def rules_params(self) -> dict[str, Any]:
        """The parameters without ``position_params``: the rules a position is played by."""
        return {k: v for k, v in self.params.items() if k not in self.position_params}

    # -- set-up positions (a game with ``setup_tools``) ------------------------

    @classmethod
    def read_setup(cls, setup: object, params: dict[str, Any]) -> dict[str, Any]:
        """``setup`` in its canonical shape for a game of the checked ``params`` (no set-up among
        them); only its shape is checked here (``SetupError(SETUP_BAD)``)."""
        raise SetupError(SETUP_BAD, f"{cls.slug} has no set-up positions")

    @classmethod
    def checked_setup(cls, setup: object, params: dict[str, Any]) -> dict[str, Any]:
        """``read_setup``, then the position must be one a game could stand on with a move to
        make: ``SetupError`` with the draft's ``setup_problem()``. For ``validate_params``."""
        canonical = cls.read_setup(setup, params)
        problem = cls(**params).draft(canonical).setup_problem()
        if problem is not None:
            raise SetupError(problem)
        return canonical

    def draft(self, setup: dict[str, Any]) -> State:
        """A state standing on ``setup`` (read by ``read_setup``) built without asking whether a
        game could reach it: the editor's picture of a position being set up. Its
        ``setup_problem()`` says what stops it being analysed."""
        assert SETUP not in self.params, "a draft is made on a game without a set-up"
        state = self.state_class(self)
        state.set_up(setup)
        return state

    def empty_setup(self) -> dict[str, Any]:
        """The set-up of an empty board, pink to move."""
        raise SetupError(SETUP_BAD, f"{self.slug} has no set-up positions")

    def setup_targets(self, setup: dict[str, Any], tool: str) -> list[int]:
        """What the editor's board offers to ``tool`` on ``setup`` (canonical, maybe refused): ids
        its board draws as targets (Kropki's points, the columns, the segments, the ball's
        directions)."""
        return []

    def setup_edit(self, setup: dict[str, Any], tool: str, target: int) -> dict[str, Any]:
        """``setup`` after ``tool`` was used on ``target`` (one of ``setup_targets``); the
        same set-up when the tool does nothing there."""
        return setup

    def __eq__(self, other_game: object) -> bool:
        return isinstance(other_game, Game) and (self.slug, self.params) == (other_game.slug, other_game.params)

    def __hash__(self) -> int:
        return hash((self.slug, json.dumps(self.params, sort_keys=True)))  # a set-up is a dict

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"


class State:
    """One position of one game. Subclasses implement the ``_``-methods and
    the queries; the base class owns checking and history (template method).
    """

    # How many moves a set-up position stands for (the pieces it placed): ``plies()`` counts
    # them with the moves since.
    setup_plies: int = 0

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[int] = []

    # -- per game ---------------------------------------------------------

    def current_player(self) -> int | None:
        """1 or 2, or None when the game is over."""
        raise NotImplementedError

    def legal_actions(self) -> list[int]:
        """Ascending list of legal action ids ([] when over)."""
        raise NotImplementedError

    def _illegal_reason(self, action: int) -> str | None:
        """Error code why the in-range ``action`` is illegal now, or None."""
        raise NotImplementedError

    def _apply(self, action: int) -> dict[str, Any]:
        """Apply a legal action and return its game-specific details."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        raise NotImplementedError

    def scores(self) -> tuple[int, int]:
        raise NotImplementedError

    def view(self) -> dict[str, Any]:
        """A JSON-able picture of the position for boards and diagrams."""
        raise NotImplementedError

    def replay_fields(self) -> dict[str, Any]:
        """Game-specific fields of ``python -m games.engine replay`` output:
        ``grid`` (Kropki), ``dead_lines`` (Cztery w rzędzie), ``boxes``
        (Kropki i kwadraty)."""
        return {}

    def __str__(self) -> str:
        raise NotImplementedError

    def canonical(self) -> bytes:
        """The position as bytes, equal for two states exactly when they are the same
        position whatever the move order: what decides the rest of the game (the board, who
        is to move, what counts so far), never the move list; folded over the board's
        symmetries where a game does so. The live-position guard keys positions by it
        (docs/fairplay.md). This default is the move list itself: a game that does not
        override it has its transpositions treated as different positions."""
        return json.dumps(self.history, separators=(",", ":")).encode()

    def set_up(self, setup: dict[str, Any]) -> None:
        """Put the pieces of ``setup`` (canonical) on this fresh state's board."""
        raise SetupError(SETUP_BAD, f"{self.game.slug} has no set-up positions")

    def setup_problem(self) -> str | None:
        """For a state made by ``Game.draft``: the code why no game could stand here with a
        move to make (a game's own code, or ``SETUP_OVER``), or None."""
        return SETUP_OVER if self.is_terminal() else None

    def to_setup(self) -> dict[str, Any]:
        """This position as a set-up (the editor's "from the board's position"): what the
        game's set-ups can say of it."""
        raise SetupError(SETUP_BAD, f"{self.game.slug} has no set-up positions")

    # -- common -----------------------------------------------------------

    def plies(self) -> int:
        """The moves that made this position: the set-up's pieces and the moves since."""
        return self.setup_plies + len(self.history)

    def illegal_reason(self, action: object) -> str | None:
        """Why ``action`` cannot be played now (an error code), or None if it can."""
        try:
            action_id = self.game.check_action_id(action)
        except InvalidActionError:
            return UNKNOWN_ACTION
        if self.is_terminal():
            return GAME_OVER
        return self._illegal_reason(action_id)

    def turn_refusal(self, player: int) -> str:
        """The error code for a legal action sent by ``player`` who is not to
        move: ``not_your_turn``, or a game's own reason (Kropki: ``player_has_ended``)."""
        return NOT_YOUR_TURN

    def is_legal(self, action: object) -> bool:
        return self.illegal_reason(action) is None

    def apply_action(self, action: int) -> Effect:
        """Checked apply: raises InvalidActionError, GameOverError or
        IllegalActionError (with its code) and then changes nothing."""
        action = self.game.check_action_id(action)
        if self.is_terminal():
            raise GameOverError(message="the game is over")
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(reason, f"{self.game.action_to_string(action)}: {reason}")
        player = self.current_player()
        assert player is not None
        details = self._apply(action)
        self.history.append(action)
        return Effect(
            player=player,
            action=action,
            notation=self.game.action_to_string(action),
            next_player=self.current_player(),
            details=details,
        )

    def apply_action_for_viewers(self, action: int) -> Effect:
        """``apply_action``, with ``effect.details`` as live frames carry them:
        everything a page needs to patch the board it already shows into the
        new position (docs/protocol.md, "Move frames"). Games whose engine
        details already say that keep this default."""
        return self.apply_action(action)

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def returns(self) -> tuple[float, float]:
        """+1/-1 for a win/loss, 0 for a draw or an unfinished game."""
        out = self.outcome()
        if out is None or out.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if out.winner == 1 else (-1.0, 1.0)

    def clone(self) -> State:
        """An independent copy. Games override this with a cheap copy."""
        return self.game.state_from_history(self.history)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game.slug, "params": dict(self.game.params), "history": list(self.history)}

    def __eq__(self, other_state: object) -> bool:
        return isinstance(other_state, State) and self.game == other_state.game and self.history == other_state.history

    def __hash__(self) -> int:
        return hash((self.game, tuple(self.history)))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game!r} ply={len(self.history)}>"


def grid_symmetries(last_a: int, last_b: int) -> list[Callable[[int, int], tuple[int, int]]]:
    """The symmetries of a grid of points ``(a, b)`` with ``0 <= a <= last_a`` and
    ``0 <= b <= last_b``, each a map of a point (the identity first): the two mirrors and the
    half turn, and on a square grid the quarter turns and the diagonal mirrors too. Games fold
    them in ``State.canonical`` (Kropki's points, Kropki i kwadraty's dots)."""
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda a, b: (a, b),
        lambda a, b: (last_a - a, b),
        lambda a, b: (a, last_b - b),
        lambda a, b: (last_a - a, last_b - b),
    ]
    if last_a == last_b:
        maps += [
            lambda a, b: (b, a),
            lambda a, b: (last_a - b, a),
            lambda a, b: (b, last_b - a),
            lambda a, b: (last_a - b, last_b - a),
        ]
    return maps


def column_name(x: int) -> str:
    """0 -> "a", 25 -> "z", 26 -> "aa", 27 -> "ab" ... (bijective base 26)."""
    name = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        name = chr(ord("a") + rest) + name
    return name
