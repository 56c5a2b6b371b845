"""Fair play's Celery task, on the ``fairplay`` queue (a worker of its own, one process, niced:
scripts/supervisord.conf). Thin: ``feature.py`` imports this module as the app loads, which is how
a worker knows it; its name is games/tasknames.py's ``FAIRPLAY_CHECK``."""

from __future__ import annotations

from celery import shared_task

from games import tasknames

# Celery ships no type hints: the @shared_task below carries a type: ignore for its untyped decorator.


@shared_task(name=tasknames.FAIRPLAY_CHECK, acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]
def fairplay_check(match_id: int) -> list[int]:
    """Engine-use detection for both players of one finished rated match."""
    from games.fairplay.checks import fairplay_check_match

    return fairplay_check_match(match_id)
