"""Correspondence games (SPEC.md "Correspondence, notifications, following"): days a move, the
same match page, clock (``Match.turn_deadline``, swept as every turn is) and services as a live
game. What is theirs alone: the player to move hears it is their turn (the list, and an e-mail
at most once per game every few hours: games/notifications), and hears again when little of
the turn is left (``remind_due``, on beat). docs/protocol.md "Correspondence"."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import catalogue, hooks
from games.models import Match


def _marked(ids: Iterable[int], field: str) -> Iterator[Match]:
    """Each match of ``ids`` still waiting for a move whose ``field`` (``told_ply``,
    ``reminded_ply``) is behind its ply, locked and marked at its ply: once a turn, however many
    sweeps run. The caller's notice runs while the lock is held, in the same transaction."""
    for match_id in ids:
        with transaction.atomic():
            match = (
                Match.objects.select_for_update()
                .filter(pk=match_id, status=Match.Status.ACTIVE, to_move__isnull=False)
                .first()
            )
            if match is None or getattr(match, field) == match.ply:
                continue
            setattr(match, field, match.ply)
            match.save(update_fields=[field])
            yield match


def turns_due(*, limit: int = 500) -> int:
    """Beat's sweep (every CORRESPONDENCE_TURN_SECONDS): the player to move in each correspondence
    game that moved on since its last notice hears it is their turn (``Match.told_ply``). The
    rows are the outbox: a move does nothing more than a live one (bench/live.py --days), and a
    notice is never lost to a broker down. How many heard."""
    due = (
        Match.objects.filter(status=Match.Status.ACTIVE, days__isnull=False, to_move__isnull=False)
        .exclude(told_ply=F("ply"))
        .values_list("pk", flat=True)[:limit]
    )
    return sum(tell_turn(match) for match in _marked(list(due), "told_ply"))


def tell_turn(match: Match) -> bool:
    """The player to move of a correspondence ``match`` hears it is their turn (the list; an
    e-mail at most once per game in NOTIFY_MAIL_GAP_HOURS); in the caller's transaction."""
    assert match.to_move is not None
    to_move = match.user_id_of(match.to_move)
    mover = match.user_id_of(3 - match.to_move)
    if to_move is None or mover is None:
        return False
    name = User.objects.filter(pk=mover).values_list("username", flat=True).first() or ""
    hooks.notice(
        [to_move],
        "corr_turn",
        {"name": name, "variant": match.variant, "match": match.pk},
        key=f"turn:{match.pk}:{match.ply}",
    )
    return True


def remind_due(*, now: datetime | None = None, limit: int = 500) -> int:
    """Beat's sweep: the player to move in each correspondence game with less than
    CORRESPONDENCE_REMIND_FRACTION of the turn left hears it, once a turn. How many heard."""
    now = now or timezone.now()
    told = 0
    fraction = settings.CORRESPONDENCE_REMIND_FRACTION
    for days in catalogue.CORRESPONDENCE_DAYS:  # one indexed query per pace
        due = (
            Match.objects.filter(
                status=Match.Status.ACTIVE,
                days=days,
                turn_deadline__gt=now,
                turn_deadline__lte=now + timedelta(days=days * fraction),
            )
            .exclude(reminded_ply=F("ply"))
            .order_by("turn_deadline")
            .values_list("pk", flat=True)[:limit]
        )
        for match in _marked(list(due), "reminded_ply"):
            assert match.to_move is not None and match.turn_deadline is not None  # _marked's filter, a deadline
            player = match.user_id_of(match.to_move)
            if player is not None:
                hooks.notice(
                    [player],
                    "corr_reminder",
                    {"variant": match.variant, "match": match.pk, "deadline": match.turn_deadline.isoformat()},
                    key=f"remind:{match.pk}:{match.ply}",
                )
                told += 1
    return told
