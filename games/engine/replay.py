"""``python -m games.engine replay``: check game records against our rules.

Reads one JSON game per line and writes one JSON line per game:

- input: ``{"game": "kropki", "params": {"width": W, "height": H}, "moves":
  [[x, y], ..., ["end"]]}``; ``{"game": "connect4", "moves": "4453..."}``
  (columns 1..7, as a string or a list of ints); ``{"game": "dots_and_boxes",
  "params": {"rows": 5, "cols": 5}, "moves": [segment ids]}``;
  ``{"game": "pilkarzyki", "moves": [directions]}`` (0..7 = N, NE, E, SE, S,
  SW, W, NW, N towards the top goal; the compass names are read too).
- output: ``{"after": [{"ok", "error", "to_move", "scores", "over", "winner",
  "reason", ...}, ...]}``, one entry per move tried. A rejected move
  (``ok: false`` with its error code) changes nothing and does not pass the
  turn; the replay carries on with the next move. ``winner`` is 0 for a draw
  and null while the game is not over. The extra fields come from
  ``State.replay_fields()`` (``grid``, ``dead_lines``, ``boxes``; for
  Piłkarzyki ``ball``, ``[x, y]`` after the move, and ``moves_again``, true
  when the player who made the last move moves again after a bounce).
- a line that is not a game (not JSON, unknown game, bad params, a move of the
  wrong shape) gets ``{"error": "..."}`` and the command goes on.

Kropki i kwadraty records are replayed to their last segment (standard rules)
unless ``params`` asks for ``"majority_end": true``: records from other
programs go on after a player holds a majority of the boxes, which never
changes who wins. The site's own matches always end at the majority.

Which moves are rejected rather than malformed: a Kropki pair of integers off
the board (``off_board``), a Cztery w rzędzie column that is not 1..7 or a
character that is not a digit (``unknown_action``), a segment id out of range
(``unknown_action``), a Piłkarzyki direction that is not 0..7 or not a compass
name (``unknown_action``). A Piłkarzyki move's other refusals come from the
engine: ``off_board``, ``not_a_goal_entry``, ``segment_drawn`` (a used or
border segment), ``game_over``.
"""

from __future__ import annotations

import json
from typing import IO, Any

from . import get_game
from .base import UNKNOWN_ACTION, EngineError, Game, InvalidParamsError, State


class BadRecord(ValueError):
    """The line is not a game record we can replay."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kropki_move(game: Game, move: object) -> int | str:
    if isinstance(move, list) and move == ["end"]:
        return UNKNOWN_ACTION if game.end_action is None else game.end_action
    if isinstance(move, list) and len(move) == 2 and _is_int(move[0]) and _is_int(move[1]):
        try:
            return game.action_for(move[0], move[1])  # type: ignore[attr-defined, no-any-return]
        except EngineError as error:
            return error.code
    raise BadRecord(f"a kropki move is [x, y] or [\"end\"], not {json.dumps(move)}")


def _connect4_move(game: Game, move: object) -> int | str:
    if _is_int(move):
        column = move - 1  # type: ignore[operator]
        return column if 0 <= column < game.num_actions else UNKNOWN_ACTION
    if isinstance(move, str):
        try:
            return game.string_to_action(move)
        except EngineError as error:
            return error.code
    raise BadRecord(f"a connect4 move is a column 1..7, not {json.dumps(move)}")


def _dots_and_boxes_move(game: Game, move: object) -> int | str:
    if _is_int(move):
        return move if 0 <= move < game.num_actions else UNKNOWN_ACTION  # type: ignore[operator, return-value]
    raise BadRecord(f"a dots_and_boxes move is a segment id, not {json.dumps(move)}")


def _pilkarzyki_move(game: Game, move: object) -> int | str:
    if _is_int(move):
        return move if 0 <= move < game.num_actions else UNKNOWN_ACTION  # type: ignore[operator, return-value]
    if isinstance(move, str):
        try:
            return game.string_to_action(move)
        except EngineError as error:
            return error.code
    raise BadRecord(f"a pilkarzyki move is a direction 0..7, not {json.dumps(move)}")


_MOVE_READERS = {
    "kropki": _kropki_move,
    "connect4": _connect4_move,
    "dots_and_boxes": _dots_and_boxes_move,
    "pilkarzyki": _pilkarzyki_move,
}


def read_record(record: object) -> tuple[Game, list[int | str]]:
    """The game and its moves, each an action id or the error code of a move
    that is rejected before it reaches the board. Raises BadRecord."""
    if not isinstance(record, dict):
        raise BadRecord("a game is a JSON object")
    slug = record.get("game")
    params = record.get("params")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise BadRecord("params must be an object")
    if slug == "dots_and_boxes":
        params = {"majority_end": False, **params}
    try:
        game = get_game(slug, **params)  # type: ignore[arg-type]
    except InvalidParamsError as error:
        raise BadRecord(str(error)) from None
    reader = _MOVE_READERS.get(game.slug)
    if reader is None:
        raise BadRecord(f"no replay for game {game.slug!r}")
    moves = record.get("moves")
    if game.slug == "connect4" and isinstance(moves, str):
        moves = list(moves)
    if not isinstance(moves, list):
        raise BadRecord("moves must be a list" + (" or a string" if game.slug == "connect4" else ""))
    return game, [reader(game, move) for move in moves]


def snapshot(state: State, ok: bool, error: str | None) -> dict[str, Any]:
    """One entry of ``after``: the state once a move was tried."""
    out = state.outcome()
    entry: dict[str, Any] = {
        "ok": ok,
        "error": error,
        "to_move": state.current_player(),
        "scores": list(state.scores()),
        "over": out is not None,
        "winner": None if out is None else (out.winner or 0),
        "reason": None if out is None else out.reason,
    }
    entry.update(state.replay_fields())
    return entry


def replay_record(record: object) -> dict[str, Any]:
    """Replay one game record; raises BadRecord."""
    game, moves = read_record(record)
    state = game.new_initial_state()
    after = []
    for move in moves:
        if isinstance(move, str):
            after.append(snapshot(state, False, move))
            continue
        try:
            state.apply_action(move)
        except EngineError as error:
            after.append(snapshot(state, False, error.code))
        else:
            after.append(snapshot(state, True, None))
    return {"after": after}


def replay_line(line: str, number: int) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except ValueError as error:
        return {"error": f"line {number}: not JSON: {error}"}
    try:
        return replay_record(record)
    except BadRecord as error:
        return {"error": f"line {number}: {error}"}
    except Exception as error:  # one bad game must not stop the others
        return {"error": f"line {number}: internal error: {type(error).__name__}: {error}"}


def run(stdin: IO[str], stdout: IO[str]) -> int:
    """Replay every non-blank line of ``stdin``; one output line each."""
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        stdout.write(json.dumps(replay_line(line, number), separators=(",", ":")) + "\n")
    stdout.flush()
    return 0
