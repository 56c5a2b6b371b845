"""Arenas (docs/tournaments.md): making them (players and the schedule), joining,
withdrawing, berserk, and the pairing waves that also start and end them.

The only code that creates Tournament rows or changes a player's line outside scoring
(``scoring.py``, which hears the one door out). The pairing runs in one place: the wave,
sent by beat every TOURNAMENT_PAIR_SECONDS (2 s), serialised by a transaction-scoped advisory lock on
PostgreSQL (SQLite's single writer does it there), reading the free players with
``select_for_update(skip_locked=True)`` so a player withdrawing at that moment is left
out, as the ranked queue's rounds do (games/play/matchmaking.py).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from accounts.models import Block, User
from games import catalogue, hooks
from games.models import PINK, Match
from games.play import core, creating, trust
from games.play.drain import drain_started
from kropki_site.lib.refusals import Refusal
from ratings.selectors import user_ratings

from . import scoring
from .models import Tournament, TournamentPlayer, TournamentSchedule

MOVE_CLOCKS = (20, 30, 60)
# Issue 38: 5 minutes at the shortest (a club's quick arena, a client's test: two or three games of
# 20 s a move), starting in a minute at the soonest; the schedule's stay 50 minutes and more.
MIN_MINUTES, MAX_MINUTES = 5, 180
DURATIONS = (5, 10, 15, 30, 45, 60, 90, 120, 180)  # the form's choices (any whole minute in range is taken)
START_DELAYS = (1, 5, 10, 15, 30, 60, 120)  # minutes from now a player-made one may start
# Player-made: at most this many not finished at once, and made per day, per creator.
OPEN_PER_CREATOR = 2
MADE_PER_DAY = 5
SCHEDULE_AHEAD = timedelta(hours=6)  # beat makes scheduled arenas this far ahead
PAIR_REACH = 6  # a player is paired with one of the next few free in the standings
# Issue 38: two who just played meet again only when neither has found anyone else for this many
# waves (a two-player arena plays game after game; a bigger one prefers new opponents, as lichess).
REMATCH_AFTER_WAVES = 3

_ADVISORY_KEY = 0x4B52544E  # "KRTN": one wave at a time (PostgreSQL)


def _require_account(user: User | AnonymousUser | None) -> User:
    if user is None or not user.is_authenticated:
        raise Refusal("login_required")
    if getattr(user, "is_guest", False):
        raise Refusal("tournament_account")
    if getattr(user, "is_bot", False):
        raise Refusal("tournament_bot")
    assert isinstance(user, User)
    return user


# -- making them ---------------------------------------------------------------


def maker_check(
    user: User | AnonymousUser | None,
    *,
    variant: str,
    settings_ok: bool,
    rated: bool,
    public: bool,
    options: Mapping[str, object] | None = None,
) -> tuple[User, dict[str, Any]]:
    """What every player-made tournament (an arena, a Swiss) asks of its maker and its form: an
    account, a known variant, the format's settings among its choices, the games' own settings
    (``options``: the forms' "<game>-<option>" fields) in a casual one only; a public (listed) or
    rated one needs an established account (the home page and the list show it: a fresh account,
    one of many a visitor can make, makes private ones only, reached by their link), a rated one
    an unmarked account. The maker, and the games' engine parameters (``Match.params``)."""
    creator = _require_account(user)
    if variant not in catalogue.variant_keys():
        raise Refusal("unknown_variant")
    if not settings_ok:
        raise Refusal("tournament_bad_settings")
    params = catalogue.game_params(variant, options or {})
    if params and rated:
        raise Refusal("options_are_casual")
    if rated or public:
        trust.require_established(creator.pk)
    if rated:
        trust.require_unmarked(creator.pk)
    return creator, params


def maker_limits(creator: User, made: QuerySet[Any], finished: str, now: datetime) -> None:
    """A maker's limits of one format (``made``: its tournaments of that format): OPEN_PER_CREATOR
    not finished at once, MADE_PER_DAY a day. In the creating transaction: the maker's row is
    locked first, so two creations of theirs are counted one after the other."""
    User.objects.select_for_update().filter(pk=creator.pk).first()
    if made.exclude(status=finished).count() >= OPEN_PER_CREATOR:
        raise Refusal("tournament_too_many")
    if made.filter(created_at__gte=now - timedelta(days=1)).count() >= MADE_PER_DAY:
        raise Refusal("tournament_too_often")


def tournament_create(
    *,
    user: User | AnonymousUser | None,
    variant: str,
    start_in_minutes: int,
    minutes: int,
    move_seconds: int = 60,
    rated: bool = True,
    public: bool = True,
    name: str = "",
    options: Mapping[str, object] | None = None,
    now: datetime | None = None,
) -> Tournament:
    """A player-made arena (accounts only; OPEN_PER_CREATOR at once, MADE_PER_DAY a day);
    ``options``: its games' own settings (``maker_check``)."""
    settings_ok = start_in_minutes in START_DELAYS and move_seconds in MOVE_CLOCKS
    creator, params = maker_check(
        user,
        variant=variant,
        settings_ok=settings_ok and MIN_MINUTES <= minutes <= MAX_MINUTES,
        rated=rated,
        public=public,
        options=options,
    )
    now = now or timezone.now()
    name = tournament_name_clean(name) or f"Arena {creator.username}"
    with transaction.atomic():
        maker_limits(creator, Tournament.objects.filter(creator=creator), Tournament.Status.FINISHED, now)
        starts = now + timedelta(minutes=start_in_minutes)
        return Tournament.objects.create(
            name=name,
            variant=variant,
            params=params,
            starts_at=starts,
            ends_at=starts + timedelta(minutes=minutes),
            minutes=minutes,
            move_seconds=move_seconds,
            rated=rated,
            public=public,
            creator=creator,
        )


# Dropped from an arena's name: control characters, unassigned and private-use ones, and every
# format character (Unicode's "Cf": the bidirectional embeddings, overrides and isolates U+202A-E and
# U+2066-9, the marks U+200E/F, zero-width spaces and joiners), which reorder or hide the text around it.
_NAME_DROPPED = frozenset(("Cc", "Cf", "Co", "Cn"))
# What shows nothing by itself: a name of only these (after the above) is refused.
_NAME_UNSEEN = frozenset(("Mn", "Me", "Zs", "Zl", "Zp"))


def tournament_name_clean(name: str) -> str:
    """An arena's name as stored (at most 80 characters): invisible and reordering characters
    dropped, white space made single spaces. "" for an empty name (the caller's default);
    Refusal ``tournament_bad_name`` for one that had text but shows nothing once cleaned."""
    kept = "".join(ch for ch in name if unicodedata.category(ch) not in _NAME_DROPPED)
    kept = " ".join(kept.split())[:80].strip()
    if name.strip() and not any(unicodedata.category(ch) not in _NAME_UNSEEN for ch in kept):
        raise Refusal("tournament_bad_name")
    return kept


def _occurrences(row: TournamentSchedule, now: datetime, until: datetime) -> list[datetime]:
    """The starts of ``row`` in [now, until), in local time (Europe/Warsaw)."""
    local = timezone.localtime(now).replace(second=0, microsecond=0)
    found = []
    if row.every == TournamentSchedule.Every.HOUR:
        t = local.replace(minute=row.minute)
        step = timedelta(hours=1)
    else:
        t = local.replace(hour=row.hour, minute=row.minute)
        step = timedelta(days=1)
    t -= step
    while t < until:
        if t >= now and (row.every != TournamentSchedule.Every.WEEK or t.weekday() == row.weekday):
            found.append(t)
        t = timezone.localtime(t + step)
    return found


def tournaments_schedule(*, now: datetime | None = None) -> list[Tournament]:
    """Make the scheduled arenas starting within SCHEDULE_AHEAD (beat, every minute);
    one per schedule row and start (a unique constraint: beat may run this twice)."""
    now = now or timezone.now()
    keys = catalogue.variant_keys()
    made = []
    for row in TournamentSchedule.objects.filter(active=True).order_by("pk"):
        for start in _occurrences(row, now, now + SCHEDULE_AHEAD):
            variant = row.variant or keys[int(start.timestamp() // 3600) % len(keys)]
            if variant not in keys:
                continue
            name = row.name if row.variant else f"{row.name}: {catalogue.variant_name(variant)}"
            try:
                with transaction.atomic():
                    tournament, created = Tournament.objects.get_or_create(
                        schedule=row,
                        starts_at=start,
                        defaults={
                            "name": name[:80],
                            "variant": variant,
                            "ends_at": start + timedelta(minutes=row.minutes),
                            "minutes": row.minutes,
                            "move_seconds": row.move_seconds,
                            "rated": row.rated,
                        },
                    )
            except IntegrityError:  # another beat made it a moment ago
                continue
            if created:
                made.append(tournament)
    return made


# -- players -------------------------------------------------------------------


def _entry(tournament_id: Any, user_id: int) -> TournamentPlayer:
    entry = (
        TournamentPlayer.objects.select_for_update()
        .select_related("tournament")
        .filter(tournament_id=tournament_id, user_id=user_id)
        .first()
    )
    if entry is None:
        raise Refusal("tournament_not_joined")
    return entry


def _tournament(tournament_id: Any) -> Tournament:
    try:
        return Tournament.objects.get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise Refusal("tournament_not_found") from None


def tournament_join(
    *, tournament_id: Any, user: User | AnonymousUser | None, now: datetime | None = None
) -> TournamentPlayer:
    """Join (before or during), or come back after a pause. Accounts only; a rated arena
    needs an established account; a finished one is refused."""
    player = _require_account(user)
    now = now or timezone.now()
    tournament = _tournament(tournament_id)
    if tournament.status == Tournament.Status.FINISHED or now >= tournament.ends_at:
        raise Refusal("tournament_finished")
    if tournament.rated:
        trust.require_established(player.pk)
    # A marked account is in no arena's standings and never paired (docs/fairplay.md), so it
    # joins none, rated or not.
    trust.require_unmarked(player.pk)
    with transaction.atomic():
        entry = TournamentPlayer.objects.select_for_update().filter(tournament=tournament, user=player).first()
        if entry is None:
            rating = user_ratings(player, [tournament.variant])[tournament.variant].rating
            try:
                with transaction.atomic():
                    entry = TournamentPlayer.objects.create(
                        tournament=tournament, user=player, rating=rating, joined_at=now
                    )
            except IntegrityError:  # the same player joined in another request just now
                entry = TournamentPlayer.objects.get(tournament=tournament, user=player)
        elif entry.paused:
            entry.paused = False
            entry.timeouts_in_row = 0
            entry.save(update_fields=["paused", "timeouts_in_row"])
        scoring.publish_on_commit(tournament)
    return entry


def tournament_withdraw(*, tournament_id: Any, user: User | AnonymousUser | None) -> TournamentPlayer:
    """Pause: no new games until the player comes back (their points stay). Refused while
    they play a game of the arena (finish it first)."""
    player = _require_account(user)
    with transaction.atomic():
        entry = _entry(tournament_id, player.pk)
        if entry.tournament.status == Tournament.Status.FINISHED:
            raise Refusal("tournament_finished")
        if entry.match_id is not None:
            raise Refusal("tournament_in_game")
        if not entry.paused:
            entry.paused = True
            entry.save(update_fields=["paused"])
        scoring.publish_on_commit(entry.tournament)
    return entry


def game_opened(match_id: int, user_id: int) -> None:
    """A player opened their match's socket (the ``player_opened`` hook): if it is their arena game,
    they have seen it, so its first move missed is their timeout (issue 38). One UPDATE, by the
    line's match index; nothing for any other match."""
    TournamentPlayer.objects.filter(match_id=match_id, user_id=user_id, match_seen=False).update(match_seen=True)


def withdraw_deleted(user_id: int) -> None:
    """The player deleted their account (the ``account_deleted`` hook, in that transaction, their
    games already resigned): paused in every arena not over, for good (an inactive account cannot
    come back, and the wave pairs no deleted account); their line stays in the standings, nameless."""
    lines = TournamentPlayer.objects.filter(user_id=user_id).exclude(tournament__status=Tournament.Status.FINISHED)
    arena_ids = list(lines.values_list("tournament_id", flat=True))
    lines.update(paused=True, match=None)
    for tournament in Tournament.objects.filter(pk__in=arena_ids):
        scoring.publish_on_commit(tournament)


def tournament_berserk(*, match_id: Any, user: User | AnonymousUser | None, now: datetime | None = None) -> Match:
    """Halve the player's move clock for this arena game, for a point more on a win with at
    least 7 own moves. Only before their first move, and once."""
    player = _require_account(user)
    now = now or timezone.now()
    with transaction.atomic():
        match = core.lock(match_id)
        side = core.side_of_user(match, player.pk)
        if match.tournament_id is None:
            raise Refusal("berserk_not_tournament")
        core.require_active(match)
        if match.berserk_of(side):
            raise Refusal("berserk_twice")
        if core.has_moved(match, side):
            raise Refusal("berserk_too_late")
        fields = ["pink_berserk" if side == PINK else "blue_berserk"]
        setattr(match, fields[0], True)
        if match.to_move == side and match.turn_deadline is not None:
            # Their turn is running: it ends no later than half a clock from now.
            match.turn_deadline = min(match.turn_deadline, now + core.move_time(match, side))
            fields.append("turn_deadline")
        match.save(update_fields=fields)
        core.broadcast_on_commit(match, "clock", berserk=side)  # the new deadline; who went berserk
        tournament = Tournament.objects.get(pk=match.tournament_id)
        scoring.publish_on_commit(tournament)
    return match


# -- the wave --------------------------------------------------------------------


def _serialise_waves() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_ADVISORY_KEY])


def _blocked_pairs(user_ids: QuerySet[TournamentPlayer, Any]) -> set[frozenset[int]]:
    """Pairs among ``user_ids`` (a subquery) of which one blocked the other (any time: an arena
    never pairs them)."""
    rows = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids)
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


