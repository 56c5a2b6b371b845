"""The feature's one row: who follows whom."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User


class Follow(models.Model):
    """``follower`` follows ``followed`` (one way: the followed player is not asked)."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "games"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["followed", "created_at"], name="follow_followed_idx")
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} -> {self.followed_id}"
