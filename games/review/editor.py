"""The position editor (issue 39; docs/analysis.md "Position editor"): a set-up position built
piece by piece, then analysed on the analysis board (``analysis_board.py``).

The draft is the address: ``?uklad=`` the set-up as the engine reads it (JSON), ``?opcje=`` the
rules' parameters (a board size, Kropki's options; left out for the variant's own),
``?narzedzie=`` the tool, so every change is a new address and the page works without scripts.
The engine says what a set-up is (``Game.read_setup``), what each tool does there
(``setup_targets``, ``setup_edit``) and what stops a position being analysed
(``State.setup_problem``); the draft is drawn even then, with the reason beside it. "Analyse"
opens the analysis board at ``?opcje=`` with the set-up among the parameters, where the
fair-play guard asks as for any position (the key of a set-up is the key of the same position
reached by moves: games/play/guard.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from games import catalogue
from games.engine import Game, InvalidParamsError, SetupError, State
from games.engine.base import SETUP
from games.review.analysis_board import address_json, board_url
from kropki_site.lib.numbers import number
from kropki_site.lib.refusals import Refusal


@dataclass
class Draft:
    """A position being set up: the rules' parameters, the engine of them, the set-up
    (canonical), its picture's state, and why it cannot be analysed yet (a code, or None)."""

    variant: str
    params: dict[str, Any]
    game: Game
    setup: dict[str, Any]
    state: State
    problem: str | None

    @property
    def tools(self) -> tuple[str, ...]:
        return self.game.setup_tools

    def targets(self, tool: str) -> list[int]:
        return self.game.setup_targets(self.setup, tool)


def rules_game(variant: str, params: dict[str, Any]) -> Game:
    """The engine of ``variant`` with ``params`` (a match's own, the address's), without what
    places pieces (a set-up, Kropki's start): the board a set-up is built on. Refusals:
    ``unknown_variant``, ``setup_bad`` (parameters the engine refuses), ``board_no_editor``."""
    if variant not in catalogue.variant_keys():
        raise Refusal("unknown_variant")
    try:
        game = catalogue.variant(variant).game(params or None)
        rules = type(game)(**game.rules_params())
    except (InvalidParamsError, TypeError):
        raise Refusal("setup_bad") from None
    if not rules.setup_tools:
        raise Refusal("board_no_editor")
    return rules


def draft(variant: str, params: dict[str, Any], setup: object = None) -> Draft:
    """The draft of ``setup`` (None: the empty board) on ``variant``'s board with ``params``;
    ``setup_bad`` for a set-up of another shape."""
    game = rules_game(variant, params)
    try:
        canonical = game.empty_setup() if setup is None else game.read_setup(setup, game.params)
    except SetupError:
        raise Refusal("setup_bad") from None
    state = game.draft(canonical)
    return Draft(variant, game.params, game, canonical, state, state.setup_problem())


def edited(
    current: Draft, *, tool: str, target: str = "", to_move: str = "", score: tuple[str, str] = ("", "")
) -> dict[str, Any]:
    """The set-up after the editor's form: ``tool`` used on ``target`` (a target of the tool, else
    nothing), the side to move and the score where the set-up has them. Refusal ``setup_bad``
    for a score that is no number of dots."""
    setup = current.setup
    place = number(target)
    if place is not None and place in current.targets(tool):
        setup = current.game.setup_edit(setup, tool, place)
    if "to_move" in setup and to_move in ("1", "2"):
        setup = setup | {"to_move": int(to_move)}
    if "score" in setup and any(score):
        points = [number(n or "0", 4) for n in score]  # an empty field: none taken
        if None in points:
            raise Refusal("setup_bad")
        setup = setup | {"score": points}
    try:
        return current.game.read_setup(setup, current.game.params)
    except SetupError:
        raise Refusal("setup_bad") from None


def editor_url(variant: str, params: dict[str, Any], setup: dict[str, Any] | None, tool: str = "") -> str:
    """The editor's address of ``setup`` (None: the empty board) on ``variant``'s board with the
    rules' ``params`` (left out when they are the variant's own)."""
    query: dict[str, str] = {}
    if params != rules_game(variant, {}).params:
        query["opcje"] = address_json(params)
    if setup is not None:
        query["uklad"] = address_json(setup)
    if tool:
        query["narzedzie"] = tool
    url = reverse("position_editor", args=[variant])
    return f"{url}?{urlencode(query)}" if query else url


def from_position(variant: str, game: Game, state: State) -> str:
    """The editor's address starting from ``state`` (the analysis board's position); "" when the
    game has no editor or the game is over there."""
    if not game.setup_tools or state.is_terminal():
        return ""
    return editor_url(variant, game.rules_params(), state.to_setup())


def analysis_url(current: Draft) -> str:
    """The analysis board at the set-up; Refusal with the draft's problem when it has one."""
    if current.problem is not None:
        raise Refusal(current.problem)
    return board_url(current.variant, [], current.params | {SETUP: current.setup})


def query_setup(text: str) -> object:
    """``?uklad=``: the set-up as JSON (None when absent); ``setup_bad`` if it is no JSON."""
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        raise Refusal("setup_bad") from None