class _Free(NamedTuple):
    """A free player of the wave: who, and whom they played last."""

    user_id: int
    last_opponent_id: int | None
    name: str  # their username: the opponent's ``tournament_paired`` names them (read in the same join)


def _choose_pairs(
    free: list[_Free], apart: set[frozenset[int]], rematch_ok: set[frozenset[int]] | None = None
) -> list[tuple[_Free, _Free]]:
    """Greedy from the top of the standings: each free player with the nearest free one
    below them (within PAIR_REACH) who is not their last opponent (either way) and not a
    blocked pair. ``free`` is in standings order (points, then rating). Then the players left
    over meet their last opponent again if that pair is in ``rematch_ok`` (both left over, it
    waited REMATCH_AFTER_WAVES: issue 38, a two-player arena's second game)."""
    taken: set[int] = set()
    pairs = []
    for i, a in enumerate(free):
        if a.user_id in taken:
            continue
        reach = 0
        for b in free[i + 1 :]:
            if b.user_id in taken:
                continue
            reach += 1
            if reach > PAIR_REACH:
                break
            if a.last_opponent_id == b.user_id or b.last_opponent_id == a.user_id:
                continue
            if frozenset((a.user_id, b.user_id)) in apart:
                continue
            taken.update((a.user_id, b.user_id))
            pairs.append((a, b))
            break
    for i, a in enumerate(free):
        if a.user_id in taken or not rematch_ok:
            continue
        for b in free[i + 1 :]:
            pair = frozenset((a.user_id, b.user_id))
            if b.user_id not in taken and pair in rematch_ok and pair not in apart:
                taken.update(pair)
                pairs.append((a, b))
                break
    return pairs


