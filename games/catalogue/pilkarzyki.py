"""Piłkarzyki (paper soccer) on the site: the 8×10 field, goals three points wide."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.boards import pilkarzyki as board
from games.bots import pilkarzyki as bot
from games.engine.pilkarzyki import GOAL, OWN_GOAL, STUCK, Pilkarzyki
from games.rules import pilkarzyki as rules

from .spec import GameSpec, Variant, register


def export_move(game: Any, action: int) -> Any:
    """A move as the replay command reads it: the direction, 0..7 (0 = N, towards the top goal)."""
    return action


SPEC = register(GameSpec(
    slug="pilkarzyki",
    name=_("Paper Soccer"),
    polish_name="Piłkarzyki",
    summary=_("Paper soccer: kick the ball along unused lines into your opponent's goal; a bounce gives you another kick."),
    rules_slug="pilkarzyki",
    engine=Pilkarzyki,
    variants=(Variant("pilkarzyki", _("Paper Soccer")),),
    board=board,
    bot=bot,
    export_move=export_move,
    diagrams=tuple(rules.DIAGRAMS),
    home_picture=rules.HOME_PICTURE,
    sections=rules.SECTIONS,
    rule_anchors=rules.RULE_ANCHORS,
    reason_words={GOAL: _("a goal"), OWN_GOAL: _("an own goal"), STUCK: _("the opponent had no move left (the ball was stuck)")},
    order=40,
))
