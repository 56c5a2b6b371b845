"""Who is watching: one Redis sorted set of open match sockets.

Each socket is a member ``<match_id>:<role>:<channel_name>`` (role ``p`` for
a player, ``s`` for a spectator) scored by its connect time. Shared by every
daphne process, so it holds across machines; members older than daphne's
websocket timeout are dropped as leftovers of a crashed process.
"""

from __future__ import annotations

import time
from typing import cast

import redis

from kropki_site.lib import limits

KEY = "kropki:presence"
MAX_AGE_SECONDS = 86400  # daphne's websocket_timeout


def _client() -> redis.Redis:
    return limits.shared_client(socket_timeout=2, socket_connect_timeout=2)


def _member(match_id: int, spectator: bool, channel_name: str) -> str:
    return f"{match_id}:{'s' if spectator else 'p'}:{channel_name}"


def join(match_id: int, spectator: bool, channel_name: str) -> None:
    _client().zadd(KEY, {_member(match_id, spectator, channel_name): time.time()})


def leave(match_id: int, spectator: bool, channel_name: str) -> None:
    _client().zrem(KEY, _member(match_id, spectator, channel_name))


def _members() -> list[str]:
    client = _client()
    client.zremrangebyscore(KEY, 0, time.time() - MAX_AGE_SECONDS)
    # The client does not decode (no decode_responses): members are bytes, which redis's types cannot tell.
    return [m.decode() for m in cast(list[bytes], client.zrange(KEY, 0, -1))]


def spectator_count(match_id: int | None = None) -> int:
    """Open spectator sockets (of one match, or of all)."""
    prefix = None if match_id is None else f"{match_id}:"
    return sum(1 for m in _members() if m.split(":", 2)[1] == "s" and (prefix is None or m.startswith(prefix)))
