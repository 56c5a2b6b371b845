"""What players write: a match's chat lines and the reports staff read."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .match import Match


class ChatMessage(models.Model):
    """One line of a match's chat: the players' room or the spectators' room
    (kept apart, as lichess does). Kept with the match; shown on its record."""

    class Room(models.TextChoices):
        PLAYERS = "players", _("players")
        SPECTATORS = "spectators", _("spectators")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    room = models.CharField(max_length=16, choices=Room.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=140)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["created_at", "pk"]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["match", "room", "created_at"], name="chat_room")]

    def __str__(self) -> str:
        return f"{self.author_id}@{self.match_id}/{self.room}: {self.text[:20]}"


class Report(models.Model):
    """A report of a chat message or of a player, for staff (Django admin), with
    the match and what was said around it when it was made."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=500, blank=True)
    context = models.JSONField(default=list, blank=True)  # the chat lines around the message, as they were
    created_at = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(default=False)

    class Meta:
        ordering: ClassVar[list[str]] = ["handled", "-created_at"]

    def __str__(self) -> str:
        return f"report {self.pk}: {self.reported_id} by {self.reporter_id}"
