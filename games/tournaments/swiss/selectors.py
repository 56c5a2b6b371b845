"""Reads of the Swiss rows: the ``swiss`` frame and who may watch it, the pairing frames a site
socket sends on connect, and for other pages a profile's Swiss tournaments (its history)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Max, Q
from django.urls import reverse

from games.models import Match
from kropki_site.lib.pathids import MAX_ROW_ID

from .models import SwissBoard, SwissPlayer, SwissTournament

PROFILE_LINES = 10


def swiss_frame(t: SwissTournament) -> dict[str, Any]:
    """The ``swiss`` frame: the tournament's state, its standings and the current round's boards."""
    lines = (
        SwissPlayer.objects.filter(tournament=t)
        .select_related("user")
        .order_by("-score", "-sonneborn_berger", "-buchholz", "number")
    )
    boards = SwissBoard.objects.filter(tournament=t, round=t.current_round).select_related("pink", "blue")
    last = SwissBoard.objects.filter(tournament=t).aggregate(r=Max("round"))["r"] or 0
    return {
        "type": "swiss",
        "id": t.pk,
        "status": t.status,
        "round": t.current_round,
        "rounds": t.rounds,
        "last_round": last,
        "next_round_at": t.next_round_at.isoformat() if t.next_round_at else None,
        "standings": [
            {
                "name": None if e.user.is_deleted else e.user.username,
                "score": e.score / 2,
                "sonneborn_berger": e.sonneborn_berger / 4,
                "buchholz": e.buchholz / 2,
                "withdrawn": e.withdrawn,
                "rank": e.rank,
            }
            for e in lines[:100]
            if not e.user.fair_play_mark
        ],
        "boards": [
            {
                "board": b.board,
                "pink": b.pink.username,
                "blue": b.blue.username if b.blue else None,
                "kind": b.kind,
                "match": b.match_id,
                "result": None if b.pink_points is None else [b.pink_points / 2, (b.blue_points or 0) / 2],
            }
            for b in boards
        ],
    }


def paired_frame(
    tournament_id: int, name: str, round_: int, match_id: int, url: str, *, current: bool = False
) -> dict[str, Any]:
    """``swiss_paired``: where the player's game of this round is (``current``: sent on a site
    socket's connect for a game being played, as the arenas' ``tournament_paired``)."""
    frame: dict[str, Any] = {
        "type": "swiss_paired",
        "id": tournament_id,
        "name": name,
        "round": round_,
        "match": match_id,
        "url": url,
    }
    if current:
        frame["current"] = True
    return frame


def current_games_frames(user_id: int) -> list[dict[str, Any]]:
    """A ``swiss_paired`` (``current``: true, with the game's ``ply``) for each Swiss game the
    player is playing now: one query. A site socket sends them on connect (issue 38)."""
    rows = (
        SwissBoard.objects.filter(Q(pink_id=user_id) | Q(blue_id=user_id), match__status=Match.Status.ACTIVE)
        .order_by("match_id")
        .values_list("tournament_id", "tournament__name", "round", "match_id", "match__ply")
    )
    frames = []
    for t_id, name, round_, match_id, ply in rows:
        frame = paired_frame(t_id, name, round_, match_id, reverse("match", args=[match_id]), current=True)
        frame["ply"] = ply
        frames.append(frame)
    return frames


def swiss_frame_for(user_id: int | None, tournament_id: Any, key: Any) -> dict[str, Any] | None:
    """The ``swiss`` frame for a site socket asking to watch a Swiss (``watch_swiss``), or None:
    no such tournament, or an unlisted one and neither its key nor its maker nor a player."""
    if isinstance(tournament_id, bool) or not isinstance(tournament_id, int):
        return None
    if not 0 < tournament_id <= MAX_ROW_ID:  # beyond 64 bits the database refuses the number
        return None
    t = SwissTournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return None
    allowed = (
        t.public
        or key == str(t.token)
        or (
            user_id is not None
            and (t.creator_id == user_id or SwissPlayer.objects.filter(tournament=t, user_id=user_id).exists())
        )
    )
    return swiss_frame(t) if allowed else None


def game_return(match_id: int, you: int | None) -> dict[str, Any] | None:
    """A Swiss game's page (templates/games/match.html, ``#swiss-return``): the tournament's id,
    its address and whether this visitor plays in it (their page goes back when it is over)."""
    board = SwissBoard.objects.filter(match_id=match_id).select_related("tournament").first()
    if board is None:
        return None
    t = board.tournament
    url = reverse("swiss", args=[t.pk])
    return {
        "id": t.pk,
        "match": match_id,
        "name": t.name,
        "url": url if t.public else f"{url}?klucz={t.token}",
        "player": you is not None,
    }


def player_swiss(user_id: int) -> list[dict[str, Any]]:
    """The player's latest Swiss tournaments (listed ones; newest first): the tournament, their
    score in points as text, their place once it ended."""
    lines = (
        SwissPlayer.objects.filter(user_id=user_id, tournament__public=True)
        .select_related("tournament")
        .order_by("-tournament__starts_at", "-pk")[:PROFILE_LINES]
    )
    return [
        {"tournament": e.tournament, "score": f"{e.score // 2}{'½' if e.score % 2 else ''}", "rank": e.rank}
        for e in lines
    ]


def account_lines(user: Any) -> list[dict[str, Any]]:
    """The player's Swiss lines for "Download my data" (its "swiss" part): each tournament, their
    score and tie-breaks in points, place, whether they withdrew, and their boards."""
    out = []
    for e in SwissPlayer.objects.filter(user=user).select_related("tournament").order_by("joined_at"):
        boards = SwissBoard.objects.filter(tournament_id=e.tournament_id).filter(
            models.Q(pink=user) | models.Q(blue=user)
        )
        out.append(
            {
                "tournament": e.tournament.name,
                "joined_at": e.joined_at.isoformat(),
                "score": e.score / 2,
                "sonneborn_berger": e.sonneborn_berger / 4,
                "buchholz": e.buchholz / 2,
                "rank": e.rank,
                "withdrawn": e.withdrawn,
                "boards": [
                    {
                        "round": b.round,
                        "match": b.match_id,
                        "kind": b.kind,
                        "pink": b.pink_id == user.pk,
                        "points": (b.pink_points if b.pink_id == user.pk else b.blue_points),
                    }
                    for b in boards
                ],
            }
        )
    return out


__all__ = [
    "account_lines",
    "current_games_frames",
    "game_return",
    "paired_frame",
    "player_swiss",
    "swiss_frame",
    "swiss_frame_for",
]
