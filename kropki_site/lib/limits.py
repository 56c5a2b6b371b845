"""Shared counters and locks in Redis, for limits every process must agree on
(daphne, each Celery pool process): Django's default cache is per process.

Keys start with ``settings.LIMITS_PREFIX`` (``kropki:limit:``; the tests give
each test a prefix of its own). When Redis does not answer, a limit lets the
request through (logged): refusing every guest because Redis blinked would be
worse than a minute without the limit; the database stays the source of truth.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
from typing import Any, cast

import redis
from django.conf import settings

log = logging.getLogger(__name__)

_clients: dict[tuple[Any, ...], redis.Redis] = {}
_clients_lock = threading.Lock()


def shared_client(**options: Any) -> redis.Redis:
    """The process's client of ``settings.REDIS_URL`` with ``options``, made once (per URL, fork
    and options) and kept: a client replaced while another thread used it closed that thread's
    connection when it was collected (redis-py closes the pool it owns), a 500 under 8 threads."""
    key = (settings.REDIS_URL, os.getpid(), *sorted(options.items()))
    found = _clients.get(key)
    if found is None:
        with _clients_lock:
            found = _clients.get(key)
            if found is None:
                found = _clients[key] = redis.Redis.from_url(settings.REDIS_URL, **options)
    return found


def client() -> redis.Redis:
    return shared_client(socket_connect_timeout=1, socket_timeout=1)


def key(*parts: object) -> str:
    """A limit's Redis key: LIMITS_PREFIX and ``parts``."""
    return getattr(settings, "LIMITS_PREFIX", "kropki:limit:") + ":".join(str(part) for part in parts)


def hit(name: str, who: str, *, limit: int, window: int) -> bool:
    """Count one event of ``name`` for ``who`` in a fixed window of ``window``
    seconds; False when that makes more than ``limit`` (the event is refused)."""
    counter = key(name, who)
    try:
        pipe = client().pipeline()
        pipe.set(counter, 0, ex=window, nx=True)  # the window starts with its first event
        pipe.incr(counter)
        count = pipe.execute()[1]
    except redis.RedisError as exc:
        log.warning("limit %s not checked (Redis: %s)", name, exc)
        return True
    return int(count) <= limit


def hit_account_and_address(name: str, user_id: int | None, address: str, *, limit: int, window: int) -> bool:
    """``hit`` for the account (``<name>-user``, when there is one) and for the address
    (``<name>-ip``, when known), each with its own count: False when either is over."""
    if user_id is not None and not hit(f"{name}-user", str(user_id), limit=limit, window=window):
        return False
    return not address or hit(f"{name}-ip", address, limit=limit, window=window)


def remember(name: str, who: str, member: object, *, ttl: int) -> None:
    """Add ``member`` to the set ``name``/``who`` (kept ``ttl`` s after its last addition)."""
    counter = key(name, who)
    try:
        pipe = client().pipeline()
        pipe.sadd(counter, str(member))
        pipe.expire(counter, ttl)
        pipe.execute()
    except redis.RedisError as exc:
        log.warning("%s not remembered (Redis: %s)", name, exc)


def members(name: str, who: str) -> set[str]:
    try:
        # The client does not decode (no decode_responses): members are bytes, which redis's types cannot tell.
        return {value.decode() for value in cast(set[bytes], client().smembers(key(name, who)))}
    except redis.RedisError as exc:
        log.warning("%s not read (Redis: %s)", name, exc)
        return set()


def last_value(name: str, who: str) -> str | None:
    """The value ``remember_value`` kept for ``name``/``who``, or None (also without Redis)."""
    try:
        value = cast(bytes | None, client().get(key(name, who)))
    except redis.RedisError as exc:
        log.warning("%s not read (Redis: %s)", name, exc)
        return None
    return value.decode() if value is not None else None


def remember_value(name: str, who: str, value: object, *, ttl: int) -> None:
    try:
        client().set(key(name, who), str(value), ex=ttl)
    except redis.RedisError as exc:
        log.warning("%s not remembered (Redis: %s)", name, exc)


# Release only our own lock (it may have expired and been taken by another).
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


def lock_acquire(name: str, who: str, *, ttl: int) -> str | None:
    """A token if the lock ``name``/``who`` was free (held at most ``ttl`` s), else None.
    Without Redis: a token (no lock) rather than nothing done."""
    token = secrets.token_hex(8)
    try:
        return token if client().set(key(name, who), token, nx=True, ex=ttl) else None
    except redis.RedisError as exc:
        log.warning("lock %s not taken (Redis: %s)", name, exc)
        return token


def lock_release(name: str, who: str, token: str) -> None:
    try:
        client().eval(_RELEASE, 1, key(name, who), token)
    except redis.RedisError as exc:
        log.warning("lock %s not released (Redis: %s); it expires", name, exc)
