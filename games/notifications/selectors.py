"""Every read of notifications: a player's list, their choices, their part of "Download my data"."""

from __future__ import annotations

from typing import Any

from django.db.models import IntegerField, OuterRef, Subquery

from accounts.models import User

from . import kinds
from .models import Notification, NotificationPrefs, PushSubscription

LIST_LENGTH = 50
UNREAD_SHOWN = 100  # the header's count says "99+" from here on: counting further is wasted


def latest(user_id: int) -> list[Notification]:
    """The player's newest lines of the list."""
    return list(Notification.objects.filter(user_id=user_id, shown=True).order_by("-created_at", "-id")[:LIST_LENGTH])


class _CountOf(Subquery):
    """The number of rows a (limited) subquery gives."""

    template = "(SELECT COUNT(*) FROM (%(subquery)s) _rows)"
    output_field = IntegerField()


def unread_counts(user_ids: list[int]) -> dict[int, int]:
    """Each player's unread lines, counted up to ``UNREAD_SHOWN`` (the header says
    "99+"): one query, each player's count stopping there, so a player told hundreds of times
    costs no more than one told a hundred (it counted every unread row of theirs on every new
    one: docs/performance.md "The unread count")."""
    first = (
        Notification.objects.filter(user_id=OuterRef("pk"), shown=True, read_at__isnull=True)
        .order_by()
        .values("pk")[:UNREAD_SHOWN]
    )
    rows = User.objects.filter(pk__in=user_ids).annotate(n=_CountOf(first)).values_list("pk", "n")
    return {pk: n for pk, n in rows if n}


def unread_count(user_id: int) -> int:
    """The player's unread lines, up to ``UNREAD_SHOWN``."""
    return unread_counts([user_id]).get(user_id, 0)


def welcome_frames(user_id: int) -> list[dict[str, Any]]:
    """What a new site socket hears of notifications: the unread count, when not 0."""
    unread = unread_count(user_id)
    return [{"type": "notification", "unread": unread}] if unread else []


def choices(user_id: int) -> list[dict[str, Any]]:
    """The settings page's lines: each kind, on the list and by e-mail (None: never mailed)."""
    prefs = NotificationPrefs.objects.filter(user_id=user_id).first()
    site = prefs.site if prefs else {}
    mail = prefs.mail if prefs else {}
    push = prefs.push if prefs else {}
    return [
        {
            "kind": key,
            "label": kind.label,
            "site": kinds.wants(key, "site", site),
            "mail": None if kind.mail is None else kinds.wants(key, "mail", mail),
            "push": None if kind.mail is None else kinds.wants(key, "push", push),
        }
        for key, kind in kinds.KINDS.items()
    ]


def push_devices(user_id: int) -> int:
    """How many browsers of the player have Web Push on."""
    return PushSubscription.objects.filter(user_id=user_id).count()


def account_part(user: User) -> dict[str, Any]:
    """The part of "Download my data": the notifications kept, the choices made, the browsers
    with Web Push."""
    prefs = NotificationPrefs.objects.filter(user=user).first()
    return {
        "settings": {"site": prefs.site, "mail": prefs.mail, "push": prefs.push} if prefs else None,
        "push_subscriptions": [
            {"endpoint": s.endpoint, "created_at": s.created_at.isoformat()}
            for s in PushSubscription.objects.filter(user=user).order_by("id")
        ],
        "notifications": [
            {
                "kind": n.kind,
                "data": n.data,
                "created_at": n.created_at.isoformat(),
                "read_at": n.read_at.isoformat() if n.read_at else None,
                "shown": n.shown,
                "mail": n.mail,
            }
            for n in Notification.objects.filter(user=user).order_by("id")
        ],
    }
