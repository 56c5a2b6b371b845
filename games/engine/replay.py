"""``python -m games.engine replay``: check game records against our rules.

Reads one JSON game per line and writes one JSON line per game:

- input: ``{"game": <slug>, "params": {...}, "moves": [...]}``. How a game's
  moves are written is its engine's (``Game.read_moves``/``read_move`` in
  ``games/<slug>/engine.py``): Kropki ``[x, y]`` or ``["end"]``, Cztery w
  rzędzie columns 1..7 (a list, or one string "4453..."), Kropki i kwadraty
  segment ids, Piłkarzyki directions 0..7 or compass names. A move of the right
  shape that no board has (a pair off the board, a column 8) is rejected with
  its code (``off_board``, ``unknown_action``) rather than malformed. Records
  are replayed with the engine's ``record_params`` unless ``params`` says
  otherwise: other programs' Kropki i kwadraty games go on after a player holds
  a majority of the boxes, which never changes who wins (the site's own matches
  always end at the majority).
- output: ``{"after": [{"ok", "error", "to_move", "scores", "over", "winner",
  "reason", ...}, ...]}``, one entry per move tried. A rejected move
  (``ok: false`` with its error code) changes nothing and does not pass the
  turn; the replay carries on with the next move. ``winner`` is 0 for a draw
  and null while the game is not over. The extra fields come from
  ``State.replay_fields()`` (Kropki's ``grid``, Cztery w rzędzie's
  ``dead_lines``, Kropki i kwadraty's ``boxes``, Piłkarzyki's ``ball`` and
  ``moves_again``).
- a line that is not a game (not JSON, unknown game, bad params, a move of the
  wrong shape) gets ``{"error": "..."}`` and the command goes on.
"""

from __future__ import annotations

import json
from typing import IO, Any

from . import GAMES, get_game
from .base import BadRecord, EngineError, Game, InvalidParamsError, State

__all__ = ["BadRecord", "read_record", "replay_line", "replay_record", "run"]


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
    engine = GAMES.get(slug) if isinstance(slug, str) else None
    try:
        game = get_game(slug, **{**(engine.record_params if engine else {}), **params})  # type: ignore[arg-type]
    except InvalidParamsError as error:
        raise BadRecord(str(error)) from None
    return game, [game.read_move(move) for move in game.read_moves(record.get("moves"))]


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
