"""Every write to a match, a challenge or the ranked queue: the services.

Pages, sockets and Celery tasks call these and nothing else to change a
Match, Move, Challenge or Seek row. Each module is one collaborator:

- ``core``: the row lock, guards, the clock's arithmetic, after-commit work;
- ``creating``: new matches, one or many at once (an arena's wave); ending or deleting many at once;
- ``moves``: a move (human or computer) and what a timeout does;
- ``finishing``: the one door out, and rating;
- ``clock``: the sweep of overdue turns, deadlines moved for a restart;
- ``offers``: resigning, draws (``match_draw``: offer or accept), rematches;
- ``takeback``: taking a move back, by agreement or against the computer;
- ``challenges``: link and lobby challenges, and direct ones to a named player;
- ``matchmaking``: the ranked queue;
- ``computer``: games against the computer and its turn; ``botqueue``: the computer's fair queue;
- ``publisher``, ``drain``: publishing tasks off the request thread; a planned restart.
"""

from __future__ import annotations

from .challenges import challenge_accept, challenge_cancel, challenge_create
from .clock import matches_extend_deadlines, sweep_expired
from .computer import computer_match_start, match_bot_turn
from .core import turn_expired
from .creating import computer_matches_trim, match_create, matches_delete_unfinished_of
from .moves import PlayResult, match_bot_play, match_end, match_expire_turn, match_play
from .offers import (
    match_answer_draw,
    match_decline_rematch,
    match_draw,
    match_offer_draw,
    match_offer_rematch,
    match_resign,
)
from .takeback import match_answer_takeback, match_takeback

__all__ = [
    "PlayResult",
    "challenge_accept",
    "challenge_cancel",
    "challenge_create",
    "computer_match_start",
    "computer_matches_trim",
    "match_answer_draw",
    "match_answer_takeback",
    "match_bot_play",
    "match_bot_turn",
    "match_create",
    "match_decline_rematch",
    "match_draw",
    "match_end",
    "match_expire_turn",
    "match_offer_draw",
    "match_offer_rematch",
    "match_play",
    "match_resign",
    "match_takeback",
    "matches_delete_unfinished_of",
    "matches_extend_deadlines",
    "sweep_expired",
    "turn_expired",
]
