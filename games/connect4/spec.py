"""Cztery w rzędzie (Connect Four) on the site: the 7×6 board."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.catalogue.spec import FairPlayFigures, GameSpec, Variant, register, worded

from . import board, bot, diagrams, puzzles, review
from .engine import (
    COLUMN_FULL,
    COLUMNS,
    FOUR_IN_A_ROW,
    FULL_BOARD,
    NO_LINE_POSSIBLE,
    SETUP_DISCS_COUNT,
    SETUP_FLOATING,
    SETUP_FOUR,
    SETUP_UNREACHABLE,
    Connect4,
)


def export_move(game: Any, action: int) -> Any:
    """A move as the replay command reads it: the column, 1..7."""
    return action + 1


# The words of the board (games/connect4/board.py, games/connect4/static/board_patch.js) beyond the
# shared ones of games.display.boards.
BOARD_WORDS = {
    "column": pgettext_lazy("board", "column"),
    # Translators: how a column's discs are listed: "Column 3 (from the bottom): pink, blue."
    "bottom_up": pgettext_lazy("board", "from the bottom"),
    # Translators: a column with no disc
    "empty": pgettext_lazy("board", "empty"),
    "win_line": pgettext_lazy("board", "line of four"),
}


def notation_words(lang: str) -> dict[str, str]:
    """A move as the move list and the announcements word it: "kolumna 4" / "column 4", as the
    board's buttons name the column (the engine's notation is the bare digit)."""
    column = worded({"column": BOARD_WORDS["column"]}, lang)["column"]
    return {str(n): f"{column} {n}" for n in range(1, COLUMNS + 1)}


def mistake_words(game: Any, why: dict[str, Any]) -> str | None:
    """review.why's figures in a sentence of the active language."""
    code = why["code"]
    if code == "missed_four":
        return gettext("A four in column %(column)s won at once.") % why
    if code == "left_four":
        return (
            gettext("The opponent could already make four in column %(column)s, and this move did not block it.") % why
        )
    if code == "opened_four":
        return gettext("This disc makes room for the opponent's four right above it, in column %(column)s.") % why
    if code == "missed_double":
        return (
            gettext("A disc in column %(column)s threatened two fours at once, and only one could have been blocked.")
            % why
        )
    if code == "allowed_double":
        return (
            gettext(
                "After this move the opponent's disc in column %(column)s threatens two fours at once, and only one can be"
                " blocked."
            )
            % why
        )
    n = why.get("discs", 0)
    if code == "win_let_go":
        return ngettext(
            "Before this move the win was forced, with %(n)s more disc; after it, no longer.",
            "Before this move the win was forced, within %(n)s more discs; after it, no longer.",
            n,
        ) % {"n": n}
    if code == "forced_loss":
        return ngettext(
            "After this move the opponent wins by force, with %(n)s more disc.",
            "After this move the opponent wins by force, within %(n)s more discs.",
            n,
        ) % {"n": n}
    return None


SPEC = register(
    GameSpec(
        slug="connect4",
        name=_("Four in a Row"),
        polish_name="Cztery w rzędzie",
        summary=_("Drop discs into seven columns and be the first with four in a line."),
        rules_slug="cztery-w-rzedzie",
        engine=Connect4,
        variants=(Variant("cztery-w-rzedzie", _("Four in a Row")),),
        board=board,
        board_words=BOARD_WORDS,
        notation_words=notation_words,
        bot=bot,
        review=review,
        mistake_words=mistake_words,
        puzzles=puzzles,
        puzzle_themes={
            "win_2": pgettext_lazy("puzzle theme", "Win in 2"),
            "win_3": pgettext_lazy("puzzle theme", "Win in 3"),
            "win_4": pgettext_lazy("puzzle theme", "Win in 4"),
            "only_move": pgettext_lazy("puzzle theme", "The only move"),
        },
        export_move=export_move,
        diagrams=tuple(diagrams.DIAGRAMS),
        home_picture="c4-rising",
        sections=diagrams.SECTIONS,
        rule_anchors=diagrams.RULE_ANCHORS,
        order=20,
        # The guard's exempt opening (docs/fairplay.md): 8 discs. Up to there games of strangers
        # meet all the time (the centre openings); past it a position is some game's own.
        opening_plies=8,
        # Engine-use detection (docs/fairplay.md "Detection"), measured by bench/fairplay.py.
        fair_play=FairPlayFigures(opening_plies=6, reference=0.58, flat_reference=0.47),
        scored=False,
        end_notices={NO_LINE_POSSIBLE: _("No line of four is possible any more: the match is a draw.")},
        error_words={
            COLUMN_FULL: _("This column is full."),
            # the position editor's (docs/analysis.md "Position editor")
            SETUP_FLOATING: _("A disc cannot hang in the air: each one stands on the bottom or on another disc."),
            SETUP_DISCS_COUNT: _("Pink moves first, so pink has as many discs as blue or one more."),
            SETUP_FOUR: _("There is a line of four already: the game would be over."),
            SETUP_UNREACHABLE: _(
                "No game reaches this position: the discs cannot be dropped in turn, pink first, in any order."
            ),
        },
        board_script="games/connect4/board_patch.js",
        reason_words={FOUR_IN_A_ROW: _("four in a row")},
        draw_words={
            NO_LINE_POSSIBLE: _("Draw: no line of four can be completed any more."),
            FULL_BOARD: _("Draw: the board is full."),
        },
    )
)
