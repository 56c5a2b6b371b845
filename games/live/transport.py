"""Carrying frames to sockets through the channel layer. Group names live
here and nowhere else.

The services hand it frames already built (``games/display/frames.py``) from
``transaction.on_commit``; this module knows nothing of matches beyond their id.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from collections.abc import Iterator
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
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

# The site sockets of lobby pages (they asked with ``watch_online``): the online list.
ONLINE_GROUP = "online"


def site_group(user_id: int) -> str:
    """The site sockets (``ws/site/``) of one user: their notifications. Apart from
    ``user_group``, which match sockets join too and which carries only ``user.logout``."""
    return f"site-{user_id}"


def chat_group(match_id: int, room: str) -> str:
    """The sockets reading one chat room of a match ("players" or "spectators"):
    apart from the match group, so chat never queues behind (or ahead of) moves."""
    return f"chat-{match_id}-{room}"


_local = threading.local()


@contextlib.contextmanager
def sends_on_loop() -> Iterator[None]:
    """Within this block (a consumer's database call, in a worker thread of
    daphne's loop) group sends are queued on the loop instead of blocking."""
    before = getattr(_local, "on_loop", False)
    _local.on_loop = True
    try:
        yield
    finally:
        _local.on_loop = before


def _main_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the sync_to_async call this thread serves (daphne's), if any."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() and not loop.is_closed() else None


# Per group, the last send still in flight on the loop (touched on the loop's thread only):
# a send waits for the one before it, so one process never reorders a group's frames.
_TAILS: dict[str, asyncio.Future[None]] = {}


async def _ordered_send(group: str, message: dict[str, Any]) -> None:
    before = _TAILS.get(group)
    done = asyncio.get_running_loop().create_future()
    _TAILS[group] = done
    try:
        if before is not None:
            await asyncio.shield(before)
        layer = get_channel_layer()
        if layer is not None:
            await layer.group_send(group, message)
    except Exception:  # the layer may lose messages; clients resync on the next frame
        log.exception("group_send to %s failed", group)
    finally:
        done.set_result(None)
        if _TAILS.get(group) is done:
            del _TAILS[group]


def _send(group: str, message: dict[str, Any]) -> None:
    """Hand ``message`` to the channel layer.

    Inside ``sends_on_loop`` (a consumer's database call, in a worker thread of
    daphne's loop) the send is queued on that loop and the thread goes back to
    the pool at once (the frames of one group still leave in order); elsewhere
    (views, Celery, tests, the shell) it blocks until Redis has it.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _main_loop() if getattr(_local, "on_loop", False) else None
    if loop is not None:
        try:
            asyncio.run_coroutine_threadsafe(_ordered_send(group, message), loop)
            return
        except RuntimeError:  # the loop is closing: send it the blocking way
            pass
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the layer may lose messages; clients resync on the next frame
        log.exception("group_send to %s failed", group)


def send_to_match(match_id: int, frame: dict[str, Any]) -> None:
    """Tell the match's group what was just committed (call after commit only)."""
    # Encoded once here, not once per socket: every viewer gets the same text.
    text = json.dumps(frame, ensure_ascii=False, default=str)
    _send(match_group(match_id), {"type": "match.event", "text": text})


def send_to_chat(match_id: int, room: str, frame: dict[str, Any]) -> None:
    """A committed chat line to the sockets of its room only (call after commit only)."""
    text = json.dumps(frame, ensure_ascii=False, default=str)
    group = chat_group(match_id, room)
    # The group's members are processes, not sockets (games/live/chatrooms.py): "group" names the room.
    _send(group, {"type": "chat.event", "group": group, "text": text})


def send_challenge_accepted(token: str, match_id: int) -> None:
    _send(challenge_group(token), {"type": "challenge.accepted", "match_id": match_id})


def close_user_sockets(user_id: int) -> None:
    _send(user_group(user_id), {"type": "user.logout"})


def send_to_site_user(user_id: int, frame: dict[str, Any]) -> None:
    """A frame to every site socket of one user (a direct challenge, its answer)."""
    _send(site_group(user_id), {"type": "site.event", "text": json.dumps(frame, ensure_ascii=False, default=str)})


def send_online(frame: dict[str, Any]) -> None:
    """The online list to every lobby page's site socket (encoded once)."""
    _send(ONLINE_GROUP, {"type": "site.event", "text": json.dumps(frame, ensure_ascii=False, default=str)})
