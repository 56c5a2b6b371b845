"""A slow Celery task for tests only: the busy-worker test (docs/reliability.md row 10) fills a
worker's pool with it. Never imported by the site; the test's worker loads it with
``celery worker --include tests.live_play.slow_tasks``."""

from __future__ import annotations

import time

from celery import shared_task

NAME = "tests.live_play.slow_tasks.sleep"


@shared_task(name=NAME, ignore_result=True)
def sleep(seconds: float) -> None:
    time.sleep(seconds)
