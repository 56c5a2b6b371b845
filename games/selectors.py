"""Reads for pages and sockets: the engine state of a match, the queue, who plays now, who is online.

Writes go through ``games/play/``; these only read (the engine-state cache is
a per-process shortcut for a replay, never trusted on its own).
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import catalogue
from games.engine import State
from games.live import online, presence
from games.models import Match, Seek
from ratings.models import Rating
from ratings.selectors import rating_for

log = logging.getLogger(__name__)

# Keyed by (id, variant) and checked against the full history: a cached state
# is only ever a shortcut for the replay, never trusted on its own (ids can be
# reused after a rollback or a restore).
_STATE_CACHE: dict[tuple[int, str], State] = {}
_STATE_CACHE_MAX = 512


def match_state(match: Match) -> State:
    """The engine state of ``match`` (a private copy: callers may mutate it).

    Replays ``match.history``; a per-process cache skips the replay when it
    already holds that exact history (never trusted otherwise).
    """
    cached = _STATE_CACHE.get((match.pk, match.variant)) if match.pk else None
    if cached is not None and cached.history == match.history:
        return cached.clone()
    state = catalogue.variant(match.variant).game().state_from_history(match.history)
    if match.pk:
        remember_state(match, state)
    return state


def remember_state(match: Match, state: State) -> None:
    """Keep a copy of ``state`` as the state of ``match`` (after a committed move)."""
    if len(_STATE_CACHE) >= _STATE_CACHE_MAX:
        with contextlib.suppress(
            StopIteration, RuntimeError
        ):  # consumers call services from a thread pool: another thread may evict first
            _STATE_CACHE.pop(next(iter(_STATE_CACHE)), None)
    _STATE_CACHE[(match.pk, match.variant)] = state.clone()


@dataclass(frozen=True)
class QueueStatus:
    waiting: list[Seek]  # the player's entries, oldest first
    match_id: int | None  # the match they were paired into, while it is on

    @property
    def since(self) -> datetime | None:
        return self.waiting[0].created_at if self.waiting else None


def queue_status(user: User | AnonymousUser | None) -> QueueStatus:
    """What the queue page shows ``user``: their waiting entries, or the match they got."""
    if user is None or not user.is_authenticated:
        return QueueStatus([], None)
    seeks = list(
        Seek.objects.filter(user=user)
        .exclude(status=Seek.Status.CANCELLED)
        .select_related("match")
        .order_by("created_at", "pk")
    )
    waiting = [s for s in seeks if s.status == Seek.Status.WAITING]
    matched = [s.match for s in seeks if s.status == Seek.Status.MATCHED and s.match and s.match.is_active]
    match_id = max(matched, key=lambda m: m.created_at).pk if matched and not waiting else None
    return QueueStatus(waiting, match_id)


def queue_sizes() -> dict[str, int]:
    """How many players wait in each variant's queue (one query)."""
    counts = dict(
        Seek.objects.filter(status=Seek.Status.WAITING)
        .values_list("variant")
        .annotate(n=Count("id"))
        .values_list("variant", "n")
    )
    return {v: counts.get(v, 0) for v in catalogue.variant_keys()}


def live_summary(limit: int = 5) -> dict[str, Any]:
    """How many people are playing and watching now, and a few live matches.

    ``playing``: distinct people in active matches between two people;
    ``watching``: open spectator sockets on match pages (games.live.presence,
    shared by every daphne process); ``matches``: up to ``limit`` of those
    matches, newest first, as dicts with ``variant``, ``pink``, ``blue`` and ``url``.

    Games against the computer are practice, not live play: they are neither
    counted nor listed, so the count and the list always agree.
    """
    active = Match.objects.filter(status=Match.Status.ACTIVE, pink__isnull=False, blue__isnull=False)
    pinks = active.values("pink_id")
    blues = active.values("blue_id")
    playing = pinks.union(blues).count()  # union drops duplicates: each person once
    try:
        watching = presence.spectator_count()
    except Exception:  # Redis away: the page still renders, without the count
        log.warning("presence count unavailable", exc_info=True)
        watching = 0
    matches = [
        {
            "variant": match.get_variant_display(),
            "pink": match.pink.username,
            "blue": match.blue.username,
            "url": reverse("match", args=[match.pk]),
        }
        # A match with an invisible player is not listed: it would say they are online (issue 24, item 14).
        for match in active.filter(pink__invisible=False, blue__invisible=False).select_related("pink", "blue")[:limit]
        if match.pink is not None and match.blue is not None  # always: the query wants both
    ]
    return {"playing": playing, "watching": watching, "matches": matches}


ONLINE_LIST_LIMIT = 100


def online_players(limit: int = ONLINE_LIST_LIMIT) -> list[dict[str, Any]]:
    """Players online now (an open site socket, games/live/online.py), invisible ones left out,
    by name: each ``{"name", "bot", "in_match", "ratings": {variant: "1532" or "1500?"}}`` (a question
    mark: provisional). Three queries whatever the number: users, their ratings, their matches."""
    ids = online.online_ids()
    if not ids:
        return []
    users = list(
        User.objects.filter(pk__in=ids, invisible=False, is_guest=False, is_active=True)
        .order_by(Lower("username"))
        .values_list("pk", "username", "is_bot")[:limit]
    )
    user_ids = [pk for pk, _name, _bot in users]
    variants = catalogue.variant_keys()
    rows = {(r.user_id, r.variant): r for r in Rating.objects.filter(user_id__in=user_ids, variant__in=variants)}
    playing: set[int | None] = set()
    for pink, blue in (
        Match.objects.filter(status=Match.Status.ACTIVE)
        .filter(Q(pink_id__in=user_ids) | Q(blue_id__in=user_ids))
        .values_list("pink_id", "blue_id")
    ):
        playing.update((pink, blue))
    default = _default_rating_display()
    return [
        {
            "name": name,
            "bot": bot,
            "in_match": pk in playing,
            "ratings": {v: rows[(pk, v)].display if (pk, v) in rows else default for v in variants},
        }
        for pk, name, bot in users
    ]


def _default_rating_display() -> str:
    return rating_for(None, catalogue.variant_keys()[0]).display


def online_frame() -> dict[str, Any]:
    """The ``online`` frame of the site socket (docs/protocol.md "Site socket")."""
    return {"type": "online", "players": online_players()}


def presence_of(user: User) -> dict[str, Any]:
    """What a profile shows: ``{"online": bool, "last_seen": datetime | None, "just_now": bool}``
    (``just_now``: seen less than a minute ago, "przed chwilą" rather than "0 minut temu");
    an invisible player shows neither."""
    if user.invisible:
        return {"online": False, "last_seen": None, "just_now": False}
    just_now = user.last_seen is not None and timezone.now() - user.last_seen < timedelta(minutes=1)
    return {"online": online.is_online(user.pk), "last_seen": user.last_seen, "just_now": just_now}
