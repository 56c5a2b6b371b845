"""The frames a match's sockets hear, built from the match as committed
(docs/protocol.md). The transport (``games/live/``) only carries them."""

from __future__ import annotations

from typing import Any

from games.models import Match

from .snapshot import SnapshotRows, match_header, match_snapshot


def event_frame(match: Match, kind: str, **extra: Any) -> dict[str, Any]:
    """A frame of a committed change: what changed, not the board. Every
    frame carries the match's ply and header (version, status, turn, clock)."""
    return {"type": kind, "ply": match.ply, "match": match_header(match), **extra}


def state_frame(match: Match, rows: SnapshotRows) -> dict[str, Any]:
    """The ``state`` frame of a fresh read of the match (games.selectors.match.committed_match
    and snapshot_rows): the whole picture as data, words in the active language (one socket's)."""
    return {"type": "state", "ply": match.ply, "snapshot": match_snapshot(match, rows)}
