"""The analysis board (issue 39; docs/analysis.md "Analysis board"): any position of any game,
reached by moves for both sides from the start (``?ruchy=`` the engine's actions) or from a
record's position, with the computer's evaluation and best line on request. The address is the
position: a link shares it. Values obey the fair-play guard: none for a position that stands in
an active rated match, and none for a player who plays a rated match now. An evaluation is the
game's reviewer's (the same figures as a review), ``BOARD_EVALS_PER_MINUTE`` a minute per
account or address, a line of ``LINE_PLIES`` best moves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games import catalogue
from games.engine import EngineError, Game, State
from games.play import guard
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

LINE_PLIES = 4
MAX_MOVES = 1700  # a 40×40 Kropki game's length, and more than any other game's


@dataclass
class Position:
    variant: str
    params: dict[str, Any]
    game: Game
    state: State
    actions: list[int]


def read_actions(text: str) -> list[int]:
    """``?ruchy=``: the actions, comma-separated (anything else: ``board_bad_moves``)."""
    if not text:
        return []
    parts = text.split(",")
    if len(parts) > MAX_MOVES or not all(p.isdigit() and len(p) <= 5 for p in parts):
        raise Refusal("board_bad_moves")
    return [int(p) for p in parts]


def position(variant: str, params: dict[str, Any], actions: list[int]) -> Position:
    """The position after ``actions`` of ``variant``'s game (with ``params``: a match's own);
    ``unknown_variant``, ``board_bad_moves`` for a move the rules refuse."""
    if variant not in catalogue.variant_keys():
        raise Refusal("unknown_variant")
    try:
        game = catalogue.variant(variant).game(params or None)
    except (ValueError, TypeError):  # parameters the engine refuses
        raise Refusal("board_bad_moves") from None
    state = game.new_initial_state()
    for action in actions:
        try:
            state.apply_action(action)
        except EngineError:
            raise Refusal("board_bad_moves") from None
    return Position(variant, params, game, state, actions)


def evaluate(pos: Position, *, user_id: int | None, address: str) -> dict[str, Any]:
    """The computer's evaluation of ``pos`` for the player to move, and its best line (notation).
    Refusals: ``rated_game_in_progress``, ``position_in_rated_match`` (the guard),
    ``analysis_unavailable`` (no reviewer), ``board_too_often``."""
    spec = catalogue.variant(pos.variant).game_spec
    if spec.review is None:
        raise Refusal("analysis_unavailable")
    guard.require_no_rated_match(user_id)
    if guard.standing(pos.variant, pos.state):
        raise Refusal("position_in_rated_match")
    per_minute = settings.BOARD_EVALS_PER_MINUTE
    if user_id is not None and not limits.hit("board-eval", str(user_id), limit=per_minute, window=60):
        raise Refusal("board_too_often")
    if address and not limits.hit("board-eval-ip", address, limit=per_minute, window=60):
        raise Refusal("board_too_often")
    evaluator = spec.review.evaluator(pos.game)
    state = pos.state.clone()
    first = None
    line: list[str] = []
    for ply in range(len(pos.actions), len(pos.actions) + LINE_PLIES):
        if state.is_terminal():
            break
        found = evaluator(state, ply)
        first = first or found
        if found.best is None:
            break
        line.append(pos.game.action_to_string(found.best))
        state.apply_action(found.best)
    if first is None:  # the game is over
        outcome = pos.state.outcome()
        return {"over": True, "winner": outcome.winner if outcome else None, "line": []}
    mover = pos.state.current_player()
    return {
        "over": False,
        "mover": mover,
        "expected": round(first.expected, 3),
        "exact": first.exact,
        "detail": first.detail,
        "line": line,
    }
