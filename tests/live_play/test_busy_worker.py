"""docs/reliability.md row 10: a worker whose pool is full of slow jobs must not delay timeouts.

The live site (real daphne, Redis, Celery beat and workers, MOVE_SECONDS = 3, grace 1 s)
runs beat (the clock's sweep every second) and two workers as scripts/run does: one for
the ``clock`` queue only (concurrency 1) and one for ``default`` and ``bots``. The second
is filled with 30-second jobs (tests-only task, ``tests/live_play/slow_tasks.py``) on both
of its queues; a human match whose player does not move must still end within
deadline + grace + 3 s.

The control shows the load is real: with one shared worker (all three queues, as scripts/run
used to run) and the same jobs, the same timeout has not happened 3 s after deadline + grace.
"""

from __future__ import annotations

import asyncio
import re
import time
from datetime import datetime

import pytest
from celery import Celery

from kropki_site.settings import celery_broker_url
from tests import live

from .conftest import GRACE_SECONDS, MOVE_SECONDS, create_match
from .slow_tasks import NAME as SLOW_TASK
from .test_clock_live import finished, open_ws, play, until

pytestmark = pytest.mark.slow

LATE_BUDGET = 3.0  # seconds after deadline + grace
JOBS_PER_QUEUE = 6
JOB_SECONDS = 30


@pytest.fixture(scope="module", autouse=True)
def beat(clock_site):
    """Beat sends the clock's sweep every second, as scripts/run starts it."""
    return clock_site.start_beat()


@pytest.fixture
def workers(clock_site):
    """Start workers for one test; kill -9 them after it (a warm shutdown would wait for the jobs)."""
    started: list[live.Proc] = []

    def start(queues: str, name: str, concurrency: int) -> live.Proc:
        proc = clock_site.start_worker(
            queues=queues, name=name, concurrency=concurrency, extra=("--include", "tests.live_play.slow_tasks")
        )
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.kill()
        if proc in clock_site.procs:
            clock_site.procs.remove(proc)


def fill_with_slow_jobs(site: live.LiveSite) -> None:
    app = Celery("kropki-test", broker=celery_broker_url(site.env["REDIS_URL"]), set_as_current=False)
    try:
        for queue in ("bots", "default"):
            for _ in range(JOBS_PER_QUEUE):
                app.send_task(SLOW_TASK, args=[JOB_SECONDS], queue=queue)
    finally:
        app.close()


def wait_busy(proc: live.Proc, running: int) -> None:
    """Until ``proc`` has started ``running`` slow jobs (its log says so)."""
    deadline = time.monotonic() + 30
    pattern = re.compile(r"Task " + re.escape(SLOW_TASK) + r"\[[^\]]+\] received")
    while time.monotonic() < deadline:
        if len(pattern.findall(proc.log.read_text(errors="replace"))) >= running:
            time.sleep(0.5)  # the pool picks them up
            return
        time.sleep(0.2)
    raise TimeoutError(f"{proc.name} did not take {running} slow jobs\n{live.tail(proc.log)}")


async def timeout_lateness(site: live.LiveSite, url: str, wait: float) -> float | None:
    """Play two moves of a Cztery w rzędzie match, let pink's clock run out: seconds after
    deadline + grace at which both sockets saw the end (None if not within ``wait``)."""
    data = await asyncio.to_thread(create_match, site, "cztery-w-rzedzie")
    ws_a = await open_ws(url, data["match"], data["alice"])
    ws_b = await open_ws(url, data["match"], data["bob"])
    try:
        await play(ws_a, ws_b, 0, 3)
        frame = await play(ws_b, ws_a, 1, 3)
        due = datetime.fromisoformat(frame["match"]["deadline"]).timestamp() + GRACE_SECONDS
        try:
            ends = [await until(ws, finished, max(0.1, due + wait - time.time())) for ws in (ws_a, ws_b)]
        except TimeoutError:
            return None
        late = time.time() - due
        for end in ends:
            assert end["match"]["end_reason"] == "timeout" and end["match"]["winner"] == 2
        return late
    finally:
        await ws_a.close()
        await ws_b.close()


def test_scripts_run_gives_the_clock_queue_its_own_worker():
    lines = [line for line in live.run_programs().values() if "celery -A kropki_site worker" in line]
    queues = [re.findall(r"-Q (\S+)", line)[0].split(",") for line in lines]
    assert ["clock"] in queues, lines
    assert all("clock" not in q for q in queues if q != ["clock"]), lines
    assert {"default", "bots"} <= {name for q in queues for name in q}


async def test_a_full_bots_and_default_pool_does_not_delay_a_timeout(clock_site, clock_url, workers):
    await asyncio.to_thread(workers, "clock", "clock", 1)
    busy = await asyncio.to_thread(workers, "default,bots", "busy", 2)
    await asyncio.to_thread(fill_with_slow_jobs, clock_site)
    await asyncio.to_thread(wait_busy, busy, 2)
    late = await timeout_lateness(clock_site, clock_url, wait=MOVE_SECONDS + LATE_BUDGET + 10)
    assert late is not None, "the timeout never came"
    print(f"row 10: the timeout came {late:.2f} s after deadline + grace")
    assert late <= LATE_BUDGET, f"the timeout came {late:.1f} s after deadline + grace"
    # and the pool really was full all along: no slow job has finished
    assert not re.search(re.escape(SLOW_TASK) + r"\[[^\]]+\] succeeded", busy.log.read_text(errors="replace"))


async def test_control_one_shared_busy_worker_does_delay_it(clock_site, clock_url, workers):
    shared = await asyncio.to_thread(workers, "default,clock,bots", "shared", 1)
    await asyncio.to_thread(fill_with_slow_jobs, clock_site)
    await asyncio.to_thread(wait_busy, shared, 1)
    late = await timeout_lateness(clock_site, clock_url, wait=LATE_BUDGET)
    assert late is None, f"the shared pool was not busy: the timeout came {late:.1f} s late"
