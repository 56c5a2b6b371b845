"""Kółko i krzyżyk's entry in the catalogue: everything the site needs to offer it."""

from __future__ import annotations

from typing import Any

from games.catalogue import GameSpec, Variant
from games.rules.diagrams import Diagram

from . import board, bot
from .engine import CELL_TAKEN, FULL, THREE_IN_A_ROW, TicTacToe


def _three(state: Any, effects: list[Any]) -> bool:
    return effects[-1].details["line"] == [0, 4, 8]


SPEC = GameSpec(
    slug="tictactoe",
    name="Kółko i krzyżyk",
    summary="Trzy w linii na planszy 3×3.",
    rules_slug="kolko-i-krzyzyk",
    engine=TicTacToe,
    variants=(Variant("kolko-i-krzyzyk", "Kółko i krzyżyk"),),
    board=board,
    bot=bot,
    export_move=lambda game, action: game.action_to_string(action),
    diagrams=(
        Diagram(
            key="ttt-diagonal",
            slug="tictactoe",
            params={},
            moves=("a1", "b1", "b2", "c1", "c3"),
            caption="Trzy na przekątnej.",  # not in the site's .po files: shown as written
            claim=_three,
        ),
    ),
    home_picture="ttt-diagonal",
    sections=("zasady",),
    rule_anchors={CELL_TAKEN: "zasady", "not_your_turn": "zasady", "game_over": "zasady", "unknown_action": "zasady"},
    reason_words={THREE_IN_A_ROW: "trzy w linii"},
    order=90,
    # the hooks shared code asks instead of testing a slug: no score to show, an error
    # of its own, a notice for one of its endings (its end action is the engine's)
    scored=False,
    error_words={CELL_TAKEN: "To pole jest już zajęte."},
    end_notices={FULL: "Plansza jest pełna i nikt nie ułożył trzech w linii: remis."},
)
