"""A match and its moves.

The Move rows are the truth of a match; ``Match.history`` is a cache of their
actions (a test checks it equals the rows) so that a state needs no join.
Only ``games/play/`` creates or changes these rows. ``variant`` is a key of
the game catalogue (``games/catalogue/``): the services refuse any other, and
the database does not list them, so a game joins without a migration.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import catalogue
from games.catalogue import variant_choices
from games.engine import Game

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
        IMPORTED = "imported", _("imported, not played to its end")

    variant = models.CharField(max_length=32, choices=variant_choices)
    # The engine's parameters when the players chose options (SPEC.md "Kropki: options":
    # a casual game only), else empty: the variant's own. ``game()`` reads both.
    params = models.JSONField(default=dict, blank=True)
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
    pink_score = models.IntegerField(default=0)  # below 0 with Kropki's own-dot penalty
    blue_score = models.IntegerField(default=0)

    draw_offer = models.PositiveSmallIntegerField(null=True, blank=True)  # who offers
    rematch_offer = models.PositiveSmallIntegerField(null=True, blank=True)
    # Takeback (games/play/takeback.py): who asks now, and how many each side has asked for.
    takeback_offer = models.PositiveSmallIntegerField(null=True, blank=True)
    pink_takebacks = models.PositiveSmallIntegerField(default=0)
    blue_takebacks = models.PositiveSmallIntegerField(default=0)
    takebacks_done = models.PositiveSmallIntegerField(default=0)  # granted: the ply went back this often
    rematch = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # An arena's game (docs/tournaments.md): its move clock, and who went berserk (half their clock).
    tournament = models.ForeignKey(
        "Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    move_seconds = models.PositiveSmallIntegerField(null=True, blank=True)  # null: MOVE_SECONDS
    # A correspondence game (SPEC.md "Correspondence"): days a move (catalogue.CORRESPONDENCE_DAYS),
    # rated in the variant's correspondence pool (catalogue.pool_key); null: a live game.
    days = models.PositiveSmallIntegerField(null=True, blank=True)
    # The plies whose player to move heard "your turn" and "little time left"
    # (games/play/correspondence.py: the sweeps' outbox), once a turn each.
    told_ply = models.PositiveIntegerField(null=True, blank=True)
    reminded_ply = models.PositiveIntegerField(null=True, blank=True)
    pink_berserk = models.BooleanField(default=False)
    blue_berserk = models.BooleanField(default=False)

    # A game brought in from elsewhere (games/play/imports.py): its players' names and result as
    # the file says them ({"pink", "blue", "result", "date", "format"}); no accounts play it.
    imported = models.JSONField(default=dict, blank=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    # The fair-play guard (games/play/guard.py): the key of the position standing now, kept
    # while the match is active and rated (empty otherwise, and in the common opening).
    position_key = models.CharField(max_length=32, blank=True, default="")
    # False: the game ended before each player made two moves and counts for nothing (no
    # rating, no arena points, no step towards the new-account gate; SPEC "Games that count").
    counts = models.BooleanField(default=True)

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
            # The fair-play guard's one question: does an active rated match stand on this position?
            models.Index(fields=["position_key", "status"], name="match_position_guard"),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.variant})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def pool(self) -> str:
        """The rating pool this match is rated in: its variant's, or its correspondence pool."""
        return catalogue.pool_key(self.variant, self.days)

    def game(self) -> Game:
        """The engine this match is played with: its variant's, with its own options if any."""
        return catalogue.variant(self.variant).game(self.params)

    @property
    def bot_side(self) -> int | None:
        if not self.bot_level:
            return None
        return PINK if self.pink_id is None else BLUE

    def user_id_of(self, side: int) -> int | None:
        return self.pink_id if side == PINK else self.blue_id

    def takebacks_of(self, side: int) -> int:
        return self.pink_takebacks if side == PINK else self.blue_takebacks

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
