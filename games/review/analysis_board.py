"""The analysis board (issue 39; docs/analysis.md "Analysis board"): any position of any game,
reached by moves for both sides from the start (``?ruchy=`` the engine's actions) or from a
record's position, with the computer's evaluation and best line on request. The address is the
position: a link shares it. A set-up position (the editor, ``editor.py``) is one of the game's
parameters (``setup`` in ``?opcje=``), so moves, links and values work from it as from the start.
Values obey the fair-play guard: none for a position that stands in an active rated match
(however it was reached: moves, a set-up), and none for a player who plays a rated match now.
An evaluation is the game's reviewer's (the same figures as a review), ``BOARD_EVALS_PER_MINUTE``
a minute per account or address, a line of ``LINE_PLIES`` best moves."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from games import catalogue, tasknames
from games.engine import EngineError, Game, SetupError, State
from games.play import guard
from games.play.publisher import send_now
from kropki_site.lib import limits
from kropki_site.lib.numbers import number_list
from kropki_site.lib.refusals import Refusal

LINE_PLIES = 4
EVALUATION_SECONDS = 3600  # an evaluation kept for the next visitor of the same position
ASKED_SECONDS = 60  # an evaluation asked for and not made by then (a worker lost it) is asked again
MAX_MOVES = 1700  # a 40×40 Kropki game's length, and more than any other game's


@dataclass
class Position:
    variant: str
    params: dict[str, Any]
    game: Game
    state: State
    actions: list[int]


def read_params(text: str) -> dict[str, Any]:
    """``?opcje=``: a JSON object of the game's parameters (anything else: ``board_bad_moves``)."""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        raise Refusal("board_bad_moves") from None
    if not isinstance(value, dict):
        raise Refusal("board_bad_moves")
    return value


def address_json(value: Any) -> str:
    """``value`` as the addresses write JSON: keys sorted, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def board_url(variant: str, actions: list[int], params: dict[str, Any], *, evaluate: bool = False) -> str:
    """The analysis board's address of the position after ``actions`` of a game with ``params``
    (``evaluate``: asking for the computer's evaluation, ``?ocena=1``)."""
    query = {"ruchy": ",".join(map(str, actions))} if actions else {}
    if params:
        query["opcje"] = address_json(params)
    if evaluate:
        query["ocena"] = "1"
    url = reverse("analysis_board", args=[variant])
    return f"{url}?{urlencode(query)}" if query else url


def read_actions(text: str) -> list[int]:
    """``?ruchy=``: the actions, comma-separated (anything else: ``board_bad_moves``)."""
    actions = number_list(text, most=MAX_MOVES)
    if actions is None:
        raise Refusal("board_bad_moves")
    return actions


def position(variant: str, params: dict[str, Any], actions: list[int]) -> Position:
    """The position after ``actions`` of ``variant``'s game (with ``params``: a match's own);
    ``unknown_variant``, ``board_bad_moves`` for a move the rules refuse."""
    if variant not in catalogue.variant_keys():
        raise Refusal("unknown_variant")
    try:
        game = catalogue.variant(variant).game(params or None)
    except SetupError as exc:  # a set-up the engine refuses: its words
        raise Refusal(exc.code) from None
    except (ValueError, TypeError):  # parameters the engine refuses
        raise Refusal("board_bad_moves") from None
    state = game.new_initial_state()
    for action in actions:
        try:
            state.apply_action(action)
        except EngineError:
            raise Refusal("board_bad_moves") from None
    return Position(variant, params, game, state, actions)


def evaluation(pos: Position, *, user_id: int | None, address: str) -> dict[str, Any] | None:
    """The computer's evaluation of ``pos`` for the player to move and its best line (notation),
    or None while the analysis worker makes it: asked for once (the page asks again until it is
    there), never in the web process, whose sockets and pages a search would hold up (two
    visitors asking made the live moves beside them 70 times slower: docs/analysis.md). Kept
    ``EVALUATION_SECONDS``. The guard is asked every time values would be shown, a kept
    evaluation's too; only a new evaluation counts against the limit, and an account or address
    has one evaluation being made at a time.
    Refusals: ``rated_game_in_progress``, ``position_in_rated_match`` (the guard),
    ``analysis_unavailable`` (no reviewer), ``board_too_often``."""
    spec = catalogue.variant(pos.variant).game_spec
    if spec.review is None:
        raise Refusal("analysis_unavailable")
    guard.require_no_rated_match(user_id)
    if guard.standing(pos.variant, pos.state):
        raise Refusal("position_in_rated_match")
    key = _evaluation_key(pos.variant, pos.params, pos.actions)
    # One evaluation at a time an account and an address: another position is asked for once the
    # last one is made (the page asks again meanwhile), so one visitor's evaluations are never more
    # than one in the worker's queue, before the reviews' tokens.
    askers = [f"board-eval-asker:{address}"] + ([f"board-eval-asker:u{user_id}"] if user_id else [])
    known = cache.get_many([key, key + ":asked", *askers])  # one round trip
    if key in known:
        made: dict[str, Any] = known[key]
        return made
    if key + ":asked" in known:
        return None
    lasts = [known[asker] + ":asked" for asker in askers if asker in known]
    if lasts and cache.get_many(lasts):  # this visitor's last evaluation is still being made
        return None
    per_minute = settings.BOARD_EVALS_PER_MINUTE
    if not limits.hit_account_and_address("board-eval", user_id, address, limit=per_minute, window=60):
        raise Refusal("board_too_often")
    cache.set_many({key + ":asked": True, **dict.fromkeys(askers, key)}, ASKED_SECONDS)
    send_now(tasknames.BOARD_EVALUATE, (pos.variant, pos.params, pos.actions))
    return None


def evaluation_make(variant: str, params: dict[str, Any], actions: list[int]) -> dict[str, Any]:
    """The analysis worker's part (``BOARD_EVALUATE``): the evaluation made and kept."""
    pos = position(variant, params, actions)
    spec = catalogue.variant(variant).game_spec
    assert spec.review is not None  # asked for only where there is a reviewer
    evaluator = spec.review.evaluator(pos.game)
    state = pos.state.clone()
    first = None
    line: list[str] = []
    while len(line) < LINE_PLIES and not state.is_terminal():
        found = evaluator(state, state.plies())
        first = first or found
        if found.best is None:
            break
        for action in (found.best, *found.then)[: LINE_PLIES - len(line)]:  # what one search chose
            if state.is_terminal() or action not in state.legal_actions():
                break
            line.append(pos.game.action_to_string(action))
            state.apply_action(action)
    if first is None:  # the game is over
        outcome = pos.state.outcome()
        made: dict[str, Any] = {"over": True, "winner": outcome.winner if outcome else None, "line": []}
    else:
        made = {
            "over": False,
            "mover": pos.state.current_player(),
            "expected": round(first.expected, 3),
            "exact": first.exact,
            "detail": first.detail,
            "line": line,
        }
    key = _evaluation_key(variant, params, actions)
    cache.set(key, made, EVALUATION_SECONDS)
    cache.delete(key + ":asked")
    return made


def _evaluation_key(variant: str, params: dict[str, Any], actions: list[int]) -> str:
    """The cache's key of a position's evaluation by the reviewer's present version."""
    review = catalogue.variant(variant).game_spec.review
    version = review.VERSION if review is not None else ""
    text = address_json([variant, params, actions, version])
    return "board-eval:" + hashlib.sha256(text.encode()).hexdigest()
