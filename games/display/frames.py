"""The frames a match's sockets hear, built from the match as committed
(docs/protocol.md). The transport (``games/live/``) only carries them."""

from __future__ import annotations

from typing import Any

from games.models import Match

from .snapshot import match_header, match_snapshot


def event_frame(match: Match, kind: str, **extra: Any) -> dict[str, Any]:
    """A frame of a committed change: what changed, not the board. Every
    frame carries the match's ply and header (version, status, turn, clock)."""
    return {"type": kind, "ply": match.ply, "match": match_header(match), **extra}


def state_frame(match_id: int) -> dict[str, Any] | None:
    """The ``state`` frame from a fresh read of the match: the whole picture as
    data, words in the active language (one socket's)."""
    match = Match.objects.select_related("pink", "blue").filter(pk=match_id).first()
    if match is None:
        return None
    return {"type": "state", "ply": match.ply, "snapshot": match_snapshot(match)}
