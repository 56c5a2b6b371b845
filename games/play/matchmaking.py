"""The ranked queue ("Graj teraz"): seeks, and pairing them into rated matches.

The only code that creates or changes Seek rows. Numbers (docs/matchmaking.md):

- a seek accepts an opponent whose rating differs by at most its *window*:
  ±100 when it joins, +25 for every full 5 s of waiting, and anyone at all
  once it has waited 60 s (at 55 s the window is ±375);
- a pair is possible when the difference is within the window of the longer
  waiting of the two (so a patient player is paired with the next arrival);
- among the possible pairs the closest ratings go first (ties: the longest
  waiting first); a player is paired at most once per round, across all the
  variants they queued for, and their other seeks are then cancelled.

Pairing runs right after a seek is committed and every 2 s from Celery beat
(the window widens without anyone joining). Rounds are serialised (a
transaction-scoped advisory lock on PostgreSQL; SQLite's single writer does
it there) and read the waiting seeks with ``select_for_update(skip_locked=True)``
so a player cancelling at that moment is simply left out.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext

from accounts.blocks import queue_apart_pairs
from accounts.models import User
from games import catalogue
from games.models import BLUE, PINK, Match, Move, Seek
from kropki_site.lib.refusals import Refusal
from ratings.selectors import user_ratings

from . import trust
from .creating import match_create
from .drain import drain_started

log = logging.getLogger(__name__)

WINDOW_START = 100.0  # rating points either side when a seek joins
WINDOW_STEP = 25.0  # added ...
WINDOW_STEP_SECONDS = 5  # ... for every this many seconds waited
WINDOW_ALL_AFTER = 60  # seconds: after this, anyone is acceptable
MAX_SEEKS_PER_ROUND = 2000  # per variant; a round is O(n^2) in the queue length

_ADVISORY_KEY = 0x4B524F50  # "KROP": one pairing round at a time (PostgreSQL)


def window(waited: timedelta) -> float:
    """How far (rating points) a seek that has waited ``waited`` reaches."""
    seconds = max(0.0, waited.total_seconds())
    if seconds >= WINDOW_ALL_AFTER:
        return float("inf")
    return WINDOW_START + WINDOW_STEP * int(seconds // WINDOW_STEP_SECONDS)


# -- aborts and the cool-down (issue 24, item 20; lichess' "playban" is the anchor) --


def _failed_to_start(match: Match, user_id: int, moved_sides: set[int]) -> bool:
    """Whether ``user_id`` is the player whose first move never came in the aborted ``match``
    (the only way a rated match is aborted: games/play/moves.py ``_apply_timeout``)."""
    side = match.side_of(user_id)
    if side == PINK:
        return PINK not in moved_sides
    return side == BLUE and PINK in moved_sides and BLUE not in moved_sides


def queue_aborts(user_id: int, *, now: datetime | None = None) -> list[datetime]:
    """When ``user_id``'s ranked matches were aborted because their first move never
    came, within the last QUEUE_ABORT_WINDOW_MINUTES (oldest first)."""
    now = now or timezone.now()
    since = now - timedelta(minutes=settings.QUEUE_ABORT_WINDOW_MINUTES)
    aborted = list(
        Match.objects.filter(
            Q(pink_id=user_id) | Q(blue_id=user_id),
            rated=True,
            status=Match.Status.ABORTED,
            finished_at__gte=since,
            finished_at__lte=now,
        ).order_by("finished_at")
    )
    moved: dict[int, set[int]] = {m.pk: set() for m in aborted}
    for match_id, player in Move.objects.filter(match__in=aborted, by_timeout=False).values_list("match_id", "player"):
        moved[match_id].add(player)
    return [m.finished_at for m in aborted if m.finished_at and _failed_to_start(m, user_id, moved[m.pk])]


def queue_cooldown_until(user_id: int, *, now: datetime | None = None) -> datetime | None:
    """The end of ``user_id``'s cool-down from the ranked queue, or None: after
    QUEUE_ABORTS_LIMIT (2) aborts within the window, QUEUE_COOLDOWN_MINUTES (15)
    from the last of them."""
    now = now or timezone.now()
    aborts = queue_aborts(user_id, now=now)
    if len(aborts) < settings.QUEUE_ABORTS_LIMIT:
        return None
    until = aborts[-1] + timedelta(minutes=settings.QUEUE_COOLDOWN_MINUTES)
    return until if until > now else None


def cooldown_message(until: datetime, now: datetime) -> str:
    minutes = max(1, int((until - now).total_seconds() + 59) // 60)
    return gettext(
        "You did not make your first move in %(count)s ranked games within an hour, so those games were"
        " cancelled. You can join the ranked queue again at %(time)s (in %(minutes)s min)."
    ) % {
        "count": settings.QUEUE_ABORTS_LIMIT,
        "time": formats.time_format(timezone.localtime(until), "H:i"),
        "minutes": minutes,
    }


# -- joining and leaving -------------------------------------------------------


def seek_create(
    *,
    user: User | AnonymousUser | None,
    variants: list[str] | tuple[str, ...],
    now: datetime | None = None,
) -> list[Seek]:
    """Put ``user`` in the ranked queue of each of ``variants`` (one entry per variant).

    Joining a queue the player is already in keeps the existing entry (a double
    click changes nothing). Pairing runs right after the commit.
    """
    if user is None or not user.is_authenticated:
        raise Refusal("login_required")
    if getattr(user, "is_guest", False):
        raise Refusal("account_required")
    if getattr(user, "is_bot", False):  # bots play by challenge only (docs/api.md "Bot accounts")
        raise Refusal("bot_account")
    trust.require_established(user.pk)  # the ranked queue is rated play
    variants = list(dict.fromkeys(variants))
    if not variants or any(v not in catalogue.variant_keys() for v in variants):
        raise Refusal("unknown_variant")
    now = now or timezone.now()
    until = queue_cooldown_until(user.pk, now=now)
    if until is not None:
        raise Refusal("queue_cooldown", cooldown_message(until, now))
    with transaction.atomic():
        # Under the account's row lock: a fair-play mark (which takes the account out of the queue)
        # either committed before, and is refused here, or waits and cancels what is made here.
        trust.require_unmarked(user.pk, lock=True)
        # Forget finished business: cancelled entries and pairings whose match is over.
        Seek.objects.filter(user=user, status=Seek.Status.CANCELLED).delete()
        Seek.objects.filter(user=user, status=Seek.Status.MATCHED).exclude(match__status=Match.Status.ACTIVE).delete()
        waiting = {s.variant: s for s in Seek.objects.filter(user=user, status=Seek.Status.WAITING)}
        ratings = user_ratings(user, variants)
        seeks = []
        for variant in variants:
            if variant in waiting:
                seeks.append(waiting[variant])
                continue
            try:
                with transaction.atomic():
                    seeks.append(
                        Seek.objects.create(user=user, variant=variant, rating=ratings[variant].rating, created_at=now)
                    )
            except IntegrityError:  # the same player joined this queue in another request just now
                seeks.append(Seek.objects.get(user=user, variant=variant, status=Seek.Status.WAITING))
        transaction.on_commit(_pair_after_commit)
    return seeks


def seek_cancel(*, user: User | AnonymousUser | None, variants: list[str] | None = None) -> int:
    """Leave the queue (of ``variants``, or all). Returns how many entries were cancelled:
    0 also when the player was paired a moment ago (then they have a match to go to)."""
    if user is None or not user.is_authenticated:
        raise Refusal("login_required")
    with transaction.atomic():
        # One at a time with the pairing rounds: a cancel that locked one of a player's
        # seeks while a round skip-locked the other would deadlock with the round's
        # "cancel the rest" (seen on PostgreSQL). A cancel waits for at most one round.
        _serialise_rounds()
        seeks = Seek.objects.filter(user=user, status=Seek.Status.WAITING)
        if variants is not None:
            seeks = seeks.filter(variant__in=list(variants))
        return seeks.update(status=Seek.Status.CANCELLED)


def _pair_after_commit() -> None:
    try:
        seek_pair()
    except Exception:  # beat runs the next round in 2 s
        log.exception("pairing after a new seek failed")


# -- pairing -------------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    difference: float
    started: datetime  # the older of the two seeks
    a: Seek
    b: Seek


def _serialise_rounds() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_ADVISORY_KEY])


def _candidates(seeks: list[Seek], now: datetime) -> list[_Candidate]:
    by_variant: dict[str, list[Seek]] = {}
    for seek in seeks:
        by_variant.setdefault(seek.variant, []).append(seek)
    found = []
    for queue in by_variant.values():
        queue = queue[:MAX_SEEKS_PER_ROUND]
        reach = [window(now - s.created_at) for s in queue]
        for i, a in enumerate(queue):
            for j in range(i + 1, len(queue)):
                b = queue[j]
                if a.user_id == b.user_id:
                    continue
                difference = abs(a.rating - b.rating)
                # queue is oldest first: a waited at least as long as b.
                if difference <= max(reach[i], reach[j]):
                    found.append(_Candidate(difference, min(a.created_at, b.created_at), a, b))
    found.sort(key=lambda c: (c.difference, c.started, c.a.pk, c.b.pk))
    return found


def seek_pair(now: datetime | None = None) -> list[Match]:
    """One pairing round: start a rated match for each pair chosen; returns them."""
    if drain_started() is not None:  # a planned restart is under way: seeks wait for the new version
        return []
    now = now or timezone.now()
    with transaction.atomic():
        _serialise_rounds()
        seeks = list(
            Seek.objects.select_for_update(skip_locked=True)
            .filter(status=Seek.Status.WAITING)
            .order_by("created_at", "pk")
        )
        if len(seeks) < 2:
            return []
        paired_users: set[int] = set()
        matches = []
        # A block made within BLOCK_QUEUE_HOURS, either way, keeps two players apart (docs/social.md).
        apart = queue_apart_pairs(sorted({s.user_id for s in seeks}), now)
        for c in _candidates(seeks, now):
            if c.a.user_id in paired_users or c.b.user_id in paired_users:
                continue
            if frozenset((c.a.user_id, c.b.user_id)) in apart:
                continue
            paired_users.update((c.a.user_id, c.b.user_id))
            players = [c.a.user_id, c.b.user_id]
            random.shuffle(players)
            match = match_create(variant=c.a.variant, pink_id=players[0], blue_id=players[1], rated=True, now=now)
            Seek.objects.filter(pk__in=[c.a.pk, c.b.pk]).update(status=Seek.Status.MATCHED, match=match)
            # "Graj teraz" across games: the first pairing cancels the rest.
            Seek.objects.filter(user_id__in=players, status=Seek.Status.WAITING).update(status=Seek.Status.CANCELLED)
            matches.append(match)
        return matches


__all__ = ["queue_aborts", "queue_cooldown_until", "seek_cancel", "seek_create", "seek_pair", "window"]
