"""The reviews' reads (docs/features.md "Reads"): a match's stored review, its place in the
queue, its progress frame. The record page hands them to display.py; the services use them too.

The queue takes turns by asker (``fair_order``): each account is a lane of its own, and every
review asked through the visitors' allowance (``visitor_lane``: visitors and guests, and new
accounts asking for an imported game's review; docs/analysis.md "Fair and bounded") shares one
lane, so all of them together take one turn, as one account would: a guest never pushes an
account holder back by more than one review, however many guests there are."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Case, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.utils import timezone

from games import catalogue
from games.bots.review import WALK_VERSION
from games.models import Match
from games.play import guard

from .models import Analysis

ACTIVE = (Analysis.Status.QUEUED, Analysis.Status.RUNNING)
SERVED = (Analysis.Status.RUNNING, Analysis.Status.DONE, Analysis.Status.FAILED)  # started once
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


def visitor_lane() -> Q:
    """The reviews asked through the visitors' allowance (services.analysis_request): by a guest
    (an anonymous visitor who asks becomes one), by nobody (the asker deleted), or an imported
    game's by an account younger than NEW_ACCOUNT_MINUTES (not staff). Their turn in the queue
    is one, shared (``fair_order``)."""
    young = timezone.now() - timedelta(minutes=settings.NEW_ACCOUNT_MINUTES)
    return (
        Q(requested_by__isnull=True)
        | Q(requested_by__is_guest=True)
        | Q(match__imported__has_key="format", requested_by__date_joined__gt=young, requested_by__is_staff=False)
    )


def in_visitor_lane(analysis: Analysis) -> bool:
    return Analysis.objects.filter(visitor_lane(), pk=analysis.pk).exists()


def fair_order() -> QuerySet[Analysis]:
    """The queued reviews in the order the worker runs them (issue 37, item 2): the asker
    served longest ago first (one never served before anyone), then the oldest asked.

    An account has one review queued at most (``analysis_busy``); the visitors' lane
    (``visitor_lane``) may have many, and is one asker: only its oldest queued review takes part,
    served when any of the lane's reviews last started (within the last day: a lane not served
    for a day counts as never served, which bounds the look back to a day's reviews, read through
    the queue's index); the lane's others wait behind every review taking part. Once that one
    starts, the next becomes the lane's, served just now: the visitors get one turn a round."""
    lane = visitor_lane()
    own_last = (
        Analysis.objects.filter(requested_by=OuterRef("requested_by"), started_at__isnull=False)
        .order_by("-started_at")
        .values("started_at")[:1]
    )
    day = timezone.now() - timedelta(days=1)
    lane_last = (
        Analysis.objects.filter(lane, status__in=SERVED, requested_at__gte=day, started_at__isnull=False)
        .order_by("-started_at")
        .values("started_at")[:1]
    )
    queued = Analysis.objects.filter(status=Analysis.Status.QUEUED)
    lane_first = queued.filter(lane).order_by("requested_at", "pk").values("pk")[:1]
    return queued.annotate(
        served=Case(When(lane, then=Subquery(lane_last)), default=Subquery(own_last)),
        behind=Case(When(lane & ~Q(pk=Subquery(lane_first)), then=Value(1)), default=Value(0)),
    ).order_by("behind", F("served").asc(nulls_first=True), "requested_at", "pk")


def queue_position(analysis: Analysis) -> int:
    """1 for the next review to run (or the one running), 2 for the one after it..."""
    if analysis.status != Analysis.Status.QUEUED:
        return 0
    ahead = list(fair_order().values_list("pk", flat=True)[:QUEUE_SHOWN])
    place = ahead.index(analysis.pk) if analysis.pk in ahead else len(ahead)
    return place + Analysis.objects.filter(status=Analysis.Status.RUNNING).count() + 1


def progress_frame(analysis: Analysis) -> dict[str, Any]:
    """The ``analysis`` frame of the record page's watchers (docs/protocol.md "Site socket")."""
    return {
        "type": "analysis",
        "match": analysis.match_id,
        "status": analysis.status,
        "done": analysis.done,
        "total": analysis.total,
        "queue": queue_position(analysis),
    }


def progress_frame_of(match_id: int) -> dict[str, Any] | None:
    """The ``analysis`` frame of match ``match_id``'s review now (a stale one reads as failed),
    or None when nobody asked for one (or there is no such match)."""
    match = Match.objects.filter(pk=match_id).only("pk", "variant").first()
    analysis = analysis_for(match) if match is not None else None
    return progress_frame(analysis) if analysis is not None else None


def open_to_visitors(match_id: int) -> bool:
    """Whether a visitor without an account may ask for this match's review (the visitors'
    allowance, docs/analysis.md): an imported game."""
    return Match.objects.filter(pk=match_id, imported__has_key="format").exists()


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
