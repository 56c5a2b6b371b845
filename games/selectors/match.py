"""The match page's and the match socket's reads: the match with its players, and the rows its
snapshot is drawn from (``SnapshotRows``: what ``games.display.snapshot.match_snapshot`` is handed)."""

from __future__ import annotations

from typing import Any

from games.display.snapshot import SnapshotRows, clock_may_have_ended
from games.engine import State
from games.models import Match, Move
from ratings.selectors import deltas_for_match

from .state import match_state


def match_for_page(match_id: int) -> Match | None:
    """The match with both players and its arena (the match page): one query."""
    return Match.objects.select_related("pink", "blue", "tournament").filter(pk=match_id).first()


def match_row(match_id: int) -> Match | None:
    """The match alone (the board of one ply): one query."""
    return Match.objects.filter(pk=match_id).first()


def committed_match(match_id: int) -> Match | None:
    """A fresh read of the match with both players (a ``state`` frame): one query."""
    return Match.objects.select_related("pink", "blue").filter(pk=match_id).first()


def clock_ends(match: Match) -> dict[int, int]:
    """Kropki: the plies where the clock played "end" for a player whose time
    ran out (docs/rules.md, "The clock"), as ply -> side. One query, and none
    unless the history holds an end."""
    if not clock_may_have_ended(match):
        return {}
    return dict(Move.objects.filter(match=match, by_timeout=True).values_list("ply", "player"))


def match_moves(match: Match) -> list[Move]:
    """The match's Move rows in ply order: one query."""
    return list(Move.objects.filter(match=match).order_by("ply"))


def stored_movers(match: Match) -> list[int]:
    """Who made each stored move (1 pink, 2 blue), in order: one query (none for an unsaved match)."""
    if not match.pk:
        return []
    return list(Move.objects.filter(match=match).order_by("ply").values_list("player", flat=True))


def rating_deltas(match: Match) -> dict[str, dict[str, Any]] | None:
    """Both players' rating change in a rated match once it is over (the ``finished``
    frame's ``rating_deltas``, read back for first paints and ``state`` frames)."""
    if not match.rated or match.status != Match.Status.FINISHED:
        return None
    return deltas_for_match(match.pk)


def snapshot_rows(match: Match, state: State | None = None) -> SnapshotRows:
    """The rows of ``match``'s snapshot: at most three queries (the clock's ends in Kropki,
    the rating changes of a finished rated match, the movers)."""
    state = state if state is not None else match_state(match)
    ends = clock_ends(match)
    deltas = rating_deltas(match)
    return SnapshotRows(state=state, ends=ends, deltas=deltas, movers=stored_movers(match))
