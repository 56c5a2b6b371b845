"""Reads for pages and sockets, one module per page family (docs/features.md "Reads"):
state (the engine state of a match), match (the match page, its frames), record (a finished
match's record, its exports), lobby (the queue, the lists), home (who plays, who is online),
profile, ranking, social, account (the account's data download).

Writes go through ``games/play/``; these only read. The displays (``games/display/``) take
the rows these return and do no queries (tests/games/display/test_no_queries.py). A feature
folder keeps its own reads in its folder (``games/tournaments/selectors.py``).

What this package exported as one module is still importable from it.
"""

from __future__ import annotations

from .home import ONLINE_LIST_LIMIT, home_frame, live_summary, online_frame, online_players
from .lobby import QueueStatus, queue_sizes, queue_status
from .profile import presence_of
from .state import match_state, remember_state

__all__ = [
    "ONLINE_LIST_LIMIT",
    "QueueStatus",
    "home_frame",
    "live_summary",
    "match_state",
    "online_frame",
    "online_players",
    "presence_of",
    "queue_sizes",
    "queue_status",
    "remember_state",
]
