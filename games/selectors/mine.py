"""A player's own games in progress ("Moje partie", /moje-partie/): correspondence games first,
those where it is their move before the others, soonest deadline first; then live ones."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from games.models import Match


@dataclass
class MyGame:
    match: Match
    side: int
    opponent: str  # the opponent's name, or "" for the computer (``match.bot_level`` says which)
    my_turn: bool
    deadline: datetime | None


def my_games(user_id: int) -> list[MyGame]:
    """Every active match of ``user_id`` (one query), in the page's order."""
    rows = []
    for match in (
        Match.objects.filter(Q(pink_id=user_id) | Q(blue_id=user_id), status=Match.Status.ACTIVE)
        .select_related("pink", "blue")
        .order_by("turn_deadline", "-created_at")
    ):
        side = match.side_of(user_id)
        assert side is not None
        other = match.blue if side == 1 else match.pink
        rows.append(
            MyGame(
                match=match,
                side=side,
                opponent=other.username if other is not None and not other.is_deleted else "",
                my_turn=match.to_move == side,
                deadline=match.turn_deadline,
            )
        )
    # correspondence before live; in each, the player's move first (the query ordered deadlines)
    rows.sort(key=lambda g: (g.match.days is None, not g.my_turn))
    return rows
