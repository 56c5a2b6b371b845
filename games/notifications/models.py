"""The feature's rows: each notification, and each player's choices."""

from __future__ import annotations

from datetime import timedelta
from typing import ClassVar

from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User


class Notification(models.Model):
    """One thing ``user`` was told of: ``kind`` (``kinds.KINDS``) and its facts ``data``."""

    class Mail(models.TextChoices):
        NONE = "", "none"  # not to be mailed
        PENDING = "pending", "pending"  # the sweep sends it
        SENDING = "sending", "sending"  # a sweep took it
        SENT = "sent", "sent"
        FAILED = "failed", "failed"  # the server refused it for good

    # No index of its own: notification_user_idx and notification_key_once begin with it.
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications", db_index=False)
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    # The same key reaches a player once ("arena:12": an arena about to start); "" for none.
    key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    shown = models.BooleanField(default=True)  # in the header's list (False: by e-mail only)
    mail = models.CharField(max_length=8, choices=Mail.choices, blank=True, default=Mail.NONE)
    # SENDING: when a sweep took it (a claim older than NOTIFY_CLAIM_SECONDS is taken again); SENT: when sent
    mailed_at = models.DateTimeField(null=True, blank=True)
    # Web Push to the player's browsers: the same states as ``mail`` (push.py sends it), and its time
    push = models.CharField(max_length=8, choices=Mail.choices, blank=True, default=Mail.NONE)
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "key"], condition=~Q(key=""), name="notification_key_once")
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "-created_at"], name="notification_user_idx"),
            # the header's count (selectors.unread_counts): a player's unread lines and nothing else
            models.Index(
                fields=["user"], condition=Q(shown=True, read_at__isnull=True), name="notification_unread_idx"
            ),
            models.Index(fields=["mail", "id"], name="notification_mail_idx"),
            models.Index(fields=["push", "id"], name="notification_push_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"

    @classmethod
    def take(cls, channel: str, limit: int, *, stale: timedelta) -> list[Notification]:
        """Take up to ``limit`` rows waiting on ``channel`` ("mail", "push"), oldest first, for one
        sweep, in one UPDATE whatever ``limit``: the pending ones, and the ones a sweep took more
        than ``stale`` ago and never settled (it died mid-batch: they are sent again, so a row is
        sent at least once, never lost). The claim is guarded by the state read, so two sweeps
        never both take a row; the rows taken are told apart by the claim's time, kept in the
        channel's time column. The rows taken, with their players."""
        now = timezone.now()
        at = _AT[channel]
        waiting = Q(**{channel: cls.Mail.PENDING}) | Q(**{channel: cls.Mail.SENDING, f"{at}__lt": now - stale})
        ids = list(cls.objects.filter(waiting).order_by("id").values_list("pk", flat=True)[:limit])
        if not ids:
            return []
        if not cls.objects.filter(waiting, pk__in=ids).update(**{channel: cls.Mail.SENDING, at: now}):
            return []  # another sweep took them first
        taken = cls.objects.filter(pk__in=ids, **{channel: cls.Mail.SENDING, at: now})
        return list(taken.select_related("user").order_by("id"))

    @classmethod
    def settle(cls, channel: str, outcome: dict[str, list[int]], taken: list[Notification]) -> None:
        """A sweep's rows ``taken`` leave SENDING: ``outcome`` maps a state to the ids that end
        there; the rest of ``taken`` (the sweep stopped: a server down, an error) are pending
        again. Only rows still under this sweep's claim change (a claim that ran out may be another
        sweep's now). One transaction, at most one UPDATE a state whatever the batch; SENT stamps
        the time sent."""
        if not taken:
            return
        now = timezone.now()
        at = _AT[channel]
        mine = {channel: cls.Mail.SENDING, at: getattr(taken[0], at)}  # not a later sweep's claim
        ended = {pk for ids in outcome.values() for pk in ids}
        rest = [row.pk for row in taken if row.pk not in ended]
        outcome = {**outcome, cls.Mail.PENDING: [*outcome.get(cls.Mail.PENDING, []), *rest]}
        with transaction.atomic():
            for state, ids in outcome.items():
                if ids:
                    stamp = {at: now} if state == cls.Mail.SENT else {}
                    cls.objects.filter(pk__in=ids, **mine).update(**{channel: state}, **stamp)


# Each channel's time column: the claim's time while SENDING, the time sent once SENT.
_AT = {"mail": "mailed_at", "push": "pushed_at"}


class PendingNotice(models.Model):
    """A notice told and not yet delivered: the outbox. ``services.notify_many`` writes one a
    notice in the caller's transaction (one insert, whatever the players); beat's delivery
    (``services.deliver_paced``, the notify worker) turns them into each player's rows, oldest
    first (by id), in small steps, and deletes them. So a burst of notices costs its callers an
    insert each and reaches the database's rows at a steady pace beside the moves
    (docs/performance.md, "Notices through an outbox")."""

    user_ids = models.JSONField(default=list)
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    key = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        app_label = "games"

    def __str__(self) -> str:
        return f"{self.kind} for {len(self.user_ids)} players"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (its push service's ``endpoint`` and the keys that
    encrypt for it), made on the settings page with the player's consent."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "games"

    def __str__(self) -> str:
        return f"push subscription of {self.user_id}"


class NotificationPrefs(models.Model):
    """A player's choice of what reaches them where: ``site`` and ``mail``, kind -> on/off; a kind
    missing is its default (``kinds.KINDS``)."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, primary_key=True, related_name="notification_prefs")
    site = models.JSONField(default=dict)
    mail = models.JSONField(default=dict)
    push = models.JSONField(default=dict)

    class Meta:
        app_label = "games"

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"
