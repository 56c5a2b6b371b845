"""What every WebSocket consumer shares: a frame's nesting bounded before it is
parsed, the sockets a user (or an anonymous visitor's IP) may hold open, and a
consumer for any other path.

``json.loads`` recurses once per ``[`` or ``{``: 2 KiB of ``[`` raise
``RecursionError`` (not ``ValueError``), which used to close the socket with
1011. ``loads_bounded`` counts the brackets outside strings first (one regular
expression pass, no recursion) and refuses a frame nested deeper than
``MAX_DEPTH``; no frame of the protocol is deeper than 2.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

import redis
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from accounts.ip import (
    client_ip_from_scope,  # the one reading of the proxy's header (BEHIND_PROXY)
)
from kropki_site.lib import limits

log = logging.getLogger(__name__)

MAX_DEPTH = 8
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")

# Close codes (docs/protocol.md).
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY_SOCKETS = 4429


class BadFrame(ValueError):
    """Valid JSON that no frame of the protocol can be (answered ``bad_frame``)."""


class TooDeep(BadFrame):
    pass


class UnstorableText(BadFrame):
    """A string with half of a UTF-16 pair (``"\\ud800"``), which UTF-8 cannot carry, or a NUL,
    which PostgreSQL refuses: JSON allows both, and they used to fail later (a database write,
    a send) and close the socket with 1011."""


def nesting_depth(text: str) -> int:
    """The deepest ``[``/``{`` nesting of ``text`` outside JSON strings (an
    unterminated string counts its brackets: a bad frame either way)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


def loads_bounded(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for a frame, refusing (``TooDeep``) one nested deeper than ``max_depth``."""
    if nesting_depth(text) > max_depth:
        raise TooDeep(f"nested deeper than {max_depth}")
    value = json.loads(text)
    if "\\u" in text:  # only an escape can make a lone surrogate or a NUL (the text itself is valid UTF-8)
        try:
            encoded = json.dumps(value, ensure_ascii=False)
            encoded.encode()
        except UnicodeEncodeError:
            raise UnstorableText("a lone surrogate") from None
        if "\x00" in encoded:  # no frame carries one, and PostgreSQL refuses it in a query
            raise UnstorableText("a NUL character")
    return value


# -- open sockets per user / per anonymous IP -------------------------------------------------
#
# One Redis sorted set per user (``<LIMITS_PREFIX>ws:user:<id>``) or anonymous IP (``…ws:ip:<ip>``),
# shared by every daphne process: members are channel names scored by the end of their lease.
# An open socket renews its lease every LEASE_SECONDS / 3, so the sockets of a process that
# died without a disconnect stop counting within LEASE_SECONDS.

LEASE_SECONDS = 90
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[4]) == false and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


def socket_key(scope: dict[str, Any], user_id: int | None) -> tuple[str, int]:
    """The key a socket counts under and that key's cap."""
    if user_id is not None:
        return limits.key("ws", "user", user_id), settings.WS_SOCKETS_PER_USER
    return limits.key("ws", "ip", client_ip_from_scope(scope)), settings.WS_SOCKETS_PER_ANONYMOUS_IP


def acquire(key: str, member: str, cap: int) -> bool:
    """Count ``member`` under ``key`` unless ``cap`` sockets already are (renews its own lease).
    Redis away: allowed (a cap is not worth refusing every viewer for)."""
    now = time.time()
    try:
        return bool(limits.client().eval(_ACQUIRE, 1, key, now, now + LEASE_SECONDS, cap, member, LEASE_SECONDS * 2))
    except redis.RedisError:
        log.warning("socket cap %s not checked", key, exc_info=True)
        return True


def release(key: str, member: str) -> None:
    try:
        limits.client().zrem(key, member)
    except redis.RedisError:
        log.warning("socket cap %s not released", key, exc_info=True)


class NotFoundConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels ships no type hints
    """Any WebSocket path no route serves (``/ws/nothing/``, ``/ws/match/-1/``): accepted
    and closed at once with 4404, instead of the router's ValueError (a 500 and a traceback)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)


class TokenBucket:
    """A socket's rate limit: ``rate`` tokens a second, at most ``burst`` saved up."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        """Spend a token if there is one."""
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1)

    def wait(self) -> float:
        """Seconds until a token is there."""
        self._refill()
        return max(0.0, (1 - self.tokens) / self.rate)

    def take_late(self) -> None:
        """Spend the token ``wait`` said would come (never below nothing)."""
        self._refill()
        self.tokens = max(0.0, self.tokens - 1)
