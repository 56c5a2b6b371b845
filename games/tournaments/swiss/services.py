"""Swiss tournaments (docs/tournaments.md "Swiss"): making them, joining, withdrawing, the
tick that starts, pairs and ends them, and a board's result (the ``after_finish`` hook).

The only code that writes the Swiss rows. The tick (beat, every TOURNAMENT_PAIR_SECONDS, the
arenas' wave period) runs in one transaction under a PostgreSQL advisory lock of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from itertools import groupby
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.live import transport
from games.models import BLUE, PINK, Match, Move
from games.play import creating, trust
from kropki_site.lib.refusals import Refusal
from ratings.selectors import user_ratings

from ..services import (
    SOON_MINUTES,
    _require_account,
    maker_check,
    maker_limits,
    tell_soon,
    tournament_name_clean,
)
from . import pairing
from .models import SwissBoard, SwissPlayer, SwissTournament
from .selectors import paired_frame, swiss_frame
from .standings import Result, standings

ROUNDS = (3, 4, 5, 6, 7, 8, 9)
MOVE_CLOCKS = (20, 30, 60)
PAUSES = (10, 30, 60, 120)  # seconds between a round's end and the next
START_DELAYS = (5, 10, 15, 30, 60, 120)  # minutes
MAX_PLAYERS = 1000
JOIN_UNTIL_ROUND = 2  # late joining: until round 2 is paired
NO_SHOWS_TO_WITHDRAW = 2
WIN, DRAW, LOSS = 2, 1, 0  # half points

_ADVISORY_KEY = 0x4B525357  # "KRSW": one tick at a time (PostgreSQL)


def swiss_create(
    *,
    user: User | AnonymousUser | None,
    variant: str,
    rounds: int,
    start_in_minutes: int,
    move_seconds: int = 60,
    pause_seconds: int = 30,
    rated: bool = True,
    public: bool = True,
    name: str = "",
    options: Mapping[str, object] | None = None,
    now: datetime | None = None,
) -> SwissTournament:
    """A player-made Swiss (the arenas' rules: accounts; a public or rated one needs an
    established account; the arenas' OPEN_PER_CREATOR at once and MADE_PER_DAY a day, counted apart from arenas)."""
    settings_ok = (
        rounds in ROUNDS
        and start_in_minutes in START_DELAYS
        and move_seconds in MOVE_CLOCKS
        and pause_seconds in PAUSES
    )
    creator, params = maker_check(
        user, variant=variant, settings_ok=settings_ok, rated=rated, public=public, options=options
    )
    now = now or timezone.now()
    name = tournament_name_clean(name) or f"Swiss {creator.username}"
    with transaction.atomic():
        maker_limits(creator, SwissTournament.objects.filter(creator=creator), SwissTournament.Status.FINISHED, now)
        return SwissTournament.objects.create(
            name=name,
            variant=variant,
            params=params,
            rounds=rounds,
            starts_at=now + timedelta(minutes=start_in_minutes),
            move_seconds=move_seconds,
            pause_seconds=pause_seconds,
            rated=rated,
            public=public,
            creator=creator,
        )


def _swiss(tournament_id: Any) -> SwissTournament:
    try:
        return SwissTournament.objects.select_for_update().get(pk=tournament_id)
    except (SwissTournament.DoesNotExist, ValueError, TypeError):
        raise Refusal("tournament_not_found") from None


def swiss_join(*, tournament_id: Any, user: User | AnonymousUser | None, now: datetime | None = None) -> SwissPlayer:
    """Join before round JOIN_UNTIL_ROUND is paired (a late joiner scores nothing for the
    rounds before), or come back after withdrawing within that time."""
    player = _require_account(user)
    now = now or timezone.now()
    trust.require_unmarked(player.pk)
    with transaction.atomic():
        t = _swiss(tournament_id)
        if t.status == SwissTournament.Status.FINISHED or t.current_round >= JOIN_UNTIL_ROUND:
            raise Refusal("swiss_closed")
        if t.rated:
            trust.require_established(player.pk)
        entry = SwissPlayer.objects.filter(tournament=t, user=player).first()
        if entry is None:
            count = SwissPlayer.objects.filter(tournament=t).count()
            if count >= MAX_PLAYERS:
                raise Refusal("swiss_full")
            rating = user_ratings(player, [t.variant])[t.variant].rating
            try:
                with transaction.atomic():
                    entry = SwissPlayer.objects.create(
                        tournament=t, user=player, rating=rating, number=count + 1, joined_at=now
                    )
            except IntegrityError:
                entry = SwissPlayer.objects.get(tournament=t, user=player)
        elif entry.withdrawn:
            entry.withdrawn = False
            entry.no_shows_in_row = 0
            entry.save(update_fields=["withdrawn", "no_shows_in_row"])
        _publish_on_commit(t)
    return entry


def swiss_withdraw(*, tournament_id: Any, user: User | AnonymousUser | None) -> SwissPlayer:
    """Withdraw: not paired from the next round on (a game in progress is played out; the
    points so far stay in the standings)."""
    player = _require_account(user)
    with transaction.atomic():
        t = _swiss(tournament_id)
        entry = SwissPlayer.objects.select_for_update().filter(tournament=t, user=player).first()
        if entry is None:
            raise Refusal("tournament_not_joined")
        if t.status == SwissTournament.Status.FINISHED:
            raise Refusal("tournament_finished")
        if not entry.withdrawn:
            entry.withdrawn = True
            entry.save(update_fields=["withdrawn"])
        _publish_on_commit(t)
    return entry


def withdraw_deleted(user_id: int) -> None:
    """A deleted account (the ``account_deleted`` hook): withdrawn from every Swiss not over."""
    SwissPlayer.objects.filter(user_id=user_id).exclude(tournament__status=SwissTournament.Status.FINISHED).update(
        withdrawn=True
    )


# -- the rounds ----------------------------------------------------------------------


def _entrants(t: SwissTournament) -> list[pairing.Entrant]:
    """The players of the next round with their history (withdrawn, deleted, fair-play-marked
    and bot accounts are not paired): opponents, colours, floats, byes, rounds missed."""
    lines = list(
        SwissPlayer.objects.filter(
            tournament=t, withdrawn=False, user__is_deleted=False, user__fair_play_mark="", user__is_bot=False
        ).values_list("user_id", "score", "rating", "number")
    )
    opponents: dict[int, set[int]] = {uid: set() for uid, *_ in lines}
    colours: dict[int, list[str]] = {uid: [pairing.UNPLAYED] * t.current_round for uid, *_ in lines}
    floats: dict[int, str] = dict.fromkeys(opponents, "")
    seated: dict[int, int] = dict.fromkeys(opponents, 0)
    forfeit_wins: dict[int, int] = dict.fromkeys(opponents, 0)
    byes: set[int] = set()
    points: dict[int, int] = {}  # everyone's points before the round being read
    boards = SwissBoard.objects.filter(tournament=t).order_by("round")
    for rnd, group in groupby(
        boards.values_list("round", "pink_id", "blue_id", "kind", "pink_points", "blue_points"), key=lambda b: b[0]
    ):
        gained: dict[int, int] = {}
        for _, pink, blue, kind, pink_points, blue_points in group:
            gained[pink] = pink_points or 0
            if blue is None:
                byes.add(pink)
                if pink in floats:
                    floats[pink] += pairing.DOWN
                    seated[pink] += 1
                continue
            gained[blue] = blue_points or 0
            played = kind == SwissBoard.Kind.GAME
            pink_float, blue_float = pairing.float_letters(points.get(pink, 0), points.get(blue, 0))
            for me, other, letter, mine in (
                (pink, blue, pairing.PINK, pink_float),
                (blue, pink, pairing.BLUE, blue_float),
            ):
                if me not in opponents:
                    continue
                opponents[me].add(other)
                seated[me] += 1
                if played:
                    colours[me][rnd - 1] = letter
                    floats[me] += mine
                elif gained[me] == WIN:  # a forfeit won: a down float, no bye first
                    floats[me] += pairing.DOWN
                    forfeit_wins[me] += 1
                else:
                    floats[me] += pairing.LEVEL
        for uid, gain in gained.items():
            points[uid] = points.get(uid, 0) + gain
    return [
        pairing.Entrant(
            id=uid,
            score=score,
            rating=rating,
            number=number,
            opponents=frozenset(opponents[uid]),
            colours="".join(colours[uid]),
            had_bye=uid in byes,
            floats=floats[uid],
            missed=t.current_round - seated[uid],
            forfeit_wins=forfeit_wins[uid],
        )
        for uid, score, rating, number in lines
    ]


def _pair_next(t: SwissTournament, now: datetime) -> None:
    entrants = _entrants(t)
    if len(entrants) < 2:
        _finish(t)
        return
    found = pairing.pair_round(entrants, rounds=t.rounds)
    t.current_round += 1
    t.next_round_at = None
    t.save(update_fields=["current_round", "next_round_at"])
    matches = creating.matches_create_many(
        variant=t.variant, params=t.params, pairs=found.pairs, rated=t.rated, move_seconds=t.move_seconds, now=now
    )
    boards = [
        SwissBoard(tournament=t, round=t.current_round, board=n, pink_id=m.pink_id or 0, blue_id=m.blue_id, match=m)
        for n, m in enumerate(matches, start=1)
    ]
    if found.bye is not None:
        boards.append(
            SwissBoard(
                tournament=t,
                round=t.current_round,
                board=len(matches) + 1,
                pink_id=found.bye,
                kind=SwissBoard.Kind.BYE,
                pink_points=WIN,
            )
        )
    SwissBoard.objects.bulk_create(boards)
    standings_write(t)
    prefix = reverse("match", args=[0])[:-2]
    told = [
        (uid, paired_frame(t.pk, t.name, t.current_round, m.pk, f"{prefix}{m.pk}/"))
        for m in matches
        for uid in (m.pink_id, m.blue_id)
        if uid is not None
    ]
    _publish_on_commit(t, frames=told)


def _finish(t: SwissTournament) -> None:
    t.status = SwissTournament.Status.FINISHED
    t.next_round_at = None
    t.save(update_fields=["status", "next_round_at"])
    standings_write(t, final=True)
    _publish_on_commit(t)


def _round_done(t: SwissTournament) -> bool:
    return not SwissBoard.objects.filter(tournament=t, round=t.current_round, pink_points__isnull=True).exists()


def _advance(t: SwissTournament, now: datetime) -> None:
    """Move ``t`` on if its time came: start it, count down to the next round, pair it, end it."""
    if t.status == SwissTournament.Status.UPCOMING:
        if now < t.starts_at:
            return
        t.status = SwissTournament.Status.RUNNING
        t.save(update_fields=["status"])
        _pair_next(t, now)
        return
    if t.status != SwissTournament.Status.RUNNING or not _round_done(t):
        return
    if t.current_round >= t.rounds:
        _finish(t)
    elif t.next_round_at is None:
        t.next_round_at = now + timedelta(seconds=t.pause_seconds)
        t.save(update_fields=["next_round_at"])
        _publish_on_commit(t)
    elif now >= t.next_round_at:
        _pair_next(t, now)


def _tell_soon(now: datetime) -> None:
    """The players of each Swiss starting within SOON_MINUTES hear it (the arenas' ``tell_soon``)."""
    tell_soon(
        SwissTournament.objects.select_for_update().filter(
            status=SwissTournament.Status.UPCOMING,
            told_soon=False,
            starts_at__lte=now + timedelta(minutes=SOON_MINUTES),
        ),
        lambda t: list(SwissPlayer.objects.filter(tournament=t, withdrawn=False).values_list("user_id", flat=True)),
        "swiss",
        "swiss",
    )


def swiss_tick(*, now: datetime | None = None) -> int:
    """Beat's tick: every Swiss whose start, countdown or end came moves on. Returns how many
    tournaments it looked at."""
    now = now or timezone.now()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_ADVISORY_KEY])
        _tell_soon(now)
        due = list(
            SwissTournament.objects.select_for_update().filter(
                status__in=(SwissTournament.Status.UPCOMING, SwissTournament.Status.RUNNING), starts_at__lte=now
            )
        )
        for n, t in enumerate(due):
            # Each its own moment: matches_create_many finds its new rows again by it (and a
            # player may be in two Swiss tournaments of one variant).
            _advance(t, now + timedelta(microseconds=n))
    return len(due)