def _rematches_waited(tournament: Tournament, left: list[_Free], now: datetime) -> set[frozenset[int]]:
    """Of the players no new opponent was found for, the pairs of last opponents whose last game
    ended REMATCH_AFTER_WAVES waves ago or more: one query, over the few left over."""
    pairs = {
        frozenset((p.user_id, p.last_opponent_id))
        for p in left
        if p.last_opponent_id is not None and any(q.user_id == p.last_opponent_id for q in left)
    }
    if not pairs:
        return set()
    wait = timedelta(seconds=REMATCH_AFTER_WAVES * float(settings.TOURNAMENT_PAIR_SECONDS))
    ids = {uid for pair in pairs for uid in pair}
    last: dict[frozenset[int], datetime] = {}
    rows = Match.objects.filter(tournament=tournament, pink_id__in=ids, blue_id__in=ids).exclude(
        status=Match.Status.ACTIVE
    )
    for pink, blue, ended in rows.values_list("pink_id", "blue_id", "finished_at"):
        key = frozenset((pink, blue))
        if key in pairs and ended is not None and (key not in last or ended > last[key]):
            last[key] = ended
    return {pair for pair in pairs if pair not in last or last[pair] <= now - wait}


def _finish(tournament: Tournament) -> None:
    """The clock reached zero: freeze the standings (each player's final place; a fair-play-marked
    account has none, docs/fairplay.md)."""
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    players = list(
        TournamentPlayer.objects.filter(tournament=tournament, user__fair_play_mark="").order_by(
            "-points", "-performance", "joined_at", "pk"
        )
    )
    for rank, p in enumerate(players, start=1):
        p.rank = rank
    TournamentPlayer.objects.bulk_update(players, ["rank"], batch_size=500)
    scoring.publish_on_commit(tournament)


