"""Kropki i kwadraty (Dots and Boxes) on the site: 5×5 boxes, ending at a majority."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.catalogue.spec import FairPlayFigures, GameSpec, Variant, register

from . import board, bot, diagrams, puzzles, review
from .engine import BOXES, BOXES_MAJORITY, SETUP_BOX_OWNER, DotsAndBoxes


def export_move(game: Any, action: int) -> Any:
    """A move as the replay command reads it: the segment id."""
    return action


# The words of the board (games/dots_and_boxes/board.py, games/dots_and_boxes/static/board_patch.js) beyond
# the shared ones of games.display.boards.
BOARD_WORDS = {
    "segment": pgettext_lazy("board", "segment"),
    "segments_drawn": pgettext_lazy("board", "segments drawn"),
    "boxes": pgettext_lazy("board", "boxes"),
    "box": pgettext_lazy("board", "box"),
    # Translators: the initial of "pink" written in a box pink has taken
    "P": pgettext_lazy("board", "P"),
    # Translators: the initial of "blue" written in a box blue has taken
    "B": pgettext_lazy("board", "B"),
}


def mistake_words(game: Any, why: dict[str, Any]) -> str | None:
    """review.why's figures in a sentence of the active language."""
    code, n = why["code"], why.get("boxes", 0)
    if code == "missed_boxes":
        return ngettext(
            "This move left %(n)s box that could be taken at once.",
            "This move left %(n)s boxes that could be taken at once, one after another.",
            n,
        ) % {"n": n}
    if code == "gave_boxes":
        given = ngettext(
            "This move hands the opponent %(n)s box.", "This move hands the opponent %(n)s boxes in a row.", n
        ) % {"n": n}
        if why["better"]:
            return given + " " + gettext("The better move gives away only %(n)s.") % {"n": why["better"]}
        return given + " " + gettext("The better move gives nothing away.")
    if code == "no_double_deal":
        return gettext(
            "Taking these boxes gave up control: leaving the last two to the opponent (a double-deal)"
            " would have made them open the next chain."
        )
    if code == "costs_boxes":
        return ngettext(
            "No box changes hands at once, but with best play this move costs %(n)s box by the end.",
            "No box changes hands at once, but with best play this move costs %(n)s boxes by the end.",
            n,
        ) % {"n": n}
    return None


SPEC = register(
    GameSpec(
        slug="dots_and_boxes",
        name=_("Dots and Boxes"),
        polish_name="Kropki i kwadraty",
        summary=_("Draw lines between dots; the fourth side of a box wins it and another move."),
        rules_slug="kropki-i-kwadraty",
        engine=DotsAndBoxes,
        variants=(Variant("kropki-i-kwadraty", _("Dots and Boxes"), {"rows": 5, "cols": 5}),),
        board=board,
        board_words=BOARD_WORDS,
        bot=bot,
        review=review,
        mistake_words=mistake_words,
        review_note=_("A box given away counts too, whatever the score: one box is a mistake, two are a blunder."),
        puzzles=puzzles,
        puzzle_themes={
            "double_deal": pgettext_lazy("puzzle theme", "Leave two boxes"),
            "chain": pgettext_lazy("puzzle theme", "The right chain"),
        },
        export_move=export_move,
        # the site's matches end at a majority of boxes (the replay's default is off)
        export_params={"majority_end": True},
        diagrams=tuple(diagrams.DIAGRAMS),
        home_picture="dab-two-boxes",
        sections=diagrams.SECTIONS,
        rule_anchors=diagrams.RULE_ANCHORS,
        order=30,
        # The guard's exempt opening (docs/fairplay.md): the first 6 segments (the board is
        # small and the canonical position forgets who drew what, so early positions recur).
        opening_plies=6,
        # Engine-use detection (docs/fairplay.md "Detection"), measured by bench/fairplay.py.
        fair_play=FairPlayFigures(opening_plies=8, reference=0.25, flat_reference=0.16),
        again_words=(
            _("Extra move! You closed a box: move again."),
            _("Extra move! %(name)s closed a box and moves again."),
        ),
        board_script="games/dots_and_boxes/board_patch.js",
        reason_words={BOXES: _("more boxes"), BOXES_MAJORITY: _("majority of boxes")},
        draw_words={BOXES: _("Draw: equal boxes.")},
        # the position editor's (docs/analysis.md "Position editor")
        error_words={SETUP_BOX_OWNER: _("A box closed on all four sides has an owner, and an open box has none.")},
    )
)
