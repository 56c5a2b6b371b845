"""Swiss tournaments on a live site (tests/live_play/test_swiss_live.py): the set-up, and the boards and standings read back (tests/sitecalls/__init__.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.play import match_resign
from games.tournaments.swiss.models import SwissBoard, SwissPlayer, SwissTournament
from games.tournaments.swiss.services import swiss_join, swiss_tick

from .players import session_cookie, user_made

__all__ = [
    "swiss_join_names",
    "swiss_pair_now",
    "swiss_report",
    "swiss_resign",
    "swiss_upcoming",
    "swiss_with_players",
]


def swiss_upcoming(*, suffix: str) -> dict[str, Any]:
    """A public casual Cztery w rzędzie Swiss "Szwajcar <suffix>" of 3 rounds starting in an
    hour (so beat leaves it alone until ``swiss_pair_now``), and users ania<suffix>,
    bartek<suffix> with sessions, by their names without the suffix (tests/browser/test_swiss_live_browser.py)."""
    t = SwissTournament.objects.create(
        name=f"Szwajcar {suffix}",
        variant="cztery-w-rzedzie",
        rounds=3,
        rated=False,
        starts_at=timezone.now() + timedelta(hours=1),
        move_seconds=60,
        pause_seconds=60,
    )
    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME, "tournament": t.pk, "name": t.name}
    for first in ("ania", "bartek"):
        user = user_made(first + suffix)
        out[first] = {"name": user.username, "cookie": session_cookie(user)}
    return out


def swiss_join_names(*, tournament_id: int, names: list[str]) -> dict[str, Any]:
    """The users ``names`` join, as the Join button does."""
    for name in names:
        swiss_join(tournament_id=tournament_id, user=User.objects.get(username=name))
    return {"joined": len(names)}


def swiss_pair_now(*, tournament_id: int) -> dict[str, Any]:
    """Its start now: the tick starts it and pairs round 1 (as beat would)."""
    SwissTournament.objects.filter(pk=tournament_id).update(starts_at=timezone.now())
    swiss_tick()
    matches = list(SwissBoard.objects.filter(tournament_id=tournament_id).values_list("match_id", flat=True))
    return {"matches": matches}


def swiss_resign(*, match_id: int, username: str) -> dict[str, Any]:
    """``username`` resigns the game (its board's result: the ``swiss_game_over`` frames)."""
    match_resign(match_id=match_id, user_id=User.objects.get(username=username).pk)
    return {"resigned": match_id}


def swiss_with_players(*, starts: int, rounds: int, move: int, pause: int, players: int) -> dict[str, Any]:
    """A casual Cztery w rzędzie Swiss of ``rounds`` rounds starting in ``starts`` s, ``move`` s a
    move and ``pause`` s between rounds, joined by sw0 … sw<players - 1> in that order."""
    t = SwissTournament.objects.create(
        name="Szwajcar testowy",
        variant="cztery-w-rzedzie",
        rounds=rounds,
        rated=False,
        starts_at=timezone.now() + timedelta(hours=1),  # set below, once everyone has joined
        move_seconds=move,
        pause_seconds=pause,
    )
    out: dict[str, Any] = {"tournament": t.pk, "players": {}}
    for i in range(players):
        user = user_made(f"sw{i}")
        swiss_join(tournament_id=t.pk, user=user)
        out["players"][user.username] = {
            "id": user.pk,
            "cookie": session_cookie(user),
            "cookie_name": settings.SESSION_COOKIE_NAME,
        }
    SwissTournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() + timedelta(seconds=starts))
    return out


def swiss_report(*, tournament_id: int) -> dict[str, Any]:
    """Status, round, every board (round, board, pink, blue, kind, half points, the match's end)
    and every line (score and tie-breaks as stored, rank, withdrawn)."""
    t = SwissTournament.objects.get(pk=tournament_id)
    boards = [
        {
            "round": b.round,
            "board": b.board,
            "pink": b.pink.username,
            "blue": b.blue.username if b.blue else None,
            "kind": b.kind,
            "points": [b.pink_points, b.blue_points],
            "end": b.match.end_reason if b.match else None,
        }
        for b in SwissBoard.objects.filter(tournament=t).select_related("pink", "blue", "match")
    ]
    lines = [
        {
            "name": e.user.username,
            "score": e.score,
            "sb": e.sonneborn_berger,
            "bh": e.buchholz,
            "rank": e.rank,
            "withdrawn": e.withdrawn,
        }
        for e in SwissPlayer.objects.filter(tournament=t).select_related("user")
    ]
    return {"status": t.status, "round": t.current_round, "boards": boards, "lines": lines}
