"""Frames to sockets over Redis pub/sub, fanned out inside each process
(docs/protocol.md "Transport", docs/performance.md "The transport").

One ``PUBLISH`` a frame, whatever the number of sockets and processes that want
it: each process (each daphne's event loop) holds one pub/sub connection to
Redis, ``SUBSCRIBE``d to every topic that has a socket here (a match, a chat
room, a user), and hands each message to the local sockets of that topic
directly (lichess' lila-ws does the same over Redis). There is no channel per
socket and no shared receive loop a closing socket can cancel: channels_redis'
core layer lost frames exactly there when sockets churned (django/channels#1683,
channels_redis#366), and cost three Redis round trips a group send.

Delivery is at most once, in Redis' order. When the connection breaks (Redis
restarts, a network blip, a dead host noticed by the keep-alive), the hub
reconnects, subscribes again to every topic, and then calls every socket's
``resync`` so that a frame published meanwhile is repaired by a fresh state
(``MatchConsumer`` sends one) instead of waiting for the page's heartbeat.

The publishers (services after commit, in any process: daphne's database
threads, Celery, views) are synchronous: ``publish`` is one round trip on
redis-py's thread-safe pool. ``transport.py`` names the topics.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import weakref
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlparse

import redis
import redis.asyncio as aioredis
from django.conf import settings

from kropki_site.lib import limits

log = logging.getLogger(__name__)

Listener = Callable[[str], Awaitable[None]]  # hands one pre-encoded frame to one socket
Resync = Callable[[], Awaitable[None]]  # "you may have missed frames": the socket repairs itself

# Consumers use this alias, which names no channel layer: Channels then gives them no channel
# and no channel-layer receive loop (channels.consumer.AsyncConsumer.__call__).
NO_CHANNEL_LAYER = "no-channel-layer"

# With nothing heard for KEEPALIVE_SECONDS the hub pings Redis on its pub/sub connection; with
# nothing heard (not even the pong) for DEAD_SECONDS it calls the connection dead and reconnects
# (a host that vanished without a reset).
KEEPALIVE_SECONDS = 5.0
DEAD_SECONDS = 12.0
RECONNECT_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.0)  # then 1 s between attempts
SUBSCRIBE_TIMEOUT = 3.0
# After a reconnect the sockets resync spread over this long (not all in one loop turn).
RESYNC_SPREAD_SECONDS = 0.5


def prefix() -> str:
    """Pub/sub channels are global to a Redis server (not per database): the prefix names the
    database too, so two sites on one server (CI's db 3, a developer's db 0) never cross."""
    explicit = getattr(settings, "LIVE_PREFIX", "")
    if explicit:
        return str(explicit)
    path = urlparse(settings.REDIS_URL)
    db = (path.path or "/0").strip("/") or "0"
    if settings.REDIS_URL.startswith("unix://"):  # unix://path?db=N, and a socket is one server
        db = dict(part.split("=", 1) for part in (path.query or "").split("&") if "=" in part).get("db", "0")
        return f"kropki:live:{path.path}:{db}:"
    return f"kropki:live:{db}:"


# -- publishing (any thread, any process) ----------------------------------------------------


def _client() -> redis.Redis:
    return limits.shared_client(socket_timeout=1, socket_connect_timeout=1, health_check_interval=30)


def publish(topic: str, text: str) -> bool:
    """Send ``text`` to every socket of ``topic`` on every process: one round trip. Never raises:
    a frame lost here is repaired (the subscribers' connections broke too, so they resync)."""
    try:
        _client().publish(prefix() + topic, text)
        return True
    except redis.RedisError:
        log.warning("publish to %s failed", topic, exc_info=True)
        return False


def publish_many(messages: list[tuple[str, str]]) -> bool:
    """``publish`` for many (topic, text) at once: one pipelined round trip (an arena's wave
    tells every paired player). Never raises, as ``publish``."""
    if not messages:
        return True
    try:
        pipe = _client().pipeline(transaction=False)
        start = prefix()
        for topic, text in messages:
            pipe.publish(start + topic, text)
        pipe.execute()
        return True
    except redis.RedisError:
        log.warning("publish of %d frames failed", len(messages), exc_info=True)
        return False


# -- subscribing (one hub per event loop) ----------------------------------------------------


class Hub:
    """The topics of one event loop (one daphne process) and their local listeners."""

    def __init__(self) -> None:
        self.prefix = prefix()
        self.url = settings.REDIS_URL
        self.members: dict[str, set[Listener]] = {}
        self.resyncs: set[Resync] = set()
        self.confirmed: set[str] = set()  # topics Redis said it subscribed us to, this connection
        self.waiting: dict[str, list[asyncio.Future[None]]] = {}
        self.pubsub: Any = None
        self.task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        tcp = {} if self.url.startswith("unix://") else {"socket_keepalive": True}  # a unix socket has none
        self.control = f"{self.prefix}hub:{os.getpid()}:{id(self)}"  # always subscribed: keeps the reader alive
        # Named, so that CLIENT LIST tells which process's hub a connection is (and a test cuts only its own).
        self.client_name = f"kropki-hub-{os.getpid()}-{id(self)}"
        self.redis = aioredis.Redis.from_url(
            self.url,
            socket_connect_timeout=2,
            socket_timeout=None,
            max_connections=64,
            client_name=self.client_name,
            **tcp,
        )
        self.reconnects = 0
        self.ever_connected = False

    # The listeners' side.

    async def join(self, topic: str, listener: Listener) -> None:
        """``listener`` hears every frame of ``topic`` published after this returns."""
        listeners = self.members.setdefault(topic, set())
        listeners.add(listener)
        self._start()
        if topic in self.confirmed:
            return
        done = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(topic, []).append(done)
        if len(listeners) == 1 or len(self.waiting[topic]) == 1:
            await self._command("subscribe", topic)
        try:
            await asyncio.wait_for(asyncio.shield(done), SUBSCRIBE_TIMEOUT)
        except TimeoutError:  # Redis away: the reader subscribes everything again when it is back, then resyncs
            log.warning("hub: subscription to %s not confirmed within %s s", topic, SUBSCRIBE_TIMEOUT)

    async def leave(self, topic: str, listener: Listener) -> None:
        listeners = self.members.get(topic)
        if listeners is None or listener not in listeners:
            return
        listeners.discard(listener)
        if listeners:
            return
        del self.members[topic]
        self.confirmed.discard(topic)
        await self._command("unsubscribe", topic)
        await self._stop_if_idle()

    def watch(self, resync: Resync) -> None:
        self.resyncs.add(resync)

    def unwatch(self, resync: Resync) -> None:
        self.resyncs.discard(resync)

    async def publish(self, topic: str, text: str) -> None:
        """From the loop itself (bench/live.py's relay): the same one round trip, not blocking the loop."""
        try:
            await self.redis.publish(self.prefix + topic, text)
        except redis.RedisError:
            log.warning("publish to %s failed", topic, exc_info=True)

    # The connection.

    async def _command(self, name: str, topic: str) -> None:
        pubsub = self.pubsub
        if pubsub is None or not self.connected.is_set():
            return  # the reader (re)subscribes to every member topic once connected
        try:
            await pubsub.execute_command(name.upper(), self.prefix + topic)
        except (redis.RedisError, OSError):
            log.warning("hub: %s %s failed", name, topic, exc_info=True)
            self._restart()

    def _restart(self) -> None:
        """Drop the connection and make a new one (which subscribes again, then resyncs)."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        self._start()

    def _start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _stop_if_idle(self) -> None:
        """Nobody listens here any more: close the connection (a test's loop may end next)."""
        if self.members or self.task is None:
            return
        task, self.task = self.task, None
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        self.ever_connected = False  # no socket here could have missed anything
        with contextlib.suppress(Exception):
            await self.redis.connection_pool.disconnect()

    async def _connect(self) -> Any:
        """A new pub/sub connection subscribed to every member topic (also those that joined
        while it was being made: no await between the last check and ``connected``)."""
        pubsub = self.redis.pubsub()
        sent = {self.control}
        await pubsub.subscribe(self.control)
        while missing := [self.prefix + topic for topic in self.members if self.prefix + topic not in sent]:
            await pubsub.subscribe(*missing)
            sent.update(missing)
        return pubsub

    async def _run(self) -> None:
        attempt = 0
        while True:
            pubsub = None
            try:
                pubsub = await self._connect()
                self.pubsub = pubsub
                self.connected.set()
                attempt = 0
                if self.ever_connected:
                    self.reconnects += 1
                    log.warning("hub: reconnected to Redis; %d sockets resync", len(self.resyncs))
                    self._resync_all()
                self.ever_connected = True
                await self._read(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("hub: the pub/sub connection failed", exc_info=True)
            finally:
                self.connected.clear()
                self.confirmed.clear()
                self.pubsub = None
                if pubsub is not None:
                    with contextlib.suppress(BaseException):
                        await asyncio.shield(pubsub.aclose())
            self.ever_connected = True  # a failure before the first connection still means frames may be missed
            await asyncio.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
            attempt += 1

    async def _read(self, pubsub: Any) -> None:
        loop = asyncio.get_running_loop()
        heard = loop.time()
        pinged = False
        n = len(self.prefix)
        while True:
            message = await pubsub.get_message(timeout=KEEPALIVE_SECONDS)
            now = loop.time()
            if message is None:
                if now - heard > DEAD_SECONDS:
                    raise ConnectionError(f"nothing from Redis for {now - heard:.0f} s")
                if not pinged:
                    await pubsub.ping()
                    pinged = True
                continue
            heard, pinged = now, False
            kind = message.get("type")
            if kind == "message":
                channel = message["channel"]
                topic = channel[n:].decode() if isinstance(channel, bytes) else str(channel)[n:]
                listeners = self.members.get(topic)
                if not listeners:
                    continue
                data = message["data"]
                text = data.decode() if isinstance(data, bytes) else str(data)
                for listener in tuple(listeners):
                    try:
                        await listener(text)
                    except Exception:  # a socket closing meanwhile: the others still get the frame
                        log.debug("hub: frame not handed to a socket", exc_info=True)
            elif kind == "subscribe":
                channel = message["channel"]
                name = channel.decode() if isinstance(channel, bytes) else str(channel)
                if name.startswith(self.prefix):
                    topic = name[n:]
                    self.confirmed.add(topic)
                    for done in self.waiting.pop(topic, ()):
                        if not done.done():
                            done.set_result(None)

    def _resync_all(self) -> None:
        for resync in tuple(self.resyncs):
            asyncio.get_running_loop().create_task(self._resync_one(resync))

    @staticmethod
    async def _resync_one(resync: Resync) -> None:
        await asyncio.sleep(random.uniform(0, RESYNC_SPREAD_SECONDS))
        try:
            await resync()
        except Exception:
            log.warning("hub: a socket's resync failed", exc_info=True)


def loop_running() -> bool:
    """Whether this code runs in an event loop (a consumer's ``finally`` may run without one,
    when the garbage collector closes a coroutine whose loop is gone)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """This event loop's hub (made on first use)."""
    loop = asyncio.get_running_loop()
    current = _BY_LOOP.get(loop)
    if current is None or current.url != settings.REDIS_URL or current.prefix != prefix():
        current = _BY_LOOP[loop] = Hub()
    return current
