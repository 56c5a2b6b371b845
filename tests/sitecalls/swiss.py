"""Swiss tournaments on a live site (tests/live_play/test_swiss_live.py): the set-up, and the boards and standings read back (tests/sitecalls/__init__.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.tournaments.swiss.models import SwissBoard, SwissPlayer, SwissTournament
from games.tournaments.swiss.services import swiss_join

from .players import session_cookie, user_made

__all__ = ["swiss_report", "swiss_with_players"]


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
