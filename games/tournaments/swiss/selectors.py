"""Reads of the Swiss rows for other pages: a profile's Swiss tournaments (its history)."""

from __future__ import annotations

from typing import Any

from django.db import models

from .models import SwissBoard, SwissPlayer

PROFILE_LINES = 10


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


__all__ = ["account_lines", "player_swiss"]
