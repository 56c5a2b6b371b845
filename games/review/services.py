"""The computer's review of finished matches ("Analiza komputerowa"): asking, running, progress.

An account asks on the record page (``analysis_request``); the row is written and one task sent
to the ``analysis`` queue, which has a worker of its own (one process: a review never delays a
computer move or a clock). ``analysis_run`` evaluates every position with the game's reviewer
(``games.bots.review.analyse``), writes the progress as it goes and sends it to the record page's
watchers (frame ``analysis`` to topic ``analysis:<match>``, docs/protocol.md), and stores the
result once: asking again for a match reviewed by the same reviewer version gets the stored review.

Fair and bounded: one review a user at a time, ``ANALYSES_PER_DAY`` a day; new accounts
(games/play/trust.py) and guests may not ask for the games played here. The visitors' allowance
(docs/analysis.md): visitors (made guests as they ask), guests and new accounts may ask for the
review of an imported game, ``VISITOR_ANALYSES_PER_DAY`` a day per address, and those reviews
share one turn in the queue (``selectors.visitor_lane``). The queue is fair (issue 37, item 2): a
task is only a token, and whichever runs claims the fairest queued review
(``selectors.fair_order``): its asker served longest ago first (never served first of all), then
the oldest; so a few accounts asking review after review never keep an honest asker waiting
longer than the one running. A review that fails says so and may be asked again; one whose
worker died (queued or running for ``ANALYSIS_STALE_MINUTES`` without progress) counts as failed.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import catalogue, hooks, tasknames
from games.bots.review import analyse
from games.live import transport
from games.models import Match
from games.play import guard, trust
from games.play.publisher import send_now
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

from .models import Analysis
from .selectors import ACTIVE, fair_order, in_visitor_lane, is_stale, progress_frame, reviewer_version

log = logging.getLogger(__name__)

PROGRESS_EVERY_S = 0.5  # progress rows and frames at most this often
CLAIM_LOOK_AHEAD = 10  # queued rows a claim tries past those other workers hold locked


def analysis_request(user: Any, match_id: int, *, address: str = "") -> Analysis:
    """Ask for the review of finished match ``match_id`` as ``user`` from ``address`` (the client's).

    Returns the match's review row (the stored one when it exists: no cap is spent).
    Raises Refusal: ``analysis_guest`` (no account: the view makes a visitor a guest first for an
    imported game; a guest, for a game played here), ``account_too_new`` (games/play/trust.py: a
    fresh account waits like for rated play, except for an imported game),
    ``analysis_not_finished``, ``analysis_unavailable`` (the game has no reviewer),
    ``analysis_busy`` (the user's own review of another match is still queued or running),
    ``analysis_daily_cap``, ``analysis_visitor_cap`` (the visitors' allowance of ``address`` is
    spent for the day); the live-position guard's (docs/fairplay.md): ``rated_game_in_progress``
    (``user`` plays a rated match now), ``position_in_rated_match`` (a position of the game
    stands now in an active rated match: ask again once it has moved on)."""
    if not user.is_authenticated:
        raise Refusal("analysis_guest")
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.is_active:
        raise Refusal("analysis_not_finished")
    visitor = _visitor(user)
    if visitor and not match.imported:  # a game played here: an established account's
        if user.is_guest:
            raise Refusal("analysis_guest")
        _require_established(user)
    version = reviewer_version(match.variant)
    if version is None:
        raise Refusal("analysis_unavailable")
    guard.require_no_rated_match(user.pk)
    if guard.standing_plies(match.variant, list(match.history), exclude_match_id=match.pk, params=match.params):
        raise Refusal("position_in_rated_match")
    with transaction.atomic():
        existing = Analysis.objects.select_for_update().filter(match=match, version=version).first()
        if existing is not None and existing.status == Analysis.Status.DONE:
            return existing
        if existing is not None and existing.status in ACTIVE and not is_stale(existing):
            if not visitor and existing.status == Analysis.Status.QUEUED:
                _take_over(user, existing)
            return existing
        _check_limits(user, exclude=existing)
        if (
            visitor
            and address
            and not limits.hit(
                "analysis-visitor-ip", address, limit=settings.VISITOR_ANALYSES_PER_DAY, window=24 * 3600
            )
        ):
            raise Refusal("analysis_visitor_cap")
        now = timezone.now()
        if existing is None:
            try:
                with transaction.atomic():
                    analysis = Analysis.objects.create(
                        match=match, version=version, requested_by=user, requested_at=now
                    )
            except IntegrityError:  # asked at the same moment by someone else: theirs it is
                return Analysis.objects.get(match=match, version=version)
        else:
            analysis = existing
            analysis.status = Analysis.Status.QUEUED
            analysis.requested_by = user
            analysis.requested_at = now
            analysis.started_at = analysis.finished_at = None
            analysis.done = analysis.total = 0
            analysis.error = ""
            analysis.result = None
            analysis.save()
        analysis_id = analysis.pk
        transaction.on_commit(lambda: send_now(tasknames.ANALYSE_MATCH, (analysis_id,)))
    return analysis


def _visitor(user: Any) -> bool:
    """Whether ``user`` asks through the visitors' allowance: a guest, or an account not yet
    established (games/play/trust.py)."""
    return bool(user.is_guest) or trust.minutes_left(user) > 0


def _take_over(user: Any, queued: Analysis) -> None:
    """An established account asks for a review a visitor's allowance queued: it becomes the
    account's (its turn, its day's count, one of its own at a time), so that joining a guest's
    review never puts an account holder in the visitors' shared turn. Left as it is when the
    account could not ask one now (busy, or its day's reviews spent)."""
    if not in_visitor_lane(queued):
        return
    try:
        _check_limits(user, exclude=queued)
    except Refusal:
        return
    queued.requested_by = user
    queued.save(update_fields=["requested_by"])


def _require_established(user: Any) -> None:
    """Free fresh accounts would each take a place in the one worker's queue (issue 37, item 2):
    ``account_too_new`` until the account is established (games/play/trust.py)."""
    left = trust.minutes_left(user)
    if left:
        raise Refusal(
            "account_too_new",
            _(
                "Your account is new: the computer's analysis opens in %(minutes)d min "
                "or after %(games)d finished games with two moves each."
            )
            % {"minutes": left, "games": settings.NEW_ACCOUNT_GAMES},
        )


def _check_limits(user: Any, exclude: Analysis | None) -> None:
    mine = Analysis.objects.filter(requested_by=user)
    if exclude is not None:
        mine = mine.exclude(pk=exclude.pk)
    for other in mine.filter(status__in=ACTIVE):
        if not is_stale(other):
            raise Refusal("analysis_busy")
    since = timezone.now() - timedelta(days=1)
    if mine.filter(requested_at__gte=since).count() >= settings.ANALYSES_PER_DAY:
        raise Refusal("analysis_daily_cap")


def _tell(analysis: Analysis) -> None:
    """The review's progress to the pages of its record being watched (after commit)."""
    frame = progress_frame(analysis)
    match_id = analysis.match_id
    transaction.on_commit(lambda: transport.send_to_analysis(match_id, frame))


def analysis_claim(analysis_id: int) -> Analysis | None:
    """The fairest queued review (``selectors.fair_order``), row-locked inside the caller's
    transaction; else the token's own review ``analysis_id`` if it is running but stale (its
    worker died); None when none waits. Another worker's claim in progress is skipped."""
    locked = Analysis.objects.select_for_update(skip_locked=True, of=("self",)).select_related("match")
    for pk in fair_order().values_list("pk", flat=True)[:CLAIM_LOOK_AHEAD]:
        analysis = locked.filter(pk=pk, status=Analysis.Status.QUEUED).first()
        if analysis is not None:
            return analysis
    own = locked.filter(pk=analysis_id, status=Analysis.Status.RUNNING).first()
    return own if own is not None and is_stale(own) else None


def analysis_run(analysis_id: int) -> bool:
    """One token of the ``analysis`` worker (``analysis_id``: the review whose asking sent it):
    run the fairest queued review, not necessarily that one. False when there was nothing to do."""
    with transaction.atomic():
        analysis = analysis_claim(analysis_id)
        if analysis is None:
            return False
        analysis_id = analysis.pk
        match = analysis.match
        analysis.status = Analysis.Status.RUNNING
        analysis.started_at = timezone.now()
        analysis.done = 0
        analysis.total = len(match.history) + 1
        analysis.save(update_fields=["status", "started_at", "done", "total"])
        _tell(analysis)
    spec = catalogue.variant(match.variant).game_spec
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_EVERY_S and done < total:
            return
        last[0] = now
        with transaction.atomic():
            Analysis.objects.filter(pk=analysis_id).update(done=done)
            analysis.done = done
            _tell(analysis)

    try:
        if spec.review is None:
            raise RuntimeError("the game has no reviewer")
        result = analyse(match.game(), list(match.history), spec.review, progress)
    except Exception as exc:
        log.exception("analysis %s of match %s failed", analysis_id, match.pk)
        with transaction.atomic():
            analysis.status = Analysis.Status.FAILED
            analysis.error = str(exc)[:200]
            analysis.finished_at = timezone.now()
            analysis.save(update_fields=["status", "error", "finished_at"])
            _tell(analysis)
        return False
    with transaction.atomic():
        analysis.status = Analysis.Status.DONE
        analysis.result = result
        analysis.done = analysis.total
        analysis.finished_at = timezone.now()
        analysis.save(update_fields=["status", "result", "done", "finished_at"])
        _tell(analysis)
        if analysis.requested_by_id is not None:  # the list and the header say it is ready
            hooks.notice([analysis.requested_by_id], "review_done", {"match": match.pk})
    return True
