"""Deleting guests nobody will come back as (beat, hourly): a guest account
with no match for GUEST_STALE_DAYS days goes, with its unfinished matches."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.models import Match

from .creating import matches_delete_unfinished_of


def guests_delete_stale(*, now: datetime | None = None, days: int | None = None, batch: int = 500) -> int:
    """Delete guests with no match for ``days`` (GUEST_STALE_DAYS) days; returns how many.

    Kept: a guest with a finished match, so that its records (/partia/<id>/zapis/,
    profiles of its opponents) stay readable under its name; its session simply
    expires. Deleted with the guest: its matches, all aborted or abandoned
    (never a result), with their moves. A guest joined within ``days`` is kept.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.GUEST_STALE_DAYS if days is None else days)
    of_user = Q(pink=OuterRef("pk")) | Q(blue=OuterRef("pk"))
    recent = Match.objects.filter(of_user).filter(
        Q(created_at__gte=cutoff) | Q(last_move_at__gte=cutoff) | Q(finished_at__gte=cutoff) | Q(status="active")
    )
    finished = Match.objects.filter(of_user, status=Match.Status.FINISHED)
    stale = (
        User.objects.filter(is_guest=True, date_joined__lt=cutoff)
        .filter(~Exists(recent), ~Exists(finished))
        .values_list("pk", flat=True)
    )
    deleted = 0
    while True:
        ids = list(stale[:batch])
        if not ids:
            return deleted
        with transaction.atomic():
            # Match.pink/blue are PROTECT: the matches go first (their moves cascade).
            matches_delete_unfinished_of(user_ids=ids)
            deleted += User.objects.filter(pk__in=ids, is_guest=True).delete()[1].get(User._meta.label, 0)
