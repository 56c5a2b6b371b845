"""The arenas' Celery tasks: thin calls into the services, sent by beat (kropki_site/settings.py).

Their names stay those of games/tasknames.py (``games.tasks.…``: routes, beat and queued
messages use them). The feature's ``register`` (games/tournaments/feature.py) imports this
module, so Celery knows the tasks though its autodiscovery reads only ``games.tasks``.
"""

from __future__ import annotations

from celery import shared_task

from games import tasknames

from .services import tournaments_pair, tournaments_schedule

# Celery ships no type hints: each @shared_task below carries a type: ignore for its untyped decorator.


@shared_task(name=tasknames.PAIR_TOURNAMENTS, ignore_result=True)  # type: ignore[untyped-decorator]
def pair_tournaments() -> int:
    """One arena wave: start and end arenas, pair their free players (beat: every 2 s)."""
    return len(tournaments_pair())


@shared_task(name=tasknames.SCHEDULE_TOURNAMENTS, ignore_result=True)  # type: ignore[untyped-decorator]
def schedule_tournaments() -> int:
    """Make the scheduled arenas of the next hours from the schedule table (beat: every minute)."""
    return len(tournaments_schedule())
