"""Piłkarzyki (paper soccer) on the site: the 8×10 field, goals three points wide."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.catalogue.spec import FairPlayFigures, GameSpec, Variant, register, worded

from . import board, bot, diagrams, puzzles, review
from .engine import DIRECTION_NAMES, GOAL, NOT_A_GOAL_ENTRY, OWN_GOAL, STUCK, Pilkarzyki

# The words of the board (games/pilkarzyki/board.py, games/pilkarzyki/static/board_patch.js) beyond the
# shared ones of games.display.boards.
BOARD_WORDS = {
    "field": pgettext_lazy("board", "field"),
    "ball": pgettext_lazy("board", "ball"),
    # Translators: followed by a player's colour: "Goal attacked by pink: d0, e0, f0."
    "goal_of": pgettext_lazy("board", "goal attacked by"),
    "turn_path": pgettext_lazy("board", "the ball's path this turn"),
    "moves_again": pgettext_lazy("board", "bounce: the same player moves again"),
    "direction": pgettext_lazy("board", "direction"),
    # Translators: the eight ways the ball goes on the field as drawn, separated by "|", in
    # this order (the board's targets: "direction up-right (f5)")
    "dirs": pgettext_lazy("board", "up|up-right|right|down-right|down|down-left|left|up-left"),
    "used": pgettext_lazy("board", "segments used"),
    # Translators: the move list's and announcements' names of the engine's N, NE, E... (the
    # top goal is north), separated by "|", in this order; English keeps the compass letters
    "moves": pgettext_lazy("board", "N|NE|E|SE|S|SW|W|NW"),
}


def export_move(game: Any, action: int) -> Any:
    """A move as the replay command reads it: the direction, 0..7 (0 = N, towards the top goal)."""
    return action


def notation_words(lang: str) -> dict[str, str]:
    """The engine's compass names as the move list and the announcements word them: the
    board's words ("moves" above): English pages keep N, NE...; Polish ones say which way on
    the field as drawn (up is the top goal)."""
    moves = worded({"moves": BOARD_WORDS["moves"]}, lang)["moves"]
    return dict(zip(DIRECTION_NAMES, moves.split("|"), strict=True))


def player_note(view: dict[str, Any], side: int) -> Any:
    """Which goal the player attacks (the goal tinted in their colour) and which they defend."""
    goals = view["goals"]
    if goals["top"]["attacker"] == side:
        return _("You attack the top goal (tinted in your colour) and defend the bottom one.")
    if goals["bottom"]["attacker"] == side:
        return _("You attack the bottom goal (tinted in your colour) and defend the top one.")
    return ""


def mistake_words(game: Any, why: dict[str, Any]) -> str | None:
    """review.why's figures in a sentence of the active language."""
    code = why["code"]
    if code == "own_goal":
        return gettext("This step puts the ball in the player's own goal.")
    if code == "dead_end":
        return gettext("This step takes the ball to a point with no free line left: the game is lost.")
    if code == "missed_goal":
        return gettext("A goal could be scored in this turn; after this step, no longer.")
    if code == "opened_goal":
        return gettext("After this step the opponent can score in their next turn.")
    if code == "trapped":
        return gettext("After this step every way on ends the game in a loss: the ball has nowhere safe to go.")
    n = why.get("turns", 0)
    if code == "win_let_go":
        return ngettext(
            "Before this step the win was forced within %(n)s turn; after it, no longer.",
            "Before this step the win was forced within %(n)s turns; after it, no longer.",
            n,
        ) % {"n": n}
    if code == "forced_loss":
        return ngettext(
            "After this step the opponent wins by force within %(n)s turn of theirs.",
            "After this step the opponent wins by force within %(n)s turns of theirs.",
            n,
        ) % {"n": n}
    if code == "ball_back":
        rows = why["rows"]
        return ngettext(
            "By the computer's search this step leaves the ball about %(n)s row nearer the player's own goal than the better move.",
            "By the computer's search this step leaves the ball about %(n)s rows nearer the player's own goal than the better move.",
            rows,
        ) % {"n": rows}
    return None


SPEC = register(
    GameSpec(
        slug="pilkarzyki",
        name=_("Paper Soccer"),
        polish_name="Piłkarzyki",
        summary=_(
            "Paper soccer: kick the ball along unused lines into your opponent's goal; a bounce gives you another kick."
        ),
        rules_slug="pilkarzyki",
        engine=Pilkarzyki,
        variants=(Variant("pilkarzyki", _("Paper Soccer")),),
        board=board,
        board_words=BOARD_WORDS,
        bot=bot,
        review=review,
        mistake_words=mistake_words,
        puzzles=puzzles,
        puzzle_themes={"goal": pgettext_lazy("puzzle theme", "A goal in one turn")},
        export_move=export_move,
        diagrams=tuple(diagrams.DIAGRAMS),
        home_picture=diagrams.HOME_PICTURE,
        sections=diagrams.SECTIONS,
        rule_anchors=diagrams.RULE_ANCHORS,
        reason_words={
            GOAL: _("a goal"),
            OWN_GOAL: _("an own goal"),
            STUCK: _("the opponent had no move left (the ball was stuck)"),
        },
        order=40,
        # The guard's exempt opening (docs/fairplay.md): the first 8 steps of the ball (the
        # kick-off's few lines every game starts with).
        opening_plies=8,
        # Engine-use detection (docs/fairplay.md "Detection"), measured by bench/fairplay.py.
        fair_play=FairPlayFigures(opening_plies=6, reference=0.87, flat_reference=0.66),
        scored=False,
        notation_words=notation_words,
        again_words=(
            _("Bounce! The ball hit a used point or the border: kick again."),
            _("Bounce! %(name)s kicks again."),
        ),
        player_note=player_note,
        error_words={NOT_A_GOAL_ENTRY: _("The ball enters a goal only across the goal line, between the posts.")},
        board_script="games/pilkarzyki/board_patch.js",
    )
)
