"""The home page's and the site socket's reads: who plays and watches now, who is online."""

from __future__ import annotations

import logging
from typing import Any

from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse

from accounts.models import User
from games import catalogue
from games.live import online, presence
from games.models import Match
from ratings.models import Rating
from ratings.selectors import rating_for

log = logging.getLogger(__name__)


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
            "key": match.variant,
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


def home_frame() -> dict[str, Any]:
    """The ``home`` frame: the home page's "Right now" (``live_summary``), each game's variant as its
    key (the page words it in its own language), for every page watching it (issue 38)."""
    live = live_summary()
    return {
        "type": "home",
        "playing": live["playing"],
        "watching": live["watching"],
        "matches": [[m["url"], m["key"], m["pink"], m["blue"]] for m in live["matches"]],
    }


def online_frame() -> dict[str, Any]:
    """The ``online`` frame of the site socket (docs/protocol.md "Site socket")."""
    return {"type": "online", "players": online_players()}
