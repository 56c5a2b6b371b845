"""The arenas' reads (docs/features.md "Reads"): what their pages, the profile and the home
page show of them."""

from __future__ import annotations

from typing import Any

from django.db.models import Case, Sum, When, Window

from .models import TournamentPlayer


def player_arenas(user_id: int) -> dict[str, Any]:
    """The player's tournaments (the newest ten, with their points and final places) and podiums:
    one query (the podiums over all their tournaments are window sums on each line)."""
    lines = list(
        TournamentPlayer.objects.filter(user_id=user_id)
        .select_related("tournament")
        .annotate(
            podiums=Window(Sum(Case(When(rank__lte=3, then=1), default=0))),
            firsts=Window(Sum(Case(When(rank=1, then=1), default=0))),
        )
        .order_by("-tournament__starts_at", "-pk")[:10]
    )
    return {
        "lines": lines,
        "podiums": lines[0].podiums if lines else 0,
        "wins": lines[0].firsts if lines else 0,
    }
