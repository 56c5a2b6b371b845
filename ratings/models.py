"""One Glicko-2 rating per player and rated variant, and every change to it.

Ratings never import games: ``variant`` is the variant key as a plain string
and ``RatingChange.match_id`` a plain integer, so the dependency stays one-way
(an import contract in pyproject.toml checks it). Only ``ratings/services.py`` writes these rows.
"""

from __future__ import annotations

import math
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ratings import glicko2


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=32)
    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    deviation = models.FloatField(default=glicko2.DEFAULT_DEVIATION)
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "variant"], name="rating_unique_user_variant")
        ]
        indexes: ClassVar[list[models.Index]] = [
            # The leaderboard: established ratings of one variant, best first.
            models.Index(
                fields=["variant", "-rating"],
                name="rating_leaderboard",
                condition=Q(deviation__lt=glicko2.PROVISIONAL_DEVIATION),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant}: {self.display}"

    @property
    def glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)

    @property
    def provisional(self) -> bool:
        return glicko2.is_provisional(self.deviation)

    @property
    def display(self) -> str:
        return glicko2.display(self.glicko)


class RatingChange(models.Model):
    """One player's rating before and after one rated match."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    variant = models.CharField(max_length=32)
    match_id = models.BigIntegerField(db_index=True)  # games.Match.pk, deliberately not a foreign key
    side = models.PositiveSmallIntegerField()  # 1 pink, 2 blue
    score = models.FloatField()  # 1, 0.5 or 0 for this player
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_before = models.FloatField()
    deviation_after = models.FloatField()
    volatility_before = models.FloatField()
    volatility_after = models.FloatField()
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # A retried or raced finish cannot apply twice.
            models.UniqueConstraint(fields=["user", "match_id"], name="ratingchange_unique_user_match"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "variant", "created_at"], name="ratingchange_history")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} #{self.match_id}: {self.rating_before:.0f} -> {self.rating_after:.0f}"

    @property
    def before_display(self) -> str:
        return glicko2.display(glicko2.Rating(self.rating_before, self.deviation_before, self.volatility_before))

    @property
    def after_display(self) -> str:
        return glicko2.display(glicko2.Rating(self.rating_after, self.deviation_after, self.volatility_after))

    @property
    def delta(self) -> int:
        return _round(self.rating_after) - _round(self.rating_before)


def _round(x: float) -> int:
    """Half up, as ``glicko2.display``."""
    return math.floor(x + 0.5)
