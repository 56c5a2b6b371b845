"""The computer's turn: think outside any lock, then play through the service."""

from __future__ import annotations

import logging

from games.errors import MatchError
from games.models import Match
from games.services import match_bot_play, match_state

log = logging.getLogger(__name__)


def match_bot_turn(*, match_id: int, ply: int) -> bool:
    """Compute and play the computer's move for position ``ply``; a no-op if
    the match moved on or is over (a duplicate or late task). True if it played."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.is_active or match.ply != ply or match.bot_side is None:
        return False
    if match.to_move != match.bot_side:
        return False
    state = match_state(match)
    from games.bots import choose_action

    action = choose_action(state, match.bot_level)
    try:
        match_bot_play(match_id=match_id, ply=ply, action=action)
    except MatchError as exc:  # the position changed while thinking: the next task handles it
        log.info("bot move for match %s at ply %s refused: %s", match_id, ply, exc.code)
        return False
    return True
