"""The clock's task sent by hand, and every way of ending a turn tried again: the fault tests'
calls (tests/faults/test_redelivery.py, tests/faults/test_worker_kill.py; tests/sitecalls/__init__.py)."""

from __future__ import annotations

from typing import Any

from games import play as services
from games import tasks
from games.models import Match
from games.play import core

__all__ = ["clock_sweeps_held", "match_ended_again"]


def clock_sweeps_held(*, match_id: int) -> dict[str, Any]:
    """Two sweeps of the clock published now, each held until the match's turn deadline + grace:
    ``{"held": [their task ids]}``."""
    m = Match.objects.get(pk=match_id)
    assert m.turn_deadline is not None, m
    due = m.turn_deadline + core.grace()
    return {"held": [tasks.sweep_expired_turns.apply_async(eta=due).id for _ in range(2)]}


def match_ended_again(*, match_id: int, ply: int) -> dict[str, Any]:
    """A sweep sent again (``sent``: its task id), then the match's turn expired again, by ply and
    without, and a sweep run here: ``{"again": [expired, expired at ply, swept], "sent": id}``."""
    m = Match.objects.get(pk=match_id)
    sent = tasks.sweep_expired_turns.apply_async().id  # a clock task delivered again
    again = [
        services.match_expire_turn(match_id=m.pk),
        services.match_expire_turn(match_id=m.pk, ply=ply),
        services.sweep_expired(),
    ]
    return {"again": again, "sent": sent}
