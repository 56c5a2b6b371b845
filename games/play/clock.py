"""THE clock: the sweep that ends every overdue turn (beat, every second, and
``manage.py sweep_turns --loop``), and moving every deadline for a planned restart."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Match

from . import botqueue, core, publisher
from .moves import match_expire_turn

# A computer move this late is re-enqueued. The rescue runs at most every
# BOT_RESCUE_SECONDS per process, not at every one-second sweep: each copy may
# cost a full computation when the bots queue is backed up.
BOT_RESCUE_AFTER = timedelta(seconds=15)
BOT_RESCUE_SECONDS = 5.0
_bot_rescue_due = 0.0  # time.monotonic() of this process's next rescue


def sweep_expired(*, now: datetime | None = None, limit: int = 200) -> int:
    """THE clock: end every active match whose deadline plus grace has passed,
    and re-enqueue computer moves that never came. Returns how many it ended.

    Called every second by beat's ``sweep_expired_turns`` task and by
    ``manage.py sweep_turns --loop`` (no broker). Both may run at once: each
    match is re-checked under its row lock (``match_expire_turn``).
    """
    global _bot_rescue_due
    now = now or timezone.now()
    overdue = list(
        Match.objects.filter(status=Match.Status.ACTIVE, turn_deadline__lte=now - core.grace())
        .order_by("turn_deadline")
        .values_list("pk", flat=True)[:limit]
    )
    done = sum(1 for match_id in overdue if match_expire_turn(match_id=match_id, now=now))
    if time.monotonic() >= _bot_rescue_due:
        _bot_rescue_due = time.monotonic() + BOT_RESCUE_SECONDS
        late = now - BOT_RESCUE_AFTER
        # (no move yet: the computer opens, and its first move is late since creation)
        rescued = (
            Match.objects.filter(
                Q(last_move_at__lte=late) | Q(last_move_at__isnull=True, created_at__lte=late),
                status=Match.Status.ACTIVE,
                turn_deadline__isnull=True,
                to_move__isnull=False,
            )
            .exclude(bot_level="")
            .values_list("pk", "ply", "pink_id", "blue_id")[:limit]
        )
        # A job still waiting in the fair queue is not queued again (no duplicates: a
        # busy queue is slow, not lost); one lost with its token or its worker is.
        # One bare token then wakes a free process, should every token have been lost.
        for match_id, ply, pink_id, blue_id in rescued:
            core.enqueue_bot(match_id, ply, pink_id or blue_id or 0)
        if rescued:
            publisher.call(botqueue.kick)
    return done


def matches_extend_deadlines(*, by: timedelta, live_at: datetime | None = None) -> int:
    """Push every active match's turn deadline forward by ``by`` (a planned
    restart's downtime, docs/deploy.md "Planned restart"), in one transaction.

    ``live_at``: only turns that had not expired at that moment (deadline +
    grace after it), e.g. the drain's start; a turn already overdue then is
    left to the sweeper. Nothing needs re-arming: the sweeps read the new
    deadline from the row. After commit each match's sockets hear the new
    deadline. Returns how many matches were extended.
    """
    if by <= timedelta(0):
        return 0
    with transaction.atomic():
        matches = Match.objects.select_for_update().filter(status=Match.Status.ACTIVE, turn_deadline__isnull=False)
        if live_at is not None:
            matches = matches.filter(turn_deadline__gt=live_at - core.grace())
        extended = list(matches.order_by("pk"))
        for match in extended:
            assert match.turn_deadline is not None  # the query wants a deadline
            match.turn_deadline += by
            match.save(update_fields=["turn_deadline"])
            core.broadcast_on_commit(match, "clock")
    return len(extended)
