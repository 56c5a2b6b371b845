"""The stored review of a finished match: the games app's model, kept in the review's folder.

Django registers it when the feature registers (``games/review/feature.py``, called by
``games.apps``); its table and migrations are the games app's
(games/migrations/0009_analysis.py). The match is named by its label, not imported:
this module imports nothing of the games app.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Analysis(models.Model):
    """The computer's review of a finished match (games/review/services.py): asked once, kept.

    One row per match and engine version: asking again for a match whose review is done
    (or queued) gets the same row; a new ``version`` (the reviewer's figures changed)
    makes a new one. ``result`` is ``games.bots.review.analyse``'s dictionary."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="analyses")
    version = models.CharField(max_length=64)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)  # positions evaluated so far
    total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"  # a model of the games app (its migrations), kept in the feature's folder
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["match", "version"], name="one_analysis_per_match_version"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["status", "requested_at"], name="analysis_queue"),
            models.Index(fields=["requested_by", "requested_at"], name="analysis_by_user"),
        ]

    def __str__(self) -> str:
        return f"analysis {self.pk} of match {self.match_id} ({self.status})"
