"""Telling sockets what was committed. Group names live here and nowhere else.

Services call these from ``transaction.on_commit``; every frame carries the
match's ply (its version) and a fresh snapshot read after the commit.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    """Every socket of one user: closed on logout or password change."""
    return f"user-{user_id}"


def challenge_group(token: str) -> str:
    return f"challenge-{token}"


LOBBY_GROUP = "lobby"


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the layer may lose messages; clients resync on the next frame
        log.exception("group_send to %s failed", group)


def match_frame(match_id: int, kind: str, **extra: Any) -> dict[str, Any] | None:
    from games.models import Match
    from games.snapshot import match_snapshot

    match = Match.objects.select_related("pink", "blue").filter(pk=match_id).first()
    if match is None:
        return None
    snapshot = match_snapshot(match)
    return {"type": kind, "ply": match.ply, "snapshot": snapshot, **extra}


def broadcast_match(match_id: int, kind: str, **extra: Any) -> None:
    frame = match_frame(match_id, kind, **extra)
    if frame is not None:
        # Encoded once here, not once per socket: every viewer gets the same text.
        text = json.dumps(frame, ensure_ascii=False, default=str)
        _send(match_group(match_id), {"type": "match.event", "text": text})


def broadcast_challenge(token: str, match_id: int) -> None:
    _send(challenge_group(token), {"type": "challenge.accepted", "match_id": match_id})


def close_user_sockets(user_id: int) -> None:
    _send(user_group(user_id), {"type": "user.logout"})
