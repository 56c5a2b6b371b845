"""End overdue turns without Celery: ``manage.py sweep_turns [--loop] [--interval 2]``.

The clock has two layers over the same service (``games.play.sweep_expired``):
the ``sweep_expired_turns`` task that beat sends every second on the "clock"
queue, and this command, which calls the service directly. It needs no broker
and no worker, so a dead or wedged Celery worker (or beat, or Redis) cannot stop
matches from ending on time (docs/reliability.md, rows 7 and 8): within deadline + grace +
the interval. scripts/run starts it beside beat. Both layers are idempotent:
the service re-checks each match under its row lock.

With ``--loop`` every machine runs one, and only the holder of the "sweeper" lease
(kropki_site/lib/lease.py) sweeps; the others ask for the lease every interval and take
over within a second or two of the holder's death.
"""

from __future__ import annotations

import logging
import signal
import time
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from games.play import sweep_expired
from kropki_site.lib import heartbeat
from kropki_site.lib.lease import Lease, host_name

log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "End every active match whose turn deadline (plus grace) has passed; --loop repeats every --interval s."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="keep sweeping until SIGTERM/SIGINT")
        parser.add_argument("--interval", type=float, default=2.0, help="seconds between sweeps (default 2)")

    def handle(self, *args: Any, loop: bool = False, interval: float = 2.0, **options: Any) -> None:
        stopping = False

        def stop(signum: int, frame: FrameType | None) -> None:
            nonlocal stopping
            stopping = True

        if loop:
            signal.signal(signal.SIGTERM, stop)
            signal.signal(signal.SIGINT, stop)
            self.stdout.write(f"sweep_turns: sweeping every {interval:g} s", ending="\n")
            self.stdout.flush()
        lease = Lease("sweeper") if loop else None
        while True:
            started = time.monotonic()
            try:
                close_old_connections()
                if lease is None or lease.held():
                    ended = sweep_expired()
                    if lease is not None:
                        heartbeat.alive("sweeper", host=host_name())
                else:
                    ended = 0
                    heartbeat.alive(f"standby:sweeper:{host_name()}")
                if ended:
                    self.stdout.write(f"sweep_turns: ended {ended} overdue turn(s)")
                    self.stdout.flush()
            except Exception:  # a database hiccup must not end the loop
                log.exception("sweep_turns: sweep failed")
                if not loop:
                    raise
            if not loop:
                return
            while not stopping and time.monotonic() - started < interval:
                time.sleep(0.1)
            if stopping:
                if lease is not None:
                    lease.release()
                return
