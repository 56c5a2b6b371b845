"""Kropki (Dots) on the site: 10×10 and 20×20 from an empty board, 30×30, and the clubs' 39×32
from a cross (SPEC.md "Kropki: options"), each its own rating pool."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.catalogue.spec import FairPlayFigures, GameSpec, Variant, register

from . import board, bot, diagrams, review
from .engine import INSIDE_TERRITORY, PLAYER_HAS_ENDED, SCORE, Kropki

_SGF_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def export_move(game: Any, action: int) -> Any:
    """A move as the replay command reads it: ``[x, y]`` or ``["end"]``."""
    if action == game.end_action:
        return ["end"]
    x, y = game.xy(action)
    return [x, y]


def _sgf_point(game: Any, action: int) -> str:
    x, y = game.xy(action)
    return f"{_SGF_LETTERS[x]}{_SGF_LETTERS[y]}"


def sgf_moves(game: Any, history: list[int]) -> tuple[dict[str, str | list[str]], list[str]]:
    """SGF as Kropki programs write it (KataGo dots, Kropla, eidokropki):
    ``GM[40]SZ[w:h]`` (``w`` when square), a starting position's dots as the setup
    properties ``AB`` (pink) and ``AW`` (blue), and the nodes: the first player (pink) as B,
    coordinates ``aa`` = top-left column then row, and only dots (ending the
    game is not a move in SGF; the result says how it ended)."""
    size = f"{game.width}" if game.width == game.height else f"{game.width}:{game.height}"
    props: dict[str, str | list[str]] = {"GM": "40", "SZ": size}
    for key, player in (("AB", 1), ("AW", 2)):
        setup = [_sgf_point(game, action) for action, owner in game.start_dots if owner == player]
        if setup:
            props[key] = setup
    nodes = []
    state = game.new_initial_state()
    for action in history:
        player = state.current_player()
        state.apply_action(action)
        if action == game.end_action:
            continue
        nodes.append(f";{'B' if player == 1 else 'W'}[{_sgf_point(game, action)}]")
    return props, nodes


# The words of Kropki's board (games/kropki/board.py, games/kropki/static/board_patch.js) beyond the
# shared ones of games.display.boards.
BOARD_WORDS = {
    "board": pgettext_lazy("board", "board"),
    "dots": pgettext_lazy("board", "dots"),
    "captured": pgettext_lazy("board", "captured"),
    "none": pgettext_lazy("board", "none"),
    "territories": pgettext_lazy("board", "territories"),
    "empty_encl": pgettext_lazy("board", "empty enclosures"),
    # Translators: after a player's colour: "Pink have ended the game."
    "ended": pgettext_lazy("board", "have ended the game"),
    "dot": pgettext_lazy("board", "dot"),
}


SPEC = register(
    GameSpec(
        slug="kropki",
        name=_("Dots"),
        polish_name="Kropki",
        summary=_(
            "Surround your opponent's dots with a closed chain of yours. Boards of 10×10, 20×20 and "
            "30×30, and the clubs' 39×32 from a cross."
        ),
        rules_slug="kropki",
        engine=Kropki,
        variants=(
            Variant("kropki-10", _("Dots 10×10, quick"), {"width": 10, "height": 10}),
            Variant("kropki-20", _("Dots 20×20, large"), {"width": 20, "height": 20}),
            Variant("kropki-30", _("Dots 30×30"), {"width": 30, "height": 30}),
            # the clubs' standard (playdots, zagram, the pointsgame server)
            Variant("kropki-39x32-cross", _("Dots 39×32 from a cross"), {"width": 39, "height": 32, "start": "cross"}),
        ),
        board=board,
        board_words=BOARD_WORDS,
        bot=bot,
        review=review,
        explain_move=review.explain,
        export_move=export_move,
        sgf_moves=sgf_moves,
        diagrams=tuple(diagrams.DIAGRAMS),
        home_picture="kropki-diagonal",
        sections=diagrams.SECTIONS,
        rule_anchors=diagrams.RULE_ANCHORS,
        order=10,
        # The guard's exempt opening (docs/fairplay.md): the first 8 dots (the cross and its
        # neighbours that many games start with).
        opening_plies=8,
        # Engine-use detection (docs/fairplay.md "Detection"), measured by bench/fairplay.py.
        fair_play=FairPlayFigures(opening_plies=10, reference=0.4, flat_reference=0.25),
        tap_confirm=True,
        error_words={
            INSIDE_TERRITORY: _("This point lies inside someone's territory: nobody may play there."),
            PLAYER_HAS_ENDED: _("You have ended the game: you cannot place more dots."),
        },
        board_script="games/kropki/board_patch.js",
        win_sentences={SCORE: _("%(wins)s on score.")},
        draw_words={SCORE: _("Draw on equal score.")},
    )
)
