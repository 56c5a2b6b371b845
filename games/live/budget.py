"""WebSocket handshakes on a budget (docs/protocol.md "Close codes", docs/reliability.md).

A handshake is the dearest thing a socket does (the session, the match, the
caps, the subscriptions, a whole state frame), and nothing limited how often
one address or one user may open one: 20 loops opening and closing match
sockets cost daphne 13-14 CPU-seconds in 15 s and multiplied everyone's move
round trip. Two token buckets in Redis, shared by every daphne:

- ``AddressBudget`` (outermost, before the session is read): every handshake
  of one client address, generous enough for a school or a café behind one
  address (``WS_CONNECTS_PER_IP_RATE`` a second, bursts of
  ``WS_CONNECTS_PER_IP_BURST``);
- ``WhoBudget`` (after authentication): one user's handshakes, over all their
  tabs and devices, or one address's anonymous ones (``WS_CONNECTS_PER_USER_*``,
  ``WS_CONNECTS_PER_ANONYMOUS_IP_*``).

A refused handshake is accepted and closed with 4429 after a pause (the time
until the bucket has a token again, at least ``REFUSAL_HOLD_MIN`` s): a loop
that reconnects at once is slowed to the budget's pace instead of costing a
handshake per round trip. The pages reconnect after a 4429 as after any drop,
with a growing delay and jitter (``static/js/match.js``, ``static/js/site.js``).
When Redis does not answer, handshakes are let through (``kropki_site.lib.limits``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import redis
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope
from django.conf import settings

from accounts.ip import client_ip_from_scope
from kropki_site.lib import limits

from . import hub
from .wsframes import CLOSE_TOO_MANY_SOCKETS

log = logging.getLogger(__name__)

REFUSAL_HOLD_MIN = 1.0
REFUSAL_HOLD_MAX = 5.0

# KEYS[1] the bucket; ARGV rate (tokens/s), burst, now (s). Returns 0 when a token was taken,
# else the seconds until one is there (as a string: Lua numbers come back as integers).
_TAKE = """
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local v = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(v[1]) or burst
local at = tonumber(v[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 2)
return tostring(wait)
"""


async def take(key: str, rate: float, burst: float) -> float:
    """Spend a token of ``key``'s bucket: 0.0 if there was one, else the seconds until there is."""
    try:
        wait = await hub.hub().redis.eval(_TAKE, 1, key, rate, burst, time.time())
    except redis.RedisError as exc:
        log.warning("socket handshake budget %s not checked (Redis: %s)", key, exc)
        return 0.0
    except Exception:  # the client library's own failure (a connection lost as it opened: a
        # TypeError from asyncio's transport on Python 3.12.1) must not cost the handshake
        log.exception("socket handshake budget %s not checked", key)
        return 0.0
    return float(wait)


async def refuse(receive: ASGIReceiveCallable, send: ASGISendCallable, wait: float) -> None:
    """Accept the handshake, hold it for a while, then close with 4429 (a code the page can read:
    a handshake refused before its accept reaches the browser as a bare HTTP 403)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept", "subprotocol": None, "headers": []})
    hold = min(REFUSAL_HOLD_MAX, max(REFUSAL_HOLD_MIN, wait))

    async def until_gone() -> None:
        while (await receive())["type"] != "websocket.disconnect":
            pass  # frames sent meanwhile are not read

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(until_gone(), hold)
        return  # the client left first
    await send({"type": "websocket.close", "code": CLOSE_TOO_MANY_SOCKETS, "reason": ""})


class _Budget:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def bucket(self, scope: Scope) -> tuple[str, float, float]:
        raise NotImplementedError

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        if scope["type"] != "websocket":
            await self.inner(scope, receive, send)
            return
        key, rate, burst = self.bucket(scope)
        wait = await take(key, rate, burst)
        if wait > 0:
            await refuse(receive, send, wait)
            return
        await self.inner(scope, receive, send)


class AddressBudget(_Budget):
    """Every handshake of one client address (outside the session: a refusal reads no database)."""

    def bucket(self, scope: Scope) -> tuple[str, float, float]:
        ip = client_ip_from_scope(dict(scope))
        return (
            limits.key("ws-connect", "addr", ip),
            float(settings.WS_CONNECTS_PER_IP_RATE),
            float(settings.WS_CONNECTS_PER_IP_BURST),
        )


class WhoBudget(_Budget):
    """One user's handshakes (all their tabs and devices), or one address's anonymous ones."""

    def bucket(self, scope: Scope) -> tuple[str, float, float]:
        user: Any = dict(scope).get("user")  # AuthMiddleware's addition
        if user is not None and user.is_authenticated:
            return (
                limits.key("ws-connect", "user", user.pk),
                float(settings.WS_CONNECTS_PER_USER_RATE),
                float(settings.WS_CONNECTS_PER_USER_BURST),
            )
        ip = client_ip_from_scope(dict(scope))
        return (
            limits.key("ws-connect", "anon", ip),
            float(settings.WS_CONNECTS_PER_ANONYMOUS_IP_RATE),
            float(settings.WS_CONNECTS_PER_ANONYMOUS_IP_BURST),
        )
