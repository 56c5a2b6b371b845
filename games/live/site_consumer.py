"""``ws/site/``: one socket per tab of a logged-in page: presence and live
notifications (direct challenges). docs/protocol.md "Site socket".

A visitor who is not logged in (or a guest) gets a watcher's socket (issue 38): it may only
follow (``watch_online``, ``watch_home``, ``watch_tournament``, ``watch_swiss``, ``watch_analysis``), counts under its address's cap of anonymous
sockets (``WS_SOCKETS_PER_ANONYMOUS_IP``, shared with the match sockets) and is no one's
presence; any other command is refused with ``login_required``.

Transport only: authenticate, cap and rate-limit, keep the user's place in the
online set (``online.py``), and hand each command to the ``desk`` the routing
gives it (``games.site_desk.SiteDesk``) in a database thread. An idle socket
costs nothing but its lease, renewed in Redis every 30 s: the server pushes,
the page never polls.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from asgiref.sync import sync_to_async
from asgiref.typing import ASGI3Application
from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import Refusal

from . import online, transport, wsframes
from .dbcall import db_call
from .socket import LiveSocket, socket_language

log = logging.getLogger(__name__)


class Desk(Protocol):
    """What the site consumer asks of the site (games.site_desk.SiteDesk, handed in by games.routing)."""

    def knows(self, kind: str) -> bool: ...
    def credentials_valid(self, user_id: int, session_key: str | None, auth_hash: str | None) -> bool: ...
    def command(self, kind: str, user_id: int, content: dict[str, Any]) -> int | None: ...
    def may_connect(self, user_id: int) -> bool: ...
    def welcome(self, user_id: int) -> list[dict[str, Any]]: ...
    def tournament_me(self, user_id: int, tournament_id: int) -> dict[str, Any] | None: ...
    def online(self) -> dict[str, Any]: ...
    def home(self) -> dict[str, Any]: ...
    def tournament(self, user_id: int | None, content: dict[str, Any]) -> dict[str, Any] | None: ...
    def swiss(self, user_id: int | None, content: dict[str, Any]) -> dict[str, Any] | None: ...
    def analysis(self, content: dict[str, Any]) -> dict[str, Any] | None: ...
    def announce_online(self) -> None: ...
    def expire(self, challenge_id: int) -> bool: ...
    def went_offline(self, user_id: int) -> None: ...
    def expiry_seconds(self) -> float: ...


MAX_FRAME_BYTES = 1024
MAX_TOURNAMENTS_WATCHED = 3  # arenas and Swiss tournaments one site socket follows (a page shows one)
# Token bucket per socket: a sustained frame a second, bursts of 8 (a person clicks; a flood is refused).
RATE_PER_SECOND = 1.0
RATE_BURST = 8.0
# A tab that reloads, or a click to the next page, closes its socket and opens another within a
# second or two: the user is called offline (and last_seen written) only if none is back by then.
OFFLINE_GRACE_SECONDS = 5.0
# Presence changes heard within this long are pushed to the lobby as one online list (per process).
ANNOUNCE_DELAY_SECONDS = 0.25
# Words that differ from the match's for the same code.
WORDS = {"blocked": _("You cannot challenge this player: one of you has blocked the other.")}

# What ``_command`` answers when the socket's session is gone (closed with 4401).
LOGGED_OUT = object()
# Background work that outlives a socket (expiry timers, the grace before "offline", the
# coalesced announcement): kept referenced here until done, per event loop.
_background: set[asyncio.Task[Any]] = set()
_announcing: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = weakref.WeakKeyDictionary()
_wanted: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()  # loops with a change not yet pushed


def _spawn(coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    task = asyncio.get_running_loop().create_task(coro)
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


def request_announce(desk: Desk) -> None:
    """Push the online list soon; requests meanwhile share the one push. A request that comes
    while a push is being made (its list may already be read) is served by one more push."""
    loop = asyncio.get_running_loop()
    _wanted.add(loop)
    task = _announcing.get(loop)
    if task is not None and not task.done():
        return

    async def announce() -> None:
        while loop in _wanted:
            await asyncio.sleep(ANNOUNCE_DELAY_SECONDS)
            _wanted.discard(loop)
            try:
                await db_call(desk.announce_online)()
            except Exception:  # the next change pushes again
                log.warning("online list not pushed", exc_info=True)

    _announcing[loop] = _spawn(announce())


def site_socket(desk: Desk) -> Callable[..., Any]:
    """The ASGI application of ``ws/site/`` over ``desk`` (games.routing): typed, so the type
    checker holds the desk routing hands in to ``Desk`` (``as_asgi`` takes anything). An ASGI
    application, returned as a callable: django-stubs types ``path()`` for views only."""
    application: ASGI3Application = SiteConsumer.as_asgi(desk=desk)
    return application


class SiteConsumer(LiveSocket):
    watching: set[str]  # the feeds followed: "watch_online", "watch_home"
    watcher: bool = False  # not logged in, or a guest: follows pages only
    desk: Desk
    max_frame_bytes = MAX_FRAME_BYTES

    def __init__(self, *args: Any, desk: Desk, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.desk = desk

    def describe(self) -> str:
        return "a watcher's site socket" if self.watcher else f"the site socket of user {self.user_id}"

    # -- WebSocket handlers ---------------------------------------------------

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        if self.user_id is None or not await db_call(self._open)():
            await self._connect_watcher()  # not logged in, or a guest: follows pages only
            return
        user_id = self.user_id
        self.language = socket_language(self.scope)
        if not await self.take_place(online.sockets_key(user_id), online.socket_cap()):
            await self.refuse(wsframes.CLOSE_TOO_MANY_SOCKETS)
            return
        self.tokens = wsframes.TokenBucket(RATE_PER_SECOND, RATE_BURST)
        self.watching: set[str] = set()
        self.watched_tournaments: dict[str, int] = {}  # topic followed -> its frames heard
        await self.listen_to_user()
        await self.listen(transport.site_topic(user_id), self.send_text)
        await self.accept()
        await sync_to_async(online.mark_online, thread_sensitive=False)(user_id)
        # Always: a new page may show a change (a match began, "invisible" switched) at no cost when idle.
        request_announce(self.desk)
        await self.send_json({"type": "hello", "user": user.username})
        # The challenges waiting, and where the player's arena game is (a page opened, or a
        # socket back after a break, learns it even if the wave's frame was missed).
        for frame in await db_call(self.desk.welcome)(user_id):
            await self.send_json(frame)

    async def _connect_watcher(self) -> None:
        """A visitor who is not logged in, or a guest: the lobby's list and arenas' standings only,
        under the address's cap of anonymous sockets; no presence, no user topic."""
        self.watcher = True
        self.user_id = None
        self.language = socket_language(self.scope)
        key, cap = wsframes.socket_key(self.scope, None)
        if not await self.take_place(key, cap):
            await self.refuse(wsframes.CLOSE_TOO_MANY_SOCKETS)
            return
        self.tokens = wsframes.TokenBucket(RATE_PER_SECOND, RATE_BURST)
        self.watching = set()
        self.watched_tournaments = {}
        await self.accept()
        await self.send_json({"type": "hello", "user": None})

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "watching"):  # refused before it joined anything
            return
        await self.stop()
        user_id = self.user_id
        if user_id is None:  # a watcher: nobody's presence
            return
        if not await sync_to_async(online.open_sockets, thread_sensitive=False)(user_id):
            _spawn(self._offline_after_grace(user_id))

    async def _offline_after_grace(self, user_id: int) -> None:
        await asyncio.sleep(OFFLINE_GRACE_SECONDS)
        if await sync_to_async(online.mark_offline_if_gone, thread_sensitive=False)(user_id):
            try:
                await db_call(self.desk.went_offline)(user_id)
            except Exception:
                log.warning("last_seen of user %s not written", user_id, exc_info=True)
            request_announce(self.desk)

    async def refused(self, exc: Refusal) -> None:
        await self.send_error(exc, WORDS)

    async def command(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if kind in ("watch_online", "watch_home"):
            # The lobby's online list; the home page's "Right now" (issue 38): now, then whenever
            # it changed (topic ``online`` / ``home``).
            topic, read = (
                (transport.ONLINE_TOPIC, self.desk.online)
                if kind == "watch_online"
                else (transport.HOME_TOPIC, self.desk.home)
            )
            if kind not in self.watching:
                self.watching.add(kind)
                await self.listen(topic, self.send_text)
            await self.send_json(await db_call(read)())
            return
        if kind == "watch_tournament":
            # An arena's page: its standings now, then every change (docs/protocol.md "Tournaments").
            # Read (it checks the id and the key), follow, then read again (``_read_followed``).
            frame = await db_call(self.desk.tournament)(self.user_id, content)
            if frame is None:
                raise Refusal("tournament_not_found")
            topic = transport.tournament_topic(frame["id"])
            await self._follow(topic)
            frame = await self._read_followed(topic, self.desk.tournament, content) or frame
            mine = None if self.user_id is None else await db_call(self.desk.tournament_me)(self.user_id, frame["id"])
            await self.send_json(frame)
            if mine is not None:  # the player's own line: their game now, if any (issue 38)
                await self.send_json(mine)
            return
        if kind == "watch_swiss":
            # A Swiss tournament's page: its state now, then after every change (docs/protocol.md).
            frame = await db_call(self.desk.swiss)(self.user_id, content)
            if frame is None:
                raise Refusal("tournament_not_found")
            topic = transport.swiss_topic(frame["id"])
            await self._follow(topic)
            frame = await self._read_followed(topic, self.desk.swiss, content) or frame  # as above
            await self.send_json(frame)
            return
        if kind == "watch_analysis":
            # A record page whose computer review is queued or running (anyone's: an imported
            # game's asker may be a guest): its progress now, then every step (topic analysis:<id>).
            frame = await db_call(self.desk.analysis)(content)
            await self._follow(transport.analysis_topic(content["match"]))
            if frame is not None:
                await self.send_json(frame)
            return
        if not isinstance(kind, str) or not self.desk.knows(kind):
            raise Refusal("unknown_type")
        if self.user_id is None:
            raise Refusal("login_required")  # a watcher only follows
        created = await db_call(self._command)(kind, content)
        if created is LOGGED_OUT:
            await self.close_logged_out()
        elif isinstance(created, int):
            _spawn(self._expire_later(created))

    async def _follow(self, topic: str) -> None:
        """Listen to a tournament's topic (an arena's or a Swiss') or a review's,
        MAX_TOURNAMENTS_WATCHED at most."""
        if topic in self.watched_tournaments:
            return
        if len(self.watched_tournaments) >= MAX_TOURNAMENTS_WATCHED:
            raise Refusal("rate_limited")
        self.watched_tournaments[topic] = 0

        async def hear(text: str) -> None:
            self.watched_tournaments[topic] += 1  # before any await: _read_followed counts on it
            await self.send_text(text)

        await self.listen(topic, hear)

    async def _read_followed(
        self, topic: str, read: Callable[[int | None, dict[str, Any]], dict[str, Any] | None], content: dict[str, Any]
    ) -> dict[str, Any] | None:
        """A followed tournament's state, read once it is followed, so a change just before the
        subscription is in it (CI: a join in that gap left a visitor at "(0)"); and read again
        while a frame of the topic came in during the read: that frame may be newer than the
        read, and the page draws the last frame it gets (CI: a join's frame, then a read from
        before the join, left a visitor's Swiss standings empty). Three reads at most."""
        for _attempt in range(3):
            heard = self.watched_tournaments[topic]
            frame = await db_call(read)(self.user_id, content)
            if self.watched_tournaments[topic] == heard:
                break
        return frame

    async def _expire_later(self, challenge_id: int) -> None:
        """Tell both players when the challenge is past its time unanswered (their pages also count down)."""
        await asyncio.sleep(self.desk.expiry_seconds() + 0.2)
        try:
            await db_call(self.desk.expire)(challenge_id)
        except Exception:
            log.warning("expiry of challenge %s not sent", challenge_id, exc_info=True)

    def _open(self) -> bool:
        """In the database thread at connect: may this user open one (guests may not); its session."""
        self.read_credentials()
        return self.user_id is not None and self.desk.may_connect(self.user_id)

    def _command(self, kind: str, content: dict[str, Any]) -> int | object | None:
        """In the database thread: the session still valid (a logout's 4401 may have been lost), then the desk."""
        if self.user_id is None or not self.session_valid():
            return LOGGED_OUT
        return self.desk.command(kind, self.user_id, content)

    def renew_place(self) -> None:
        """One thread hop for both leases of an idle socket: its cap place, the user's presence."""
        super().renew_place()
        if self.user_id is not None:
            online.mark_online(self.user_id)