def _withdraw_bots(tournament: Tournament) -> None:
    """A bot never plays in an arena (SPEC "Games that count"): joining refuses one, and an
    account that joined as a person and became a bot before playing is withdrawn here (paused,
    and a bot cannot come back)."""
    TournamentPlayer.objects.filter(tournament=tournament, user__is_bot=True, paused=False).update(paused=True)


def _pair_one(tournament: Tournament, now: datetime, *, clock_given: bool = False) -> list[Match]:
    """Pair the free players of one running arena. The matches are dated when they are made,
    after the free players were read (``now`` itself when the caller gave the time): dated at
    the wave's start, a match began before its player's last game had ended (the wave waits
    for the advisory lock and reads while other games finish), and its first turn lost that
    time."""
    _withdraw_bots(tournament)
    free = [
        _Free(*row)  # plain tuples: a thousand model instances were a fifth of a wave
        # A fair-play-marked account is never paired (docs/fairplay.md): its line stays, out of play.
        # of=("self",): the join reads the users' marks without locking their rows. Bots: paused just now.
        for row in TournamentPlayer.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(
            tournament=tournament, paused=False, match__isnull=True, user__fair_play_mark="", user__is_deleted=False
        )
        .order_by("-points", "-rating", "pk")
        .values_list("user_id", "last_opponent_id", "user__username")
    ]
    if len(free) < 2:
        return []
    # A player in a game against a person anywhere on the site (this arena's, another's, a
    # ranked or challenge match) is not free: nobody plays two people at once.
    # (The free players as a subquery, not a list: a thousand bound ids cost Django more than the query.)
    free_ids = TournamentPlayer.objects.filter(tournament=tournament, paused=False, match__isnull=True).values(
        "user_id"
    )
    busy = Match.objects.filter(
        Q(pink_id__in=free_ids) | Q(blue_id__in=free_ids), status=Match.Status.ACTIVE, bot_level=""
    ).values_list("pink_id", "blue_id")
    busy_ids = {uid for pair in busy for uid in pair}
    free = [p for p in free if p.user_id not in busy_ids]
    apart = _blocked_pairs(free_ids)
    pairs = _choose_pairs(free, apart)
    paired_ids = {p.user_id for pair in pairs for p in pair}
    left = [p for p in free if p.user_id not in paired_ids]
    if len(left) >= 2:  # nobody new for them: their last opponent again, after a wait
        rematch_ok = _rematches_waited(tournament, left, now)
        if rematch_ok:
            pairs = _choose_pairs(free, apart, rematch_ok)  # the same first pass, then the rematches
    if not pairs:
        return []
    colours = [(a.user_id, b.user_id) if random.random() < 0.5 else (b.user_id, a.user_id) for a, b in pairs]
    matches = creating.matches_create_many(
        variant=tournament.variant,
        params=tournament.params,
        pairs=colours,
        rated=tournament.rated,
        tournament_id=tournament.pk,
        move_seconds=tournament.move_seconds,
        now=now if clock_given else timezone.now(),
    )
    # Each paired line points at its new match: one executemany of a keyed UPDATE (Django's
    # bulk_update writes a CASE of a thousand branches; a subquery per line was slower too).
    quote = connection.ops.quote_name
    table = TournamentPlayer._meta.db_table
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {quote(table)} SET {quote('match_id')} = %s, {quote('match_seen')} = FALSE"
            f" WHERE {quote('tournament_id')} = %s AND {quote('user_id')} = %s",
            [(m.pk, tournament.pk, uid) for m in matches for uid in (m.pink_id, m.blue_id)],
        )
    names: dict[int | None, str] = {p.user_id: p.name for pair in pairs for p in pair}
    told = [(m.pink_id, m.pk, names.get(m.blue_id, "")) for m in matches] + [
        (m.blue_id, m.pk, names.get(m.pink_id, "")) for m in matches
    ]
    scoring.publish_on_commit(tournament, paired=told)
    return matches


