"""What every listener of the hub holds, a WebSocket (socket.py's ``LiveSocket``) or an API
stream (games/api/streams.py's ``Feed``): the topics it hears, its resync after the hub's
connection to Redis broke and came back (frames may have been missed meanwhile:
docs/protocol.md "Transport"), and its place under a socket cap, a lease in Redis that its
owner renews every LEASE_RENEW_SECONDS (the places of a process that died lapse).
``stop_listening`` gives all of it back, however the listener ends."""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import sync_to_async

from . import hub, wsframes

log = logging.getLogger(__name__)

# How often an open listener renews its place under its socket cap.
LEASE_RENEW_SECONDS = wsframes.LEASE_SECONDS / 3


class HubListener:
    """The base of ``LiveSocket`` and ``Feed``; cooperative, so it may come first among a consumer's bases."""

    channel_name: str  # its name in Redis: its member name under a socket cap

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.listening: dict[str, hub.Listener] = {}
        self.place: tuple[str, int] | None = None  # (key, cap) of its place, once taken
        self.rejoining = False

    # -- its place under a socket cap ----------------------------------------------------------

    async def take_place(self, key: str, cap: int) -> bool:
        """A place among the at most ``cap`` listeners counted under ``key``; False: the cap is full."""
        if not await sync_to_async(wsframes.acquire, thread_sensitive=False)(key, self.channel_name, cap):
            return False
        self.place = (key, cap)
        return True

    def renew_place(self) -> None:
        """In a thread, every LEASE_RENEW_SECONDS: the lease on the listener's place (and whatever
        else a listener keeps alive with it: one thread hop for all)."""
        if self.place is not None:
            key, cap = self.place
            wsframes.acquire(key, self.channel_name, cap)

    # -- topics ---------------------------------------------------------------------------------

    async def listen(self, topic: str, listener: hub.Listener) -> None:
        if topic in self.listening:
            return
        self.listening[topic] = listener
        await hub.hub().join(topic, listener)

    async def unlisten(self, topic: str) -> None:
        listener = self.listening.pop(topic, None)
        if listener is not None:
            await hub.hub().leave(topic, listener)

    def rejoin_after_reconnect(self) -> None:
        """Call ``resync`` when the hub's connection to Redis broke and came back."""
        hub.hub().watch(self.resync)
        self.rejoining = True

    async def resync(self) -> None:
        """What a listener does after a reconnect (the match socket: send its state; a stream:
        say everything again)."""

    # -- the end --------------------------------------------------------------------------------

    async def stop_listening(self) -> None:
        """Leave the topics, the resyncs and the place under the cap; a second call is a no-op."""
        if not hub.loop_running():  # closed by the garbage collector after its loop ended: the leases lapse
            return
        if self.rejoining:
            hub.hub().unwatch(self.resync)
            self.rejoining = False
        for topic in list(self.listening):
            try:
                await self.unlisten(topic)
            except Exception:  # Redis away: the hub's connection drops its subscriptions anyway
                log.warning("leaving %s failed", topic, exc_info=True)
        if self.place is not None:
            key, self.place = self.place[0], None
            await sync_to_async(wsframes.release, thread_sensitive=False)(key, self.channel_name)
