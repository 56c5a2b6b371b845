"""Chat rooms fanned out inside each process (docs/protocol.md "Chat").

A chat line goes to every socket of its room. Were each socket a member of the
room's group, a line to a room of N sockets would be N channel-layer messages,
each a Redis round trip in the process's one receive loop, where the moves'
frames wait behind them (bench/chat.py: with 5 lines/s per match daphne spent
about 5 ms of CPU per line). Instead one channel per process (per event loop)
joins the group of every room that has a socket here; its reader hands each
line to the local sockets of that room. So a line costs one message per
process, whatever the size of the room.

Membership is kept while a room has a local socket, and re-joined every
quarter of the layer's ``group_expiry`` (``wsframes.keep_joined``, as every
socket does for its own groups). A line in flight when the last socket of a room
leaves is dropped with it, as it would be for that socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from .wsframes import keep_joined

log = logging.getLogger(__name__)

Listener = Callable[[str], Awaitable[None]]  # hands one pre-encoded frame to one socket


class _Rooms:
    """The rooms of one event loop (one daphne process)."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.members: dict[str, set[Listener]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.lock = asyncio.Lock()

    async def join(self, group: str, listener: Listener) -> None:
        async with self.lock:
            if self.channel is None:
                self.channel = await self.layer.new_channel()
            first = group not in self.members
            self.members.setdefault(group, set()).add(listener)
            if first:
                await self.layer.group_add(group, self.channel)
            if not self.tasks:
                self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(keep_joined(self.layer, self._join_all, "the chat rooms"))]

    async def leave(self, group: str, listener: Listener) -> None:
        async with self.lock:
            listeners = self.members.get(group)
            if listeners is None or listener not in listeners:
                return
            listeners.discard(listener)
            if listeners:
                return
            del self.members[group]
            with contextlib.suppress(Exception):  # Redis away: the membership expires by itself
                await self.layer.group_discard(group, self.channel)
            if not self.members:  # nobody reads here: stop receiving (a test's loop may end next)
                tasks, self.tasks = self.tasks, []
                for task in tasks:
                    task.cancel()
                for task in tasks:
                    with contextlib.suppress(BaseException):
                        await task

    async def _read(self) -> None:
        assert self.channel is not None
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away for a moment: try again
                log.warning("chat rooms: receive failed", exc_info=True)
                await asyncio.sleep(0.5)
                continue
            text, group = message.get("text"), message.get("group")
            for listener in list(self.members.get(group, ())):
                try:
                    await listener(text)
                except Exception:  # a socket closing meanwhile: the others still get the line
                    log.debug("chat line not handed to a socket", exc_info=True)

    async def _join_all(self) -> None:
        for group in list(self.members):
            await self.layer.group_add(group, self.channel)


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Rooms] = weakref.WeakKeyDictionary()


def _rooms(layer: Any) -> _Rooms:
    loop = asyncio.get_running_loop()
    rooms = _BY_LOOP.get(loop)
    if rooms is None or rooms.layer is not layer:
        rooms = _BY_LOOP[loop] = _Rooms(layer)
    return rooms


async def join(layer: Any, group: str, listener: Listener) -> None:
    """``listener`` gets every line sent to ``group`` (``transport.send_to_chat``) from now on."""
    await _rooms(layer).join(group, listener)


async def leave(layer: Any, group: str, listener: Listener) -> None:
    """Stop handing lines to ``listener`` (idempotent)."""
    await _rooms(layer).leave(group, listener)
