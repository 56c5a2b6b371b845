"""Celery tasks: thin wake-up calls that fetch by id and call one service.

The services are imported inside each task body: the services publish these
tasks (``games.play.core`` imports this module), so this module imports none
of them at load time.

Each may run twice, late, or never (the sweeps cover "never"), so each is
idempotent: the service re-checks everything under the match's row lock.
The clock is ``sweep_expired_turns``, sent by beat every second
(docs/protocol.md, "The clock"); a move publishes no clock task. A feature's tasks live
in its folder (games/tournaments/tasks.py, games/review/tasks.py), imported by its
``feature.register()`` as the app loads, which is how a worker knows them.
"""

from __future__ import annotations

import logging

from celery import shared_task

from games import tasknames

log = logging.getLogger(__name__)

# Celery ships no type hints: each @shared_task below carries a type: ignore for its untyped decorator.


@shared_task(name=tasknames.SWEEP_EXPIRED_TURNS, ignore_result=True)  # type: ignore[untyped-decorator]
def sweep_expired_turns() -> int:
    """End every overdue turn (beat: every SWEEP_SECONDS, 1 by default, on the "clock" queue)."""
    from games.play import sweep_expired

    return sweep_expired()


@shared_task(name=tasknames.BOT_MOVE, acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]
def bot_move(match_id: int, ply: int) -> bool:
    """A token of the computer's fair queue: makes the fairest waiting computer move,
    not necessarily this match's (docs/bots.md, "Limits"; games/play/botqueue.py)."""
    from games.play.computer import computer_token

    return computer_token(match_id=match_id, ply=ply)


@shared_task(name=tasknames.PAIR_SEEKS, ignore_result=True)  # type: ignore[untyped-decorator]
def pair_seeks() -> int:
    """One ranked-queue pairing round (beat: every 2 s, so windows widen without new seeks)."""
    from games.play.matchmaking import seek_pair

    return len(seek_pair())


@shared_task(name=tasknames.DELETE_STALE_GUESTS, ignore_result=True)  # type: ignore[untyped-decorator]
def delete_stale_guests() -> int:
    """Delete guests with no match for GUEST_STALE_DAYS days (beat: hourly, default queue)."""
    from games.play.guests import guests_delete_stale

    return guests_delete_stale()


@shared_task(name=tasknames.DELETE_UNPLAYED_COMPUTER_MATCHES, ignore_result=True)  # type: ignore[untyped-decorator]
def delete_unplayed_computer_matches() -> int:
    """Delete aborted computer matches the human never moved in, after a day (beat: hourly)."""
    from games.play.creating import computer_matches_delete_unplayed

    return computer_matches_delete_unplayed()


@shared_task(name=tasknames.CORRESPONDENCE_REMIND, ignore_result=True)  # type: ignore[untyped-decorator]
def correspondence_remind() -> int:
    """Remind the players to move whose correspondence turn is running out (beat: every 5 min)."""
    from games.play.correspondence import remind_due

    return remind_due()


@shared_task(name=tasknames.CORRESPONDENCE_TURN, ignore_result=True)  # type: ignore[untyped-decorator]
def correspondence_turn() -> int:
    """Tell the players to move of the correspondence games that moved on (beat: every 10 s)."""
    from games.play.correspondence import turns_due

    return turns_due()