# -- a board's result ----------------------------------------------------------------


def board_result(match: Match) -> None:
    """The ``after_finish`` hook: a Swiss game's end gives its board a result (docs/tournaments.md
    "Swiss", "Results"). Inside the finishing transaction, under the match's lock."""
    board = SwissBoard.objects.select_for_update().filter(match_id=match.pk).first()
    if board is None or board.done:
        return
    t = SwissTournament.objects.select_for_update().get(pk=board.tournament_id)
    no_show = None
    if match.status == Match.Status.ABORTED:
        moved = set(Move.objects.filter(match=match, by_timeout=False).values_list("player", flat=True))
        no_show = PINK if PINK not in moved else BLUE
        winner: int | None = BLUE if no_show == PINK else PINK
        board.kind = SwissBoard.Kind.FORFEIT
    else:
        winner = match.winner
        if not match.counts:
            board.kind = SwissBoard.Kind.FORFEIT
    if winner is None:
        draw = DRAW if board.kind == SwissBoard.Kind.GAME else LOSS  # an early draw: nothing to either
        board.pink_points = board.blue_points = draw
    else:
        board.pink_points = WIN if winner == PINK else LOSS
        board.blue_points = WIN if winner == BLUE else LOSS
    board.save(update_fields=["kind", "pink_points", "blue_points"])
    for side, uid in ((PINK, board.pink_id), (BLUE, board.blue_id)):
        if uid is None:
            continue
        entry = SwissPlayer.objects.select_for_update().filter(tournament=t, user_id=uid).first()
        if entry is None:
            continue
        entry.no_shows_in_row = entry.no_shows_in_row + 1 if side == no_show else 0
        if entry.no_shows_in_row >= NO_SHOWS_TO_WITHDRAW:
            entry.withdrawn = True
        entry.save(update_fields=["no_shows_in_row", "withdrawn"])
    standings_write(t)
    _advance(t, timezone.now())
    url = reverse("swiss", args=[t.pk])
    back = [
        (uid, {"type": "swiss_game_over", "id": t.pk, "match": match.pk, "url": url})
        for uid in (board.pink_id, board.blue_id)
        if uid
    ]
    _publish_on_commit(t, frames=back)


