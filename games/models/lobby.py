"""The ways to a match: challenges (by link, in the lobby, to a named player) and the ranked queue."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import catalogue
from games.catalogue import variant_choices

from .match import Match


class Challenge(models.Model):
    """An invitation by link. Two kinds, chosen at creation: a private link (``listed``
    false, the default: only whoever is given the link sees it) or an open challenge
    listed in the lobby. Open for ``CHALLENGE_TTL_MINUTES`` after its creation, then
    expired: no longer listed or acceptable (its status stays ``open``)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACCEPTED = "accepted", _("accepted")
        CANCELLED = "cancelled", _("cancelled")
        DECLINED = "declined", _("declined")

    class Colour(models.TextChoices):  # the creator's colour
        RANDOM = "random", _("random")
        PINK = "pink", _("pink")
        BLUE = "blue", _("blue")

    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges")
    variant = models.CharField(max_length=32, choices=variant_choices)
    params = models.JSONField(default=dict, blank=True)  # the options chosen (Match.params)
    days = models.PositiveSmallIntegerField(null=True, blank=True)  # correspondence: days a move (Match.days)
    rated = models.BooleanField(default=False)
    listed = models.BooleanField(default=False)  # an open challenge in the lobby, not a private link
    # A direct challenge to one named player (notified live; docs/social.md), else null.
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="challenges_received"
    )
    colour = models.CharField(max_length=8, choices=Colour.choices, default=Colour.RANDOM)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at"]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["status", "listed", "created_at"], name="challenge_lobby")
        ]

    def __str__(self) -> str:
        return f"Challenge {self.token} ({self.variant})"

    @property
    def options_words(self) -> list[tuple[str, str]]:
        """(label, words) of the game's own settings (``catalogue.options_words``), [] for none."""
        return catalogue.options_words(self.variant, self.params)

    @staticmethod
    def ttl() -> timedelta:
        return timedelta(minutes=settings.CHALLENGE_TTL_MINUTES)

    @classmethod
    def open_q(cls, now: datetime | None = None) -> models.Q:
        """Open and not expired."""
        return models.Q(status=cls.Status.OPEN, created_at__gt=(now or timezone.now()) - cls.ttl())

    @property
    def expires_at(self) -> datetime:
        return self.created_at + self.ttl()

    @property
    def is_expired(self) -> bool:
        return self.status == self.Status.OPEN and timezone.now() >= self.expires_at


class Seek(models.Model):
    """A player waiting in the ranked queue of one variant ("Graj teraz").

    Only ``games/play/matchmaking.py`` creates or changes these rows. ``rating`` is
    the player's rating when they joined, so pairing needs no join.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("czeka")
        MATCHED = "matched", _("sparowany")
        CANCELLED = "cancelled", _("anulowany")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    variant = models.CharField(max_length=32, choices=variant_choices)
    rating = models.FloatField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering: ClassVar[list[str]] = ["created_at"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # One entry per player and variant in the queue.
            models.UniqueConstraint(
                fields=["user", "variant"], condition=Q(status="waiting"), name="seek_one_per_player_variant"
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["status", "variant", "created_at"], name="seek_queue")
        ]

    def __str__(self) -> str:
        return f"Seek {self.user_id} {self.variant} ({self.status})"
