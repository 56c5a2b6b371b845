"""``manage.py extend_deadlines``: give every live turn back the time a planned restart took.

    manage.py extend_deadlines                 # by now - drain start + margin; clears the drain mark
    manage.py extend_deadlines --since ISO     # by now - ISO + margin (an outage with no drain)
    manage.py extend_deadlines --seconds N     # by exactly N seconds

Run it after ``migrate`` and **before** starting daphne, the workers, beat and
the sweeper (they would apply the old deadlines). The margin (default 10 s)
covers the start-up and the clients' reconnect. Only turns still live at the
drain's (or ``--since``'s) moment are extended; one transaction for all
(``games.play.matches_extend_deadlines``). docs/deploy.md, "Planned restart".
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games.play import matches_extend_deadlines
from games.play.drain import drain_end, drain_started


class Command(BaseCommand):
    help = "Push every active match's turn deadline forward by the downtime of a planned restart."

    def add_arguments(self, parser: CommandParser) -> None:
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--seconds", type=float, help="extend by exactly this many seconds")
        group.add_argument("--since", help="the downtime started at this ISO-8601 time (default: the drain mark)")
        parser.add_argument(
            "--margin",
            type=float,
            default=10.0,
            help="seconds added to the measured downtime (start-up, reconnect); default 10",
        )

    def handle(
        self, *args: Any, seconds: float | None = None, since: str | None = None, margin: float = 10.0, **options: Any
    ) -> None:
        now = timezone.now()
        from_drain = False
        if seconds is not None:
            by, live_at = timedelta(seconds=seconds), None
        else:
            if since is not None:
                try:
                    start = datetime.fromisoformat(since)
                except ValueError:
                    raise CommandError(f"--since: not an ISO-8601 time: {since!r}") from None
                if timezone.is_naive(start):
                    start = start.replace(tzinfo=UTC)
            else:
                drained = drain_started()
                if drained is None:
                    raise CommandError(
                        "not draining (no drain mark): run `manage.py drain` first, or pass --seconds N or --since ISO"
                    )
                start = drained
                from_drain = True
            by, live_at = max(now - start, timedelta(0)) + timedelta(seconds=margin), start
        count = matches_extend_deadlines(by=by, live_at=live_at)
        if from_drain:
            drain_end()
        self.stdout.write(f"extend_deadlines: extended {count} match(es) by {by.total_seconds():.1f} s")