def standings_write(t: SwissTournament, *, final: bool = False) -> None:
    """Each line's score and tie-breaks from the boards (the boards are the truth); the final
    places when ``final`` (fair-play-marked accounts get none)."""
    lines = list(SwissPlayer.objects.filter(tournament=t).select_related("user"))
    results = []
    for pink, blue, pp, bp, kind in SwissBoard.objects.filter(tournament=t, pink_points__isnull=False).values_list(
        "pink_id", "blue_id", "pink_points", "blue_points", "kind"
    ):
        played = kind == SwissBoard.Kind.GAME
        results.append(Result(pink, blue, pp or 0, played))
        if blue is not None:
            results.append(Result(blue, pink, bp or 0, played))
    table = standings([e.user_id for e in lines], results)
    for e in lines:
        line = table[e.user_id]
        e.score, e.sonneborn_berger, e.buchholz = line.score, line.sonneborn_berger, line.buchholz
    lines.sort(key=lambda e: (-e.score, -e.sonneborn_berger, -e.buchholz, e.number))
    fields = ["score", "sonneborn_berger", "buchholz"]
    if final:
        place = 0
        for e in lines:
            if e.user.fair_play_mark:
                e.rank = None
            else:
                place += 1
                e.rank = place
        fields.append("rank")
    SwissPlayer.objects.bulk_update(lines, fields, batch_size=500)


def _publish_on_commit(t: SwissTournament, *, frames: list[tuple[int, dict[str, Any]]] | None = None) -> None:
    tournament_id = t.pk

    def send() -> None:
        fresh = SwissTournament.objects.filter(pk=tournament_id).first()
        if fresh is None:
            return
        frame = swiss_frame(fresh)
        # The pages watching it (``watch_swiss``: any visitor it may be shown to), and the
        # players' own pairings and ends on their site sockets.
        transport.send_to_swiss(tournament_id, frame)
        if frames:
            transport.send_to_site_users(frames)

    transaction.on_commit(send)


__all__ = [
    "board_result",
    "standings_write",
    "swiss_create",
    "swiss_frame",
    "swiss_join",
    "swiss_tick",
    "swiss_withdraw",
    "withdraw_deleted",
]
