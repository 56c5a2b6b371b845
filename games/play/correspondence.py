"""Correspondence games (SPEC.md "Correspondence, notifications, following"): days a move, the
same match page, clock (``Match.turn_deadline``, swept as every turn is) and services as a live
game. What is theirs alone: the player to move hears it is their turn (the list, and an e-mail
at most once per game every few hours: games/notifications), and hears again when little of
the turn is left (``remind_due``, on beat). docs/protocol.md "Correspondence"."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from accounts.models import User
from games import catalogue, hooks
from games.models import Match


def _marked(due: QuerySet[Match], field: str, limit: int) -> list[Match]:
    """Up to ``limit`` matches of ``due`` still waiting for a move whose ``field`` (``told_ply``,
    ``reminded_ply``) is behind its ply, locked (one being moved now is left to the next sweep)
    and marked at its ply: once a turn, however many sweeps run. The caller tells them in the
    same transaction, while the locks are held: one batch, a few statements for all (they were
    a transaction and seven statements a game: docs/performance.md)."""
    matches = list(
        due.filter(status=Match.Status.ACTIVE, to_move__isnull=False)
        .exclude(**{field: F("ply")})
        .select_for_update(skip_locked=True)[:limit]
    )
    if matches:
        Match.objects.filter(pk__in=[m.pk for m in matches]).update(**{field: F("ply")})
    return matches


def turns_due(*, limit: int = 500) -> int:
    """Beat's sweep (every CORRESPONDENCE_TURN_SECONDS): the player to move in each correspondence
    game that moved on since its last notice hears it is their turn (``Match.told_ply``). The
    rows are the outbox: a move does nothing more than a live one (bench/live.py --days), and a
    notice is never lost to a broker down. How many heard."""
    with transaction.atomic():
        matches = _marked(Match.objects.filter(days__isnull=False).order_by("pk"), "told_ply", limit)
        pairs: list[tuple[Match, int, int]] = []
        for m in matches:
            assert m.to_move is not None  # _marked's filter
            to_move, mover = m.user_id_of(m.to_move), m.user_id_of(3 - m.to_move)
            if to_move is not None and mover is not None:
                pairs.append((m, to_move, mover))
        names = dict(User.objects.filter(pk__in={mover for _, _, mover in pairs}).values_list("pk", "username"))
        hooks.notices(
            [
                hooks.Notice(
                    [to_move],
                    "corr_turn",
                    {"name": names.get(mover, ""), "variant": m.variant, "match": m.pk},
                    key=f"turn:{m.pk}:{m.ply}",
                )
                for m, to_move, mover in pairs
            ]
        )
    return len(pairs)


def remind_due(*, now: datetime | None = None, limit: int = 500) -> int:
    """Beat's sweep: the player to move in each correspondence game with less than
    CORRESPONDENCE_REMIND_FRACTION of the turn left hears it, once a turn; up to ``limit`` games
    a sweep, whatever their pace (the rest go in the next). How many heard."""
    now = now or timezone.now()
    fraction = settings.CORRESPONDENCE_REMIND_FRACTION
    told: list[hooks.Notice] = []
    with transaction.atomic():
        for days in catalogue.CORRESPONDENCE_DAYS:  # one indexed query per pace
            if len(told) >= limit:
                break
            due = Match.objects.filter(
                days=days, turn_deadline__gt=now, turn_deadline__lte=now + timedelta(days=days * fraction)
            ).order_by("turn_deadline")
            for match in _marked(due, "reminded_ply", limit - len(told)):
                assert match.to_move is not None and match.turn_deadline is not None  # _marked's filter, a deadline
                player = match.user_id_of(match.to_move)
                if player is not None:
                    told.append(
                        hooks.Notice(
                            [player],
                            "corr_reminder",
                            {"variant": match.variant, "match": match.pk, "deadline": match.turn_deadline.isoformat()},
                            key=f"remind:{match.pk}:{match.ply}",
                        )
                    )
        hooks.notices(told)
    return len(told)
