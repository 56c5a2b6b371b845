"""Arenas on a live site and what became of them: the tournament tests' calls
(tests/sitecalls/__init__.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.models import Match, Move
from games.tournaments.models import Tournament, TournamentPlayer
from games.tournaments.services import tournament_join
from ratings.models import RatingChange

from . import PASSWORD
from .players import session_cookie, user_made

__all__ = [
    "arena_deleted_player",
    "arena_join",
    "arena_lines",
    "arena_report",
    "arena_with_players",
    "finished_arena",
    "private_arenas",
    "running_arena",
]


def arena_with_players(*, starts: int, length: int, move: int, players: int) -> dict[str, Any]:
    """A rated Cztery w rzędzie arena starting in ``starts`` s and lasting ``length`` s, ``move`` s a
    move, joined by gracz0 … gracz<players - 1>, each with a session (tests/live_play/test_tournament_live.py)."""
    now = timezone.now()
    t = Tournament.objects.create(
        name="Arena testowa",
        variant="cztery-w-rzedzie",
        rated=True,
        starts_at=now + timedelta(seconds=starts),
        ends_at=now + timedelta(seconds=starts + length),
        minutes=1,
        move_seconds=move,
    )
    out: dict[str, Any] = {"tournament": t.pk, "ends_at": t.ends_at.isoformat(), "players": {}}
    for i in range(players):
        user = User.objects.create_user(username=f"gracz{i}", email=f"g{i}@example.com", password=PASSWORD)
        tournament_join(tournament_id=t.pk, user=user)
        out["players"][user.username] = {
            "id": user.pk,
            "cookie": session_cookie(user),
            "cookie_name": settings.SESSION_COOKIE_NAME,
        }
    return out


def arena_report(*, tournament_id: int) -> dict[str, Any]:
    """The arena's status and end, each of its matches (players, result, berserk, own moves by
    side, rating changes) and each player's line."""
    t = Tournament.objects.get(pk=tournament_id)
    matches = []
    for m in Match.objects.filter(tournament=t).order_by("pk"):
        moves = list(Move.objects.filter(match=m).values_list("player", "by_timeout"))
        matches.append(
            {
                "id": m.pk,
                "pink": m.pink_id,
                "blue": m.blue_id,
                "status": m.status,
                "winner": m.winner,
                "ply": m.ply,
                "created": m.created_at.timestamp(),
                "finished": m.finished_at.timestamp() if m.finished_at else None,
                "pink_berserk": m.pink_berserk,
                "blue_berserk": m.blue_berserk,
                "end_reason": m.end_reason,
                "counts": m.counts,
                "own_moves": {str(s): sum(1 for p, bt in moves if p == s and not bt) for s in (1, 2)},
                "rating_changes": RatingChange.objects.filter(match_id=m.pk).count(),
            }
        )
    lines = [
        {
            "user": p.user_id,
            "name": p.user.username,
            "points": p.points,
            "games": p.games,
            "rank": p.rank,
            "paused": p.paused,
            "timeouts_in_row": p.timeouts_in_row,
            "results": p.results,
            "match": p.match_id,
        }
        for p in TournamentPlayer.objects.filter(tournament=t).select_related("user")
    ]
    return {"status": t.status, "ends_at": t.ends_at.timestamp(), "matches": matches, "lines": lines}


def running_arena(*, suffix: str, password: str = PASSWORD) -> dict[str, Any]:
    """An unrated Cztery w rzędzie arena "Arena <suffix>" running for 20 minutes, and new users
    ania<suffix>, bartek<suffix>, celina<suffix> with sessions, by their names without the suffix
    (tests/browser/test_tournament_browser.py)."""
    now = timezone.now()
    t = Tournament.objects.create(
        name=f"Arena {suffix}",
        variant="cztery-w-rzedzie",
        rated=False,
        starts_at=now - timedelta(seconds=1),
        ends_at=now + timedelta(minutes=20),
        minutes=20,
        move_seconds=60,
        status="running",
    )
    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME, "tournament": t.pk}
    for first in ("ania", "bartek", "celina"):
        name = first + suffix
        user = User.objects.create_user(username=name, email=name + "@example.com", password=password)
        out[first] = {"name": name, "cookie": session_cookie(user)}
    return out


def private_arenas(*, count: int) -> dict[str, Any]:
    """``count`` running private arenas, each made by "tworca" and joined by "gracz", one public one,
    and a stranger "obcy" with a session (tests/live_play/test_arena_key_live.py): the arenas'
    ids and keys, the stranger's cookie."""
    now = timezone.now()
    maker, player, stranger = (user_made(name) for name in ("tworca", "gracz", "obcy"))
    out: dict[str, Any] = {"private": {}, "cookie_name": settings.SESSION_COOKIE_NAME}
    for i in range(count + 1):
        t = Tournament.objects.create(
            name=f"Arena {i}",
            variant="cztery-w-rzedzie",
            rated=False,
            public=i == count,
            creator=maker,
            starts_at=now - timedelta(seconds=1),
            ends_at=now + timedelta(minutes=20),
            minutes=20,
            status="running",
        )
        tournament_join(tournament_id=t.pk, user=player)
        if t.public:
            out["public"] = t.pk
        else:
            out["private"][str(t.pk)] = str(t.token)
    out["stranger"] = {"id": stranger.pk, "cookie": session_cookie(stranger)}
    return out


def arena_lines(*, user_id: int) -> dict[str, Any]:
    """The arenas ``user_id`` has a line in."""
    return {"arenas": sorted(TournamentPlayer.objects.filter(user_id=user_id).values_list("tournament_id", flat=True))}


def arena_deleted_player(*, tournament_id: int, joined: list[str], deleted: str) -> dict[str, Any]:
    """The users ``joined`` join the arena, then ``deleted`` deletes their account (as the settings
    page does: games.play.privacy.account_delete) (tests/browser/test_tournament_browser.py)."""
    from games.play.privacy import account_delete  # local: the core's account service

    for name in joined:
        tournament_join(tournament_id=tournament_id, user=User.objects.get(username=name))
    user = User.objects.get(username=deleted)
    account_delete(user_id=user.pk)
    return {"deleted_id": user.pk}


def arena_join(*, tournament_id: int, names: list[str]) -> dict[str, Any]:
    """The users ``names`` join the arena, as its Join button does (issue 38's tests)."""
    for name in names:
        tournament_join(tournament_id=tournament_id, user=User.objects.get(username=name))
    return {"joined": len(names)}


def finished_arena(*, suffix: str) -> dict[str, Any]:
    """A finished arena "Arena <suffix>" whose podium is three players with long names (issue 38:
    at 360 px the podium's places ran together), a fourth line paused when it ended."""
    now = timezone.now()
    t = Tournament.objects.create(
        name=f"Arena {suffix}",
        variant="cztery-w-rzedzie",
        rated=False,
        starts_at=now - timedelta(minutes=30),
        ends_at=now - timedelta(minutes=5),
        minutes=25,
        status="finished",
    )
    names = [f"{first}{suffix}" for first in ("Aleksandra_Wielka", "Bartek_K_z_Krakowa", "Celina", "Darek")]
    for rank, (name, points) in enumerate(zip(names, (9, 6, 2, 0), strict=True), start=1):
        user = User.objects.create_user(username=name, email=name + "@example.com", password=PASSWORD)
        TournamentPlayer.objects.create(
            tournament=t, user=user, rating=1500, points=points, rank=rank, joined_at=now, paused=rank == 4
        )
    return {"tournament": t.pk, "names": names}
