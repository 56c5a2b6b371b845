"""Blocking another player (docs/social.md): a block stops the blocked player's
challenges and chat towards the blocker, and keeps the two apart in the ranked
queue for BLOCK_QUEUE_HOURS after it was made."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from .models import Block, User


def block_create(*, blocker: User, blocked: User) -> Block:
    """``blocker`` blocks ``blocked`` (idempotent); a user cannot block themself."""
    if blocker.pk == blocked.pk:
        raise ValueError("a user cannot block themself")
    try:
        with transaction.atomic():
            return Block.objects.create(blocker=blocker, blocked=blocked)
    except IntegrityError:
        return Block.objects.get(blocker=blocker, blocked=blocked)


def block_delete(*, blocker: User, blocked_id: int) -> bool:
    """Lift the block; True if there was one."""
    return Block.objects.filter(blocker=blocker, blocked_id=blocked_id).delete()[0] > 0


def has_blocked(blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id`` (one way)."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_either_way(a_id: int, b_id: int) -> bool:
    """Whether either of the two blocked the other."""
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def queue_apart_pairs(user_ids: list[int], now: datetime | None = None) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` the ranked queue must not pair: a block made
    within BLOCK_QUEUE_HOURS, either way."""
    since = (now or timezone.now()) - timedelta(hours=settings.BLOCK_QUEUE_HOURS)
    rows = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids, created_at__gte=since)
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}
