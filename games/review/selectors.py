"""The reviews' reads (docs/features.md "Reads"): a match's stored review, its place in the
queue. The record page hands them to display.py; the services use them too."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.utils import timezone

from games import catalogue
from games.bots.review import WALK_VERSION
from games.models import Match
from games.play import guard

from .models import Analysis

ACTIVE = (Analysis.Status.QUEUED, Analysis.Status.RUNNING)
QUEUE_SHOWN = 500  # a place further back reads as this


def reviewer_version(variant: str) -> str | None:
    """The version of the variant's reviewer and of the walk that turns its values into classes
    and accuracy (``games.bots.review.WALK_VERSION``), or None for a game with no review."""
    review = catalogue.variant(variant).game_spec.review
    return f"{review.VERSION}/{WALK_VERSION}" if review is not None else None


def is_stale(analysis: Analysis) -> bool:
    """A queued or running review that has not moved for ANALYSIS_STALE_MINUTES (its worker died)."""
    if analysis.status not in ACTIVE:
        return False
    since = analysis.started_at or analysis.requested_at
    return since < timezone.now() - timedelta(minutes=settings.ANALYSIS_STALE_MINUTES)


def analysis_for(match: Match) -> Analysis | None:
    """The match's review by its game's current reviewer, if anyone asked (a stale one reads
    as failed, so it can be asked again)."""
    version = reviewer_version(match.variant)
    if version is None:
        return None
    analysis = Analysis.objects.filter(match=match, version=version).first()
    if analysis is not None and is_stale(analysis):
        analysis.status = Analysis.Status.FAILED
        analysis.error = "stale"
    return analysis


def fair_order() -> QuerySet[Analysis]:
    """The queued reviews in the order the worker runs them (issue 37, item 2): the asker
    served longest ago first (one never served before anyone), then the oldest asked."""
    last_served = (
        Analysis.objects.filter(requested_by=OuterRef("requested_by"), started_at__isnull=False)
        .order_by("-started_at")
        .values("started_at")[:1]
    )
    return (
        Analysis.objects.filter(status=Analysis.Status.QUEUED)
        .annotate(served=Subquery(last_served))
        .order_by(F("served").asc(nulls_first=True), "requested_at", "pk")
    )


def queue_position(analysis: Analysis) -> int:
    """1 for the next review to run (or the one running), 2 for the one after it..."""
    if analysis.status != Analysis.Status.QUEUED:
        return 0
    ahead = list(fair_order().values_list("pk", flat=True)[:QUEUE_SHOWN])
    place = ahead.index(analysis.pk) if analysis.pk in ahead else len(ahead)
    return place + Analysis.objects.filter(status=Analysis.Status.RUNNING).count() + 1


def held(match: Match, analysis: Analysis | None) -> bool:
    """Whether the stored review of ``match`` is held back by the live-position guard
    (docs/fairplay.md): a position of the game (past its opening) stands now in an active rated
    match, so none of the review's values are shown until that match has moved on or ended.
    Only a finished review is looked at (one replay and one query)."""
    if analysis is None or analysis.status != Analysis.Status.DONE:
        return False
    return bool(
        guard.standing_plies(match.variant, list(match.history), exclude_match_id=match.pk, params=match.params)
    )
