"""The review's Celery tasks, for the analysis worker (one process of its own; kropki_site/settings.py):
a match's review on the ``analysis`` queue, and the analysis board's evaluation of a position on
``board``, which the worker takes in turn with the reviews.

Thin, like games/tasks.py's; ``games/review/feature.py`` imports this module as the app loads,
which is how a worker knows them. Their names are the ones games/tasknames.py gives
(``ANALYSE_MATCH``, ``BOARD_EVALUATE``).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games import tasknames

# Celery ships no type hints: the @shared_task below carries a type: ignore for its untyped decorator.


@shared_task(name=tasknames.ANALYSE_MATCH, acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]
def analyse_match(analysis_id: int) -> bool:
    """The computer's review of one finished match (the "analysis" queue, a worker of its own)."""
    from games.review.services import analysis_run

    return analysis_run(analysis_id)


@shared_task(name=tasknames.BOARD_EVALUATE, ignore_result=True, time_limit=120)  # type: ignore[untyped-decorator]
def board_evaluate(variant: str, params: dict[str, Any], actions: list[int]) -> None:
    """The analysis board's evaluation of one position (the "board" queue): made and kept for
    the page that asked, which asks again until it is there."""
    from games.review.analysis_board import evaluation_make

    evaluation_make(variant, params, actions)
