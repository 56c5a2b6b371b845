"""Piłkarzyki (paper soccer) on the site: the 8×10 field, goals three points wide."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.boards.svg import words_for
from games.catalogue.spec import GameSpec, Variant, register

from . import board, bot, diagrams
from .engine import DIRECTION_NAMES, GOAL, NOT_A_GOAL_ENTRY, OWN_GOAL, STUCK, Pilkarzyki


def export_move(game: Any, action: int) -> Any:
    """A move as the replay command reads it: the direction, 0..7 (0 = N, towards the top goal)."""
    return action


def notation_words(lang: str) -> dict[str, str]:
    """The engine's compass names as the move list and the announcements word them: the
    board's words (games/boards/svg.py "moves"): English pages keep N, NE...; Polish ones say
    which way on the field as drawn (up is the top goal)."""
    return dict(zip(DIRECTION_NAMES, words_for(lang)["moves"].split("|"), strict=True))


def player_note(view: dict[str, Any], side: int) -> Any:
    """Which goal the player attacks (the goal tinted in their colour) and which they defend."""
    goals = view["goals"]
    if goals["top"]["attacker"] == side:
        return _("You attack the top goal (tinted in your colour) and defend the bottom one.")
    if goals["bottom"]["attacker"] == side:
        return _("You attack the bottom goal (tinted in your colour) and defend the top one.")
    return ""


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
        bot=bot,
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
