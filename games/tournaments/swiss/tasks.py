"""The Swiss tournaments' Celery task: beat's tick (kropki_site/settings.py), a thin call into the
services. Imported by the arenas' feature.register(), so Celery knows it."""

from __future__ import annotations

from celery import shared_task

from games import tasknames

from .services import swiss_tick


@shared_task(name=tasknames.SWISS_TICK, ignore_result=True)  # type: ignore[untyped-decorator]
def tick_swiss() -> int:
    """Start the Swiss tournaments whose time came, pair their next rounds, end them (beat: every 2 s)."""
    return swiss_tick()
