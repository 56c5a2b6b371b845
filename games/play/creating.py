"""Creating matches (one, or many at once: an arena's wave), and ending or deleting many at
once (computer-match caps, stale guests)."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games import catalogue, hooks
from games.models import BLUE, PINK, Match, Move
from kropki_site.lib.refusals import Refusal

from . import core, finishing, guard


def match_create(
    *,
    variant: str,
    pink_id: int | None,
    blue_id: int | None,
    rated: bool = False,
    bot_level: str = "",
    params: dict[str, Any] | None = None,
    days: int | None = None,
    now: datetime | None = None,
) -> Match:
    """Start a match. Exactly one side may be the computer (its user id None, ``bot_level`` set).
    ``params``: the engine's parameters of a game with options (``catalogue.game_params``),
    which is casual: Refusal ``options_are_casual`` for a rated one. ``days``: a correspondence
    game's days a move (``catalogue.CORRESPONDENCE_DAYS``), between people only."""
    if variant not in catalogue.variant_keys():
        raise Refusal("unknown_variant")
    if params and rated:
        raise Refusal("options_are_casual")
    if days is not None and (days not in catalogue.CORRESPONDENCE_DAYS or bot_level):
        raise Refusal("bad_days")
    if bot_level:
        if (pink_id is None) == (blue_id is None):
            raise ValueError("a computer match needs exactly one human")
        rated = False  # computer matches are never rated
    elif pink_id is None or blue_id is None or pink_id == blue_id:
        raise ValueError("a match needs two different players")
    now = now or timezone.now()
    with transaction.atomic():
        match = Match(
            variant=variant,
            params=params or {},
            days=days,
            pink_id=pink_id,
            blue_id=blue_id,
            rated=rated,
            bot_level=bot_level,
        )
        state = match.game().new_initial_state()
        core.set_turn(match, state, now)
        match.position_key = guard.match_key(match, state)  # "" in the exempt opening
        match.save()
        core.queue_computer_turn(match)
        core.broadcast_on_commit(match, "created")
        if not bot_level:  # the players' followers hear of it (games.hooks.matches_started)
            transaction.on_commit(lambda: hooks.run_matches_started([match]))
        if bot_level:
            computer_matches_trim(user_ids=[pink_id or blue_id], keep=settings.COMPUTER_MATCHES_PER_USER, now=now)
    return match


def matches_create_many(
    *,
    variant: str,
    pairs: list[tuple[int, int]],
    rated: bool = False,
    tournament_id: int | None = None,
    move_seconds: int | None = None,
    params: dict[str, Any] | None = None,
    now: datetime,
) -> list[Match]:
    """Start many matches between people at once, each ``(pink, blue)`` of ``pairs`` (an
    arena's wave: hundreds at a time), as ``match_create`` starts one: ACTIVE at ply 0, the
    first turn's deadline set; after commit each match's sockets hear ``created`` (one
    pipelined publish for all). A player is in one pair at most.

    The rows differ only in their players, so each column's value is prepared once and the
    rows go in one ``executemany`` (Django's ``bulk_create`` prepares every field of every
    row: most of a 1,000-player wave's time), then are found again by their moment ``now``
    (give each call its own) and pink player."""
    if variant not in catalogue.variant_keys():
        raise Refusal("unknown_variant")
    players = [uid for pair in pairs for uid in pair]
    if len(set(players)) != len(players):
        raise ValueError("a player is in one new match at most, against another player")
    if not pairs:
        return []
    if params and rated:
        raise Refusal("options_are_casual")
    template = Match(
        variant=variant,
        params=params or {},
        rated=rated,
        tournament_id=tournament_id,
        move_seconds=move_seconds,
        created_at=now,
    )
    state = template.game().new_initial_state()
    core.set_turn(template, state, now)
    template.position_key = guard.match_key(template, state)  # the live-position guard's ("" in the opening)
    fields = [f for f in Match._meta.concrete_fields if not f.primary_key]
    prepared = []
    for f in fields:
        value = now if f.name == "created_at" else f.pre_save(template, add=False)
        prepared.append(f.get_db_prep_save(value, connection))
    columns = [str(f.column) for f in fields]
    pink_at, blue_at = columns.index("pink_id"), columns.index("blue_id")
    rows = []
    for pink, blue in pairs:
        row = list(prepared)
        row[pink_at], row[blue_at] = pink, blue
        rows.append(row)
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(Match._meta.db_table), ", ".join(quote(c) for c in columns), ", ".join(["%s"] * len(columns))
    )
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.executemany(sql, rows)
        made = Match.objects.filter(created_at=now, variant=variant, ply=0)
        made = made.filter(tournament_id=tournament_id) if tournament_id else made.filter(tournament__isnull=True)
        ids = dict(made.values_list("pink_id", "pk"))
        template._state.adding = False
        matches = []
        for pink, blue in pairs:
            match = copy.copy(template)  # a model's copy has its own _state
            match.pk, match.pink_id, match.blue_id = ids[pink], pink, blue
            matches.append(match)
        core.broadcast_many_on_commit(matches, "created")
        transaction.on_commit(lambda: hooks.run_matches_started(matches))
    return matches


