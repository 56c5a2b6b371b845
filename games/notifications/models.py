"""The feature's rows: each notification, and each player's choices."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
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

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    # The same key reaches a player once ("arena:12": an arena about to start); "" for none.
    key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    shown = models.BooleanField(default=True)  # in the header's list (False: by e-mail only)
    mail = models.CharField(max_length=8, choices=Mail.choices, blank=True, default=Mail.NONE)
    mailed_at = models.DateTimeField(null=True, blank=True)
    # Web Push to the player's browsers: the same states as ``mail`` (push.py sends it)
    push = models.CharField(max_length=8, choices=Mail.choices, blank=True, default=Mail.NONE)

    class Meta:
        app_label = "games"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "key"], condition=~Q(key=""), name="notification_key_once")
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "-created_at"], name="notification_user_idx"),
            models.Index(fields=["mail", "id"], name="notification_mail_idx"),
            models.Index(fields=["push", "id"], name="notification_push_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"

    @classmethod
    def claim(cls, pk: int, channel: str) -> bool:
        """Take row ``pk``'s pending ``channel`` ("mail", "push") for one sweep: whether this one got it."""
        return bool(cls.objects.filter(pk=pk, **{channel: cls.Mail.PENDING}).update(**{channel: cls.Mail.SENDING}))


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
