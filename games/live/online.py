"""Who is online: users with at least one open site socket (``ws/site/``).

Two kinds of Redis keys, shared by every daphne process (docs/social.md):

- per user, the sorted set the site-socket cap counts under
  (``<LIMITS_PREFIX>ws:site:<id>``, ``wsframes.acquire``): one member per open
  site socket, scored by the end of its lease (renewed every 30 s);
- ``<LIMITS_PREFIX>online``: one member per online user id, scored by the end
  of the newest lease of their sockets.

So the sockets of a daphne that died without a disconnect stop counting
within ``wsframes.LEASE_SECONDS``. Whether a user is *shown* online (not
invisible) is decided by the reader, not here: the transport knows ids only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection
from typing import cast

import redis
from django.conf import settings

from kropki_site.lib import limits

from . import wsframes

log = logging.getLogger(__name__)


def sockets_key(user_id: int) -> str:
    """The sorted set of one user's open site sockets (also their socket cap's key)."""
    return limits.key("ws", "site", user_id)


def _online_key() -> str:
    return limits.key("online")


def socket_cap() -> int:
    return int(settings.WS_SITE_SOCKETS_PER_USER)


def mark_online(user_id: int) -> bool:
    """Renew ``user_id``'s place in the online set; True if they were not in it (came online)."""
    now = time.time()
    key = _online_key()
    try:
        pipe = limits.client().pipeline()
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {str(user_id): now + wsframes.LEASE_SECONDS})
        return bool(pipe.execute()[1])
    except redis.RedisError:
        log.warning("presence of user %s not recorded", user_id, exc_info=True)
        return False


def open_sockets(user_id: int) -> int:
    """``user_id``'s site sockets whose lease has not run out."""
    try:
        return int(limits.client().zcount(sockets_key(user_id), time.time(), "+inf"))
    except redis.RedisError:
        return 1  # unknown: do not call them offline


def mark_offline_if_gone(user_id: int) -> bool:
    """Take ``user_id`` out of the online set if no site socket of theirs is open;
    True if this removed them (they went offline just now)."""
    if open_sockets(user_id):
        return False
    try:
        return bool(limits.client().zrem(_online_key(), str(user_id)))
    except redis.RedisError:
        log.warning("presence of user %s not cleared", user_id, exc_info=True)
        return False


def online_ids() -> list[int]:
    """Every user id with a live site socket (invisible users too: readers filter)."""
    try:
        members = cast(list[bytes], limits.client().zrangebyscore(_online_key(), time.time(), "+inf"))
    except redis.RedisError:
        log.warning("online list not read", exc_info=True)
        return []
    return [int(m) for m in members]


def online_among(user_ids: Collection[int]) -> set[int]:
    """Which of ``user_ids`` are online: one round trip to Redis however many they are (a
    notice to 16 players read them one by one: 16 round trips a call; docs/performance.md)."""
    if not user_ids:
        return set()
    ids = list(user_ids)
    try:
        scores = limits.client().zmscore(_online_key(), [str(pk) for pk in ids])
    except redis.RedisError:
        return set()
    now = time.time()
    return {pk for pk, score in zip(ids, scores, strict=True) if score is not None and float(score) > now}


def is_online(user_id: int) -> bool:
    return user_id in online_among([user_id])
