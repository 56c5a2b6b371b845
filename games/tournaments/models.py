"""The arenas' rows: the schedule beat makes them from, the arenas, their players' lines.

App label ``games`` (their tables and migrations stay the app's); ``games.apps.GamesConfig``
loads this module, so the core's ``games.models`` need not import the feature.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.catalogue import variant_choices
from games.models import Match


class TournamentSchedule(models.Model):
    """A row of the schedule from which beat makes tournaments (docs/tournaments.md),
    editable in the admin. ``variant`` empty: the variants in turn, one per occurrence."""

    class Every(models.TextChoices):
        HOUR = "hour", _("every hour")
        DAY = "day", _("every day")
        WEEK = "week", _("every week")

    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=32, choices=variant_choices, blank=True)
    every = models.CharField(max_length=8, choices=Every.choices)
    minute = models.PositiveSmallIntegerField(default=0)  # of the hour (local time)
    hour = models.PositiveSmallIntegerField(default=20)  # daily and weekly (local time)
    weekday = models.PositiveSmallIntegerField(default=6)  # weekly: 0 Monday … 6 Sunday
    minutes = models.PositiveSmallIntegerField(default=60)  # the duration
    move_seconds = models.PositiveSmallIntegerField(default=60)
    rated = models.BooleanField(default=True)
    active = models.BooleanField(default=True)

    class Meta:
        app_label = "games"

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """An arena (docs/tournaments.md). Only ``games/tournaments/services.py`` and
    ``games/tournaments/scoring.py`` write these rows and their players."""

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("upcoming")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=32, choices=variant_choices)
    params = models.JSONField(default=dict, blank=True)  # the games' own settings (Match.params), casual only
    told_soon = models.BooleanField(default=False)  # its players heard it starts soon (games/notifications)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    minutes = models.PositiveSmallIntegerField()
    move_seconds = models.PositiveSmallIntegerField(default=60)
    rated = models.BooleanField(default=True)
    public = models.BooleanField(default=True)  # else reached only by its link (``token``)
    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    schedule = models.ForeignKey(TournamentSchedule, null=True, blank=True, on_delete=models.SET_NULL)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.UPCOMING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering: ClassVar[list[str]] = ["starts_at", "pk"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["schedule", "starts_at"], name="tournament_one_per_schedule_start"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["status", "starts_at"], name="tournament_status_start"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.variant}, {self.starts_at:%Y-%m-%d %H:%M})"


class TournamentPlayer(models.Model):
    """One player's line in a tournament: points, the streak, the games' results."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    rating = models.FloatField()  # the player's rating in the variant when they joined
    points = models.IntegerField(default=0)
    wins_in_row = models.PositiveSmallIntegerField(default=0)  # 2 or more: on a streak (the flame)
    games = models.PositiveSmallIntegerField(default=0)
    performance = models.FloatField(default=0.0)  # the tie-break (docs/tournaments.md)
    performance_sum = models.FloatField(default=0.0)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    paused = models.BooleanField(default=False)
    # Each game: {"m": match id, "r": "w"/"d"/"l", "p": points, "f": counted double, "b": berserk}.
    results = models.JSONField(default=list)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The player opened ``match``'s socket (issue 38): a game they never saw is not their timeout.
    match_seen = models.BooleanField(default=False)
    last_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rank = models.PositiveIntegerField(null=True, blank=True)  # the final place, set when it ends
    joined_at = models.DateTimeField()

    class Meta:
        app_label = "games"
        ordering: ClassVar[list[str]] = ["-points", "-performance", "joined_at", "pk"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_player_once"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["tournament", "-points", "-performance"], name="tournament_standings"),
            models.Index(fields=["user", "rank"], name="tournament_player_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in tournament {self.tournament_id}: {self.points}"

    @property
    def on_fire(self) -> bool:
        return self.wins_in_row >= 2
