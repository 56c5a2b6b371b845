"""The background parts say they are alive, and /healthz reads it.

Each Celery worker (a bootstep on the worker's own timer), beat (its scheduler's
tick) and the ``sweep_turns`` loop write ``kropki:alive:<part>[:<name>]`` in Redis
every few seconds, with the time and an expiry. Nothing here may disturb the part
that calls it: a Redis that is down is the redis check's business, so errors are
swallowed. After a Redis restart the keys are back within one interval.
"""

from __future__ import annotations

import json
import logging
import os
import time
from typing import TYPE_CHECKING, Any, ClassVar

import redis
from celery import bootsteps
from celery.beat import PersistentScheduler

from kropki_site.lib import limits
from kropki_site.lib.lease import Lease, host_name

if TYPE_CHECKING:
    from celery.worker import WorkController
    from kombu.asynchronous.timer import Entry

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 2.0
# A part not heard from for this long is reported as not seen (and its key expires).
STALE_SECONDS = 15.0
PREFIX = "kropki:alive:"
# A beat that does not hold the lease asks for it this often.
STANDBY_TICK_SECONDS = 1.0


def alive(part: str, **details: Any) -> None:
    """Record that ``part`` is alive now (``details``: e.g. a worker's queues)."""
    try:
        value = json.dumps({"at": time.time(), "pid": os.getpid(), **details})
        limits.client().set(PREFIX + part, value, ex=int(STALE_SECONDS))
    except redis.RedisError as exc:
        log.debug("heartbeat of %s not written: %s", part, exc)


def seen() -> dict[str, dict[str, Any]]:
    """Every part heard from within STALE_SECONDS: name -> {"at", "ago", details...}.
    Raises redis.RedisError when Redis does not answer."""
    conn = limits.client()
    keys = sorted(conn.scan_iter(match=PREFIX + "*", count=100))
    now = time.time()
    parts: dict[str, dict[str, Any]] = {}
    for key, raw in zip(keys, conn.mget(keys) if keys else [], strict=True):
        if raw is None:
            continue
        value = json.loads(raw)
        value["ago"] = round(max(0.0, now - value["at"]), 1)
        parts[key.decode()[len(PREFIX) :]] = value
    return parts


class WorkerHeartbeat(bootsteps.StartStopStep):  # type: ignore[misc]  # celery ships no type hints
    """A worker bootstep: ``alive("worker:<hostname>", queues=[...])`` on the worker's timer,
    so a worker whose event loop is stuck stops beating."""

    requires: ClassVar[set[str]] = {"celery.worker.components:Timer"}

    def __init__(self, worker: WorkController, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Entry | None = None

    def start(self, worker: WorkController) -> None:
        queues = sorted(worker.app.amqp.queues.consume_from or worker.app.amqp.queues)
        name = "worker:" + worker.hostname

        def beat() -> None:
            alive(name, queues=queues)

        beat()
        self.tref = worker.timer.call_repeatedly(INTERVAL_SECONDS, beat)

    def stop(self, worker: WorkController) -> None:
        if self.tref is not None:
            self.tref.cancel()  # type: ignore[no-untyped-call]  # kombu leaves Entry.cancel unannotated
            self.tref = None


class Scheduler(PersistentScheduler):  # type: ignore[misc]  # celery ships no type hints
    """Celery beat's scheduler (its schedule file as before) that sends the schedule only
    while it holds the "beat" lease, reports each tick (as the leader, with its host, or as
    a standby), and starts a new schedule file over one it cannot read."""

    _last_beat = 0.0
    _lease: Lease | None = None

    def setup_schedule(self) -> None:
        # A beat killed mid-write (kill -9) can leave a truncated shelve that celery's own
        # recovery misses (EOFError), and beat would then die at every start. Every entry
        # of ours is a short interval, so nothing worth keeping is lost.
        try:
            super().setup_schedule()
        except Exception as exc:
            log.warning("beat schedule %s unreadable (%r): starting a new one", self.schedule_filename, exc)
            self._remove_db()
            super().setup_schedule()

    def tick(self, *args: Any, **kwargs: Any) -> float:
        # Every machine runs beat; only the holder of the "beat" lease sends the schedule
        # (kropki_site/lib/lease.py). The others ask again every second.
        if self._lease is None:
            self._lease = Lease("beat")
        leads = self._lease.held()
        now = time.monotonic()
        if now - self._last_beat >= INTERVAL_SECONDS:
            self._last_beat = now
            if leads:
                alive("beat", host=host_name())
            else:
                alive(f"standby:beat:{host_name()}")
        if not leads:
            return STANDBY_TICK_SECONDS
        # Beat may sleep up to max_interval between ticks: keep it short enough to beat.
        interval: float = super().tick(*args, **kwargs)  # seconds until the next tick
        return min(interval, INTERVAL_SECONDS)

    def close(self) -> None:
        if self._lease is not None:
            self._lease.release()
        super().close()
