"""What every match service shares: the row lock, the guards, the clock's
arithmetic, the turn after a move, and the work that waits for the commit
(the frame to the match's sockets, the computer's move).

Every service runs in one transaction holding the match's row lock
(``select_for_update``; on SQLite the IMMEDIATE transaction mode serialises
writers), checks its guards, writes, and registers the broadcast (and a
computer's move) with ``transaction.on_commit`` so clients only hear of
committed state. Refusals raise Refusal.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from games.display.frames import event_frame
from games.engine import State
from games.live import transport
from games.models import Match, Move
from kropki_site.lib.refusals import Refusal

from . import botqueue, publisher


def move_time(match: Match | None = None, side: int | None = None) -> timedelta:
    """The time for one move: MOVE_SECONDS, or the match's own clock (an arena's game may set a
    shorter one), halved for a player who went berserk (docs/tournaments.md); a correspondence
    game's days."""
    if match is not None and match.days:
        return timedelta(days=match.days)
    own = match.move_seconds if match is not None else None
    seconds = float(settings.MOVE_SECONDS if own is None else own)
    if match is not None and side is not None and match.berserk_of(side):
        seconds /= 2
    return timedelta(seconds=seconds)


def grace() -> timedelta:
    return timedelta(seconds=settings.MOVE_GRACE_SECONDS)


def turn_expired(match: Match, now: datetime) -> bool:
    """The one predicate of expiry: past the deadline plus the grace."""
    return match.turn_deadline is not None and now >= match.turn_deadline + grace()


def lock(match_id: int) -> Match:
    # The match row alone: frames carry its header, never the players' names.
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise Refusal("not_found") from None


def side_of_user(match: Match, user_id: int | None) -> int:
    if user_id is None:
        raise Refusal("login_required")
    side = match.side_of(user_id)
    if side is None:
        raise Refusal("not_a_player")
    return side


def require_active(match: Match) -> None:
    if not match.is_active:
        raise Refusal("match_not_active")


def lock_active_player(match_id: int, user_id: int | None) -> tuple[Match, int]:
    """The locked match and the side of ``user_id`` in it, refused unless it is active."""
    match = lock(match_id)
    side = side_of_user(match, user_id)
    require_active(match)
    return match, side


def has_moved(match: Match, side: int) -> bool:
    return Move.objects.filter(match=match, player=side, by_timeout=False).exists()


def broadcast_on_commit(match: Match, kind: str, **extra: Any) -> None:
    """After commit, the frame of ``match`` as this transaction leaves it (no re-read)."""
    transaction.on_commit(lambda: transport.send_to_match(match.pk, event_frame(match, kind, **extra)))


def broadcast_many_on_commit(matches: list[Match], kind: str) -> None:
    """``broadcast_on_commit`` for many matches: after commit, their frames in one pipelined
    publish (the frames are built then, from the matches as this transaction leaves them)."""
    transaction.on_commit(
        lambda: transport.send_to_matches([(match.pk, event_frame(match, kind)) for match in matches])
    )


def queue_computer_turn(match: Match) -> None:
    """After commit: the computer's move if it is its turn.

    A human turn needs nothing here: its clock is the row's ``turn_deadline``,
    which the sweeps (``sweep_expired``, every second) read through the
    (status, turn_deadline) index. So a human move publishes nothing to the broker.
    """
    if match.is_active and match.bot_side is not None and match.to_move == match.bot_side:
        match_id, ply = match.pk, match.ply
        owner = match.pink_id or match.blue_id or 0  # the human (the computer's side has none)
        transaction.on_commit(lambda: enqueue_bot(match_id, ply, owner))


def enqueue_bot(match_id: int, ply: int, owner: int) -> None:
    """Queue the computer's move for position ``ply`` (human player ``owner``) in the
    computer's fair queue (games/play/botqueue.py) without waiting for Redis or the
    broker: it runs on a background thread (games/play/publisher.py), errors are
    logged, and ``sweep_expired`` re-enqueues a computer move that never came."""
    publisher.call(botqueue.submit, match_id, ply, owner)


def set_turn(match: Match, state: State, now: datetime) -> None:
    match.to_move = state.current_player()
    match.pink_score, match.blue_score = state.scores()
    human_to_move = match.to_move is not None and match.to_move != match.bot_side
    match.turn_deadline = now + move_time(match, match.to_move) if human_to_move else None