# A joined tournament's players hear this many minutes before it starts (games/notifications).
SOON_MINUTES = 5


def tell_soon(tournaments: QuerySet[Any], entrants: Callable[[Any], list[int]], page: str, kind: str) -> None:
    """The ``entrants`` of each of ``tournaments`` (upcoming, not told yet, locked) hear it starts
    soon, once (games/notifications: the list, an e-mail); ``page``: the URL name of its page."""
    for t in tournaments:
        url = reverse(page, args=[t.pk]) + ("" if t.public else f"?klucz={t.token}")
        hooks.notice(entrants(t), "tournament_soon", {"name": t.name, "url": url}, key=f"{kind}:{t.pk}")
        t.told_soon = True
        t.save(update_fields=["told_soon"])


def _tell_soon(now: datetime) -> None:
    """The players of each arena starting within SOON_MINUTES hear it."""
    tell_soon(
        Tournament.objects.select_for_update().filter(
            status=Tournament.Status.UPCOMING, told_soon=False, starts_at__lte=now + timedelta(minutes=SOON_MINUTES)
        ),
        lambda t: list(TournamentPlayer.objects.filter(tournament=t, paused=False).values_list("user_id", flat=True)),
        "tournament",
        "arena",
    )


def tournaments_pair(*, now: datetime | None = None) -> list[Match]:
    """One wave: start the arenas whose time came, end those whose clock reached zero, and
    pair the free players of every running one. Returns the new matches."""
    if drain_started() is not None:  # a planned restart: the wave waits for the new version
        return []
    clock_given = now is not None
    matches: list[Match] = []
    with transaction.atomic():
        _serialise_waves()
        now = now or timezone.now()  # after the wait for another wave
        _tell_soon(now)
        for t in Tournament.objects.select_for_update().filter(
            Q(status=Tournament.Status.UPCOMING, starts_at__lte=now)
            | Q(status=Tournament.Status.RUNNING, ends_at__lte=now)
        ):
            if now >= t.ends_at:
                _finish(t)
            else:
                t.status = Tournament.Status.RUNNING
                t.save(update_fields=["status"])
                scoring.publish_on_commit(t)
        for t in Tournament.objects.filter(status=Tournament.Status.RUNNING, ends_at__gt=now):
            matches += _pair_one(t, now, clock_given=clock_given)
    return matches


__all__ = [
    "game_opened",
    "tournament_berserk",
    "tournament_create",
    "tournament_join",
    "tournament_name_clean",
    "tournament_withdraw",
    "tournaments_pair",
    "tournaments_schedule",
    "withdraw_deleted",
]
