"""Puzzles' rows (docs/puzzles.md), models of the games app kept in the feature's folder."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from ratings import glicko2
from ratings.glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY


class Rated(models.Model):
    """A Glicko-2 rating's three figures (a solver's for a game, a puzzle's own)."""

    rating = models.FloatField(default=DEFAULT_RATING)
    deviation = models.FloatField(default=DEFAULT_DEVIATION)
    volatility = models.FloatField(default=DEFAULT_VOLATILITY)

    class Meta:
        abstract = True

    @property
    def glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)

    def rate(self, new: glicko2.Rating) -> None:
        self.rating, self.deviation, self.volatility = new.rating, new.deviation, new.volatility


class Puzzle(Rated):
    """One position and its solution (``games.bots.puzzles.Cut`` stored): the position is the
    game ``variant`` (with ``params``) after ``actions``; the solver is the player to move."""

    variant = models.CharField(max_length=40)
    params = models.JSONField(default=dict, blank=True)
    actions = models.JSONField()
    line = models.JSONField()
    accept = models.JSONField(null=True, blank=True)
    goal = models.CharField(max_length=8, default="line")
    theme = models.CharField(max_length=24)
    # the position's key (variant, params, canonical position): one puzzle a position
    key = models.CharField(max_length=64, unique=True)
    source = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    plays = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)  # solved at the first try
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "games"
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["variant", "rating"], name="puzzle_by_rating")]

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.variant}, {self.theme})"


class PuzzleRating(Rated):
    """A player's puzzle rating for one game (all its variants): Glicko-2, apart from play."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_ratings")
    game = models.CharField(max_length=40)
    tries = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)

    class Meta:
        app_label = "games"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "game"], name="one_puzzle_rating_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} {self.rating:.0f}"


class PuzzleAttempt(models.Model):
    """A player's first try at a puzzle (later tries are not rated and not stored)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    solved = models.BooleanField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "games"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_rated_try_per_puzzle"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on puzzle {self.puzzle_id}: {'solved' if self.solved else 'failed'}"
