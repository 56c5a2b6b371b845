"""The computer's Kropki moves through a Celery "bots" queue, as the site runs them.

A Celery app of its own (no Django, no database) on an embedded Redis with
the site's worker settings (prefork pool of 2, prefetch 1, acks late, JSON):
``bench/bot_times.py --queue`` starts a worker on the ``bots`` queue, sends
one ``bot_move`` task per position (board size, move history, level, seed)
and measures each move from sending the task to its result, so the figure
includes the queue, the worker's process and the move's own search, as
``games.tasks.bot_move`` pays for them on the site. The task body is the
site's: ``games.bots.choose_action`` on the state replayed from history.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from celery import Celery

BROKER = os.environ.get("KROPKI_BENCH_BROKER", "redis://localhost:6379/15")

app = Celery("kropki_bot_queue", broker=BROKER, backend=BROKER)
app.conf.update(
    task_acks_late=True,
    worker_prefetch_multiplier=1,
    task_serializer="json",
    accept_content=["json"],
    result_serializer="json",
    task_default_queue="bots",
    worker_hijack_root_logger=False,
)


@app.task(name="kropki_bench.bot_move")
def bot_move(width: int, height: int, history: list[int], level: str, seed: int) -> dict:
    from games.bots import choose_action
    from games.engine import get_game

    state = get_game("kropki", width=width, height=height).state_from_history(history)
    start = time.perf_counter()
    action = choose_action(state, level, seed=seed)
    return {"action": action, "search_s": time.perf_counter() - start}
