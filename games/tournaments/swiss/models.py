"""Swiss tournaments' rows (docs/tournaments.md "Swiss"): the tournament, its players, its boards.

App label ``games``; loaded by the arenas' ``feature.register`` (games/tournaments/feature.py).
Only ``games/tournaments/swiss/services.py`` writes them. Scores are in half points (a win 2,
a draw 1) so that no sum is a float.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.catalogue import variant_choices
from games.models import Match


class SwissTournament(models.Model):
    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("upcoming")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=32, choices=variant_choices)
    params = models.JSONField(default=dict, blank=True)  # the games' own settings (Match.params), casual only
    told_soon = models.BooleanField(default=False)  # its players heard it starts soon (games/notifications)
    rounds = models.PositiveSmallIntegerField(default=5)
    starts_at = models.DateTimeField()  # round 1 is paired then (beat's tick)
    move_seconds = models.PositiveSmallIntegerField(default=60)
    pause_seconds = models.PositiveSmallIntegerField(default=30)  # between a round's end and the next
    rated = models.BooleanField(default=True)
    public = models.BooleanField(default=True)
    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.UPCOMING)
    current_round = models.PositiveSmallIntegerField(default=0)  # 0: not started
    next_round_at = models.DateTimeField(null=True, blank=True)  # the countdown to the next round
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering: ClassVar[list[str]] = ["starts_at", "pk"]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["status", "starts_at"], name="swiss_status_start"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.variant}, {self.rounds} rounds)"


class SwissPlayer(models.Model):
    tournament = models.ForeignKey(SwissTournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="swiss_entries")
    rating = models.FloatField()  # in the variant, at joining: the ranking's second key
    number = models.PositiveIntegerField()  # joining order: its last key
    withdrawn = models.BooleanField(default=False)
    no_shows_in_row = models.PositiveSmallIntegerField(default=0)
    # The standings, recomputed from the boards after each result (services.standings_write).
    score = models.PositiveSmallIntegerField(default=0)  # half points
    sonneborn_berger = models.PositiveIntegerField(default=0)  # quarter points (half × half)
    buchholz = models.PositiveIntegerField(default=0)  # half points
    rank = models.PositiveIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField()

    class Meta:
        app_label = "games"
        ordering: ClassVar[list[str]] = ["-score", "-sonneborn_berger", "-buchholz", "number"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["tournament", "user"], name="swiss_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in Swiss {self.tournament_id}"


class SwissBoard(models.Model):
    """One board of a round: two players and their match, or a bye (``blue`` empty). The
    result in half points per side, ``None`` while the game runs."""

    class Kind(models.TextChoices):
        GAME = "game", _("game")
        BYE = "bye", _("bye")
        FORFEIT = "forfeit", _("forfeit")  # unplayed: a no-show, or a game over before two moves each

    tournament = models.ForeignKey(SwissTournament, on_delete=models.CASCADE, related_name="boards")
    round = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    pink = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blue = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="swiss_board")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.GAME)
    pink_points = models.PositiveSmallIntegerField(null=True, blank=True)
    blue_points = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        app_label = "games"
        ordering: ClassVar[list[str]] = ["round", "board"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["tournament", "round", "board"], name="swiss_board_once"),
        ]

    def __str__(self) -> str:
        return f"Swiss {self.tournament_id} round {self.round} board {self.board}"

    @property
    def done(self) -> bool:
        return self.pink_points is not None
