"""Fair play's rows: the games app's models, kept in the feature's folder (docs/features.md).

- ``FairPlayFlag``: what detection (or a shared address/browser) noticed about one account,
  with the evidence, for staff. A hint: it changes nothing by itself.
- ``FairPlayDecision``: staff's decision on an account (mark engine, mark booster, lift a
  mark, dismiss a flag), with who and why: the log.
- ``RatingRefund``: rating points given back to an opponent of a marked account, once per
  (opponent, match).
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class FairPlayFlag(models.Model):
    class Kind(models.TextChoices):
        ENGINE = "engine", _("possible engine use")
        BOOSTING = "boosting", _("possible rating manipulation")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        DISMISSED = "dismissed", _("dismissed")
        ACTED = "acted", _("acted on")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    variant = models.CharField(max_length=32, blank=True)
    # The figures that stood out (docs/fairplay.md). Engine flags (games/fairplay/detection.py,
    # ``assess``): {"version", "variant", "rating", "games", "positions" (that matter), "best"
    # (the computer's best played there), "agreement", "expected" (the honest reference),
    # "p_value", "expected_if_flat", "p_value_if_flat", "accuracy", "accuracy_moves", "think_cv",
    # "timed_moves", "slower_when_it_matters", "reasons": ["agreement", "agreement_and_flat_times"]}.
    figures = models.JSONField(default=dict)
    # The evidence: one item a game, [{"match": id, "plies": [n, ...], ...}, ...]; engine flags add
    # "side" (1 pink, 2 blue), "positions" (that matter), "best" (of them), "plies" (where the best
    # was played in a position that matters, at most 12), "think_s" (the first 12 think times) and
    # "note" (those figures in one line). The moderation page (admin.py, case.html) links each
    # match's record and shows its plies and note.
    evidence = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "games"
        verbose_name = _("fair-play flag")
        verbose_name_plural = _("fair-play flags")
        ordering: ClassVar[list[str]] = ["-updated_at"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["user", "kind"], condition=models.Q(status="open"), name="fairplay_flag_one_open"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.kind} ({self.status})"


class FairPlayDecision(models.Model):
    class Action(models.TextChoices):
        MARK_ENGINE = "mark_engine", _("marked: engine use")
        MARK_BOOSTER = "mark_booster", _("marked: rating manipulation")
        LIFT = "lift", _("mark lifted")
        DISMISS = "dismiss", _("flag dismissed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    reason = models.TextField()
    flag = models.ForeignKey(FairPlayFlag, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = _("fair-play decision")
        verbose_name_plural = _("fair-play decisions")
        ordering: ClassVar[list[str]] = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.action}"


class RatingRefund(models.Model):
    decision = models.ForeignKey(FairPlayDecision, on_delete=models.CASCADE, related_name="refunds")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=32)
    match_id = models.BigIntegerField()  # games.Match.pk, as ratings.RatingChange names it
    points = models.FloatField()  # what the opponent lost in that game, given back
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = _("rating refund")
        verbose_name_plural = _("rating refunds")
        ordering: ClassVar[list[str]] = ["-created_at"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "match_id"], name="fairplay_refund_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} +{self.points:.1f} ({self.match_id})"
