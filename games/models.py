"""Matches, their moves and challenges.

The Move rows are the truth of a match; ``Match.history`` is a cache of their
actions (a test checks it equals the rows) so that a state needs no join.
Only ``games/play/`` creates or changes these rows. ``variant`` is a key of
the game catalogue (``games/catalogue/``): the services refuse any other, and
the database does not list them, so a game joins without a migration.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.catalogue import variant_choices
from games.review.models import Analysis as Analysis  # the review's model (games/review/): registered here

PINK, BLUE = 1, 2
COLOUR_NAMES = {PINK: _("pink"), BLUE: _("blue")}

BOT_LEVEL_CHOICES = [("latwy", _("easy")), ("sredni", _("medium")), ("trudny", _("hard"))]


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("in progress")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    class EndReason(models.TextChoices):
        # The site's endings of a match. A game's own (the engine's Outcome.reason) are
        # stored as the engine says them, worded by the game's spec (GameSpec.reason_words).
        TIMEOUT = "timeout", _("time out")
        RESIGN = "resign", _("resignation")
        AGREEMENT = "agreement", _("draw by agreement")
        ABORTED = "aborted", _("aborted")

    variant = models.CharField(max_length=32, choices=variant_choices)
    pink = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    blue = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # A computer player takes the side whose user is null.
    bot_level = models.CharField(max_length=16, choices=BOT_LEVEL_CHOICES, blank=True)
    rated = models.BooleanField(default=False)

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)  # 1, 2; null: draw or not over
    # The site's endings (EndReason) or the game's own (Outcome.reason), so no fixed choices.
    end_reason = models.CharField(max_length=32, blank=True)

    ply = models.PositiveIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    history = models.JSONField(default=list)  # cache of the Move rows' actions
    pink_score = models.PositiveIntegerField(default=0)
    blue_score = models.PositiveIntegerField(default=0)

    draw_offer = models.PositiveSmallIntegerField(null=True, blank=True)  # who offers
    rematch_offer = models.PositiveSmallIntegerField(null=True, blank=True)
    rematch = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # An arena's game (docs/tournaments.md): its move clock, and who went berserk (half their clock).
    tournament = models.ForeignKey(
        "Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    move_seconds = models.PositiveSmallIntegerField(null=True, blank=True)  # null: MOVE_SECONDS
    pink_berserk = models.BooleanField(default=False)
    blue_berserk = models.BooleanField(default=False)

    created_at = models.DateTimeField(auto_now_add=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at"]
        indexes: ClassVar[list[models.Index]] = [
            # The sweeper's only question, asked every second: which active matches are overdue?
            # (status, turn_deadline) rather than a partial index on status="active": SQLite
            # ignores a partial index when the status comes as a bound parameter, as Django
            # sends it (tests/games/play/test_clock_sweep.py checks the plan).
            models.Index(fields=["status", "turn_deadline"], name="match_status_deadline"),
            models.Index(fields=["status", "-created_at"], name="match_status_created"),
            # A player's matches, newest first (profiles).
            models.Index(fields=["pink", "-created_at"], name="match_pink_created"),
            models.Index(fields=["blue", "-created_at"], name="match_blue_created"),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.variant})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def bot_side(self) -> int | None:
        if not self.bot_level:
            return None
        return PINK if self.pink_id is None else BLUE

    def user_id_of(self, side: int) -> int | None:
        return self.pink_id if side == PINK else self.blue_id

    def berserk_of(self, side: int) -> bool:
        return self.pink_berserk if side == PINK else self.blue_berserk

    def side_of(self, user_id: int | None) -> int | None:
        """The colour ``user_id`` plays here, or None for a spectator."""
        if user_id is None:
            return None
        if user_id == self.pink_id:
            return PINK
        if user_id == self.blue_id:
            return BLUE
        return None


class Move(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()  # 1 for the first move
    player = models.PositiveSmallIntegerField()
    action = models.PositiveIntegerField()
    # Kropki: a timeout counts as the player ending the game, stored as that move.
    by_timeout = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["match", "ply"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["match", "ply"], name="move_unique_ply")
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.ply}: {self.action}"


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

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """An arena (docs/tournaments.md). Only ``games/play/tournaments.py`` and
    ``games/play/arena.py`` write these rows and their players."""

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("upcoming")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=32, choices=variant_choices)
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
    last_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rank = models.PositiveIntegerField(null=True, blank=True)  # the final place, set when it ends
    joined_at = models.DateTimeField()

    class Meta:
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
