"""Reads of the Swiss rows for other pages: a profile's Swiss tournaments (its history)."""

from __future__ import annotations

from typing import Any

from .models import SwissPlayer

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


__all__ = ["player_swiss"]
