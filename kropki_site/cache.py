"""The shared cache (Django's Redis backend on ``REDIS_URL``; issue 24 item 11): boards,
replays and record pages of finished matches are drawn once for every daphne process,
not once per process as with the per-process memory cache.

Tolerant, as ``kropki_site/lib/limits.py`` is: when Redis does not answer, a read is a miss
and a write is skipped (logged), so a page is drawn again rather than failing. ``clear``
deletes this site's keys only (its KEY_PREFIX), never the whole Redis database that
the channel layer, Celery and the limits share.
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)


class TolerantRedisCache(RedisCache):
    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except redis.RedisError as exc:
            log.warning("cache read skipped (Redis: %s)", exc)
            return default

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except redis.RedisError as exc:
            log.warning("cache write skipped (Redis: %s)", exc)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except redis.RedisError as exc:
            log.warning("cache read skipped (Redis: %s)", exc)
            return {}

    def set_many(self, data: dict[Any, Any], timeout: Any = None, version: int | None = None) -> list[Any]:
        try:
            return super().set_many(data, timeout, version)
        except redis.RedisError as exc:
            log.warning("cache write skipped (Redis: %s)", exc)
            return []

    def clear(self) -> None:
        client = self._cache.get_client(write=True)
        for key in client.scan_iter(match=f"{self.key_prefix}:*", count=1000):
            client.delete(key)
