"""``manage.py drain [--cancel]``: the first step of a planned restart (docs/deploy.md).

Records the drain's start (the downtime is measured from it) and stops the
ranked queue from pairing new matches. Matches in play go on until the
processes are stopped. ``--cancel`` removes the mark (no restart after all).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.play.drain import drain_begin, drain_end, drain_started


class Command(BaseCommand):
    help = "Start a planned restart: record the drain's start and stop pairing new ranked matches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--cancel", action="store_true", help="remove the drain mark (no restart after all)")

    def handle(self, *args: Any, cancel: bool = False, **options: Any) -> None:
        if cancel:
            started = drain_started()
            drain_end()
            self.stdout.write(
                f"drain: cancelled (was draining since {started.isoformat()})" if started else "drain: was not draining"
            )
            return
        started = drain_begin()
        self.stdout.write(
            f"drain: draining since {started.isoformat()}; stop the processes (SIGTERM) now, "
            "then deploy, migrate, run extend_deadlines and start them again"
        )