def computer_matches_trim(*, user_ids: Any, keep: int, now: datetime | None = None) -> list[int]:
    """Abandon the oldest unfinished computer matches of ``user_ids`` beyond the
    newest ``keep`` (docs/bots.md, "Limits"): each ends as aborted (no result;
    computer matches are never rated), its sockets hear "finished", and a
    computer move still queued for it finds it over and does nothing.
    Returns the ids it ended."""
    ids = [pk for pk in user_ids if pk is not None]
    if not ids:
        return []
    now = now or timezone.now()
    ended = []
    with transaction.atomic():
        over = list(
            Match.objects.filter(Q(pink_id__in=ids) | Q(blue_id__in=ids), status=Match.Status.ACTIVE)
            .exclude(bot_level="")
            .order_by("-created_at", "-pk")
            .values_list("pk", flat=True)[keep:]
        )
        for match_id in over:
            match = core.lock(match_id)
            if match.is_active:
                finishing.finish(
                    match, status=Match.Status.ABORTED, winner=None, reason=Match.EndReason.ABORTED, now=now
                )
                ended.append(match_id)
    return ended


def matches_delete_unfinished_of(*, user_ids: list[int]) -> int:
    """Delete the matches of ``user_ids`` that never got a result (aborted, or
    still active), with their moves: only for deleting stale guests
    (accounts/guests.py), whose finished matches keep them. Returns how many."""
    matches = Match.objects.filter(Q(pink_id__in=user_ids) | Q(blue_id__in=user_ids)).exclude(
        status=Match.Status.FINISHED
    )
    return matches.delete()[1].get(Match._meta.label, 0)


def computer_matches_delete_unplayed(*, now: datetime | None = None, hours: int | None = None, batch: int = 500) -> int:
    """Delete aborted computer matches in which the human never moved, ended more than
    ``hours`` (UNPLAYED_COMPUTER_MATCH_HOURS, 24) ago (beat, hourly; issue 24, item 16):
    a flood of starts leaves nothing worth a record. Returns how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.UNPLAYED_COMPUTER_MATCH_HOURS if hours is None else hours)
    human_moved = Move.objects.filter(match=OuterRef("pk"), by_timeout=False).filter(
        Q(player=BLUE, match__pink__isnull=True) | Q(player=PINK, match__blue__isnull=True)
    )
    unplayed = (
        Match.objects.filter(status=Match.Status.ABORTED, finished_at__lt=cutoff)
        .exclude(bot_level="")
        .filter(~Exists(human_moved))
        .values_list("pk", flat=True)
    )
    deleted = 0
    while True:
        ids = list(unplayed[:batch])
        if not ids:
            return deleted
        deleted += Match.objects.filter(pk__in=ids).delete()[1].get(Match._meta.label, 0)
