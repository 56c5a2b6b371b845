"""The review's Celery task, on the ``analysis`` queue (a worker of its own; kropki_site/settings.py).

Thin, like games/tasks.py's; ``games/review/feature.py`` imports this module as the app loads,
which is how a worker knows it. Its name stays the one games/tasknames.py gives (``ANALYSE_MATCH``).
"""

from __future__ import annotations

from celery import shared_task

from games import tasknames

# Celery ships no type hints: the @shared_task below carries a type: ignore for its untyped decorator.


@shared_task(name=tasknames.ANALYSE_MATCH, acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]
def analyse_match(analysis_id: int) -> bool:
    """The computer's review of one finished match (the "analysis" queue, a worker of its own)."""
    from games.review.services import analysis_run

    return analysis_run(analysis_id)
