"""``ws/match/<id>/``: one socket per viewer of a match (players and spectators).

Transport only: authenticate, bound and rate-limit frames, and hand each
command to the ``desk`` the routing gives it (``games.desk.MatchDesk``: one
service call per command) in a database thread, then reply. Every refusal is an ``error``
frame with a stable code followed by a fresh ``state`` frame. The protocol is
documented in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from asgiref.sync import sync_to_async
from asgiref.typing import ASGI3Application
from django.db import DatabaseError

from kropki_site.lib.refusals import Refusal

from . import presence, transport, wsframes
from .dbcall import db_call
from .match_chat import CHAT_BURST, CHAT_RATE_PER_SECOND, ChatDesk, MatchChat
from .socket import LiveSocket, socket_language


class Desk(ChatDesk, Protocol):
    """What the consumer asks of a match's desk (games.desk.MatchDesk, handed in by
    games.routing: the transport imports no services nor reads)."""

    def knows(self, kind: str) -> bool: ...
    def credentials_valid(self, user_id: int, session_key: str | None, auth_hash: str | None) -> bool: ...
    def command(self, kind: str, match_id: int, user_id: int, content: dict[str, Any]) -> str | None: ...
    def exists(self, match_id: int) -> bool: ...
    def is_spectator(self, match_id: int, user_id: int | None) -> bool: ...
    def player_opened(self, match_id: int, user_id: int) -> None: ...
    def version(self, match_id: int) -> str | None: ...
    def state(self, match_id: int, user_id: int | None, language: str) -> dict[str, Any] | None: ...


log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 2048
# Refusals not followed by a state frame: it would not help the sender, and
# answering a flood with whole pictures would feed it.
QUIET_ERRORS = frozenset({"rate_limited", "login_required", "not_a_player"})
# Token bucket per socket: a sustained 8 frames/s, bursts of 20.
RATE_PER_SECOND = 8.0
RATE_BURST = 20.0
# A second, smaller bucket for the frames that cost a whole state (up to 32 kB): a `sync` that is
# not answered by a pong, a resend, the state after an error. At most one per 2 s after a burst
# of 3; one asked for meanwhile is sent when the bucket allows (later ones coalesce into it), so
# a flood of `sync` gets a few states instead of one per frame (issue 12, item 6).
STATE_RATE_PER_SECOND = 0.5
STATE_BURST = 3.0
# What ``_command`` answers when the socket's session is gone (closed with 4401).
LOGGED_OUT = "logged_out"


def match_socket(desk: Desk) -> Callable[..., Any]:
    """The ASGI application of ``ws/match/<id>/`` over ``desk`` (games.routing): typed, so the
    type checker holds the desk routing hands in to ``Desk`` (``as_asgi`` takes anything). An ASGI
    application, returned as a callable: django-stubs types ``path()`` for views only."""
    application: ASGI3Application = MatchConsumer.as_asgi(desk=desk)
    return application


class MatchConsumer(MatchChat, LiveSocket):
    # The socket's state, set in connect() (declared here for the type checker only).
    match_id: int
    user_id: int | None
    state_task: asyncio.Task[None] | None
    spectator: bool
    desk: Desk
    state_tokens: wsframes.TokenBucket
    chat_room: str | None
    chat_tokens: wsframes.TokenBucket
    held: list[str] | None
    max_frame_bytes = MAX_FRAME_BYTES
    task_names = ("lease_task", "state_task", "chat_task")

    def __init__(self, *args: Any, desk: Desk, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.desk = desk  # games.desk.MatchDesk: the commands and reads of a match

    def describe(self) -> str:
        return f"match {getattr(self, 'match_id', None)}"

    # -- WebSocket handlers ---------------------------------------------------

    async def connect(self) -> None:
        try:
            self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        except (KeyError, ValueError):
            await self.refuse(wsframes.CLOSE_NOT_FOUND)
            return
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.language = socket_language(self.scope)
        if not await db_call(self._open)():
            await self.refuse(wsframes.CLOSE_NOT_FOUND)
            return
        if not await self.take_place(*wsframes.socket_key(self.scope, self.user_id)):
            await self.refuse(wsframes.CLOSE_TOO_MANY_SOCKETS)
            return
        self.tokens = wsframes.TokenBucket(RATE_PER_SECOND, RATE_BURST)
        self.state_tokens = wsframes.TokenBucket(STATE_RATE_PER_SECOND, STATE_BURST)
        self.state_task = None
        self.chat_room = None
        self.chat_tokens = wsframes.TokenBucket(CHAT_RATE_PER_SECOND, CHAT_BURST)
        # Subscribed (confirmed by Redis) before the state is read: no frame falls between the two.
        # The match's frames heard meanwhile wait until the state is sent: the state comes first,
        # then a move made while it was read (CI: a player's socket got the opening move, then the
        # state read before it, and the test's client, waiting for the state, never saw the move).
        self.held = []
        await self.listen(transport.match_topic(self.match_id), self._match_frame)
        await self.listen_to_user()
        self.rejoin_after_reconnect()
        await self.accept()
        self.spectator = await self._is_spectator()
        if not self.spectator and self.user_id is not None:  # the player has seen the game (an arena's rule)
            await db_call(self.desk.player_opened)(self.match_id, self.user_id)
        await self._join_chat()
        await self._presence(presence.join)
        await self._send_state()
        await self._release_held()
        await self._send_chat_history()

    async def _match_frame(self, text: str) -> None:
        """A frame of the match's topic: held while the socket's first state is on its way."""
        if self.held is not None:
            self.held.append(text)
        else:
            await self.send_text(text)

    async def _release_held(self) -> None:
        """The frames heard before the first state, in order (one the state already shows is a
        duplicate by its ply: docs/protocol.md); then each frame goes out as it is heard."""
        while self.held:
            await self.send_text(self.held.pop(0))
        self.held = None

    async def disconnect(self, code: int) -> None:
        await self.stop()
        if hasattr(self, "spectator"):
            await self._presence(presence.leave)

    async def refused(self, exc: Refusal) -> None:
        await self.send_error(exc)
        if exc.code not in QUIET_ERRORS:
            await self._send_state_limited()

    async def database_error(self) -> None:
        """Nothing was written (the transaction rolled back); say so, then the state as it is.
        If even that fails, close: the client reconnects and syncs (tests/faults/test_db_drop.py)."""
        await self.send_error(Refusal("server_unavailable"))
        try:
            await self._send_state()
        except DatabaseError:
            await self.close(code=1011)

    async def resync(self) -> None:
        """The hub's connection to Redis broke and came back: frames may have been missed, so
        the position now (docs/protocol.md "Transport": repaired within a few seconds)."""
        if not self.closing:
            await self._send_state()

    # -- command helpers --------------------------------------------------------

    async def command(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if kind == "sync":
            # A heartbeat names the version it shows: unchanged, a tiny pong; else the state.
            version = content.get("version")
            if isinstance(version, str) and version == await self._version():
                await self.send_json({"type": "pong", "version": version})
            else:
                await self._send_state_limited()
            return
        if kind == "chat":
            await self._chat(content)
            return
        if not isinstance(kind, str) or not self.desk.knows(kind):  # a list or dict is unhashable
            raise Refusal("unknown_type")
        # Identity before locks: who may not act is told so without a transaction,
        # a row lock or even a read (the players of a match never change).
        if self.user_id is None:
            raise Refusal("login_required")
        if self.spectator:
            raise Refusal("not_a_player")
        result = await db_call(self._command)(kind, self.user_id, content)
        if result == LOGGED_OUT:
            await self.close_logged_out()
        elif result == "duplicate":
            await self._send_state_limited()

    def _command(self, kind: str, user_id: int, content: dict[str, Any]) -> str | None:
        """In the database thread: the session still valid (a logout's 4401 may have been
        lost), then the desk's one service call."""
        if not self.session_valid():
            return LOGGED_OUT
        return self.desk.command(kind, self.match_id, user_id, content)

    async def _presence(self, action: Callable[[int, bool, str], None]) -> None:
        try:
            await sync_to_async(action)(self.match_id, self.spectator, self.channel_name)
        except Exception:  # presence is a nicety; never fail a socket for it
            log.warning("presence update failed for match %s", self.match_id, exc_info=True)

    async def _is_spectator(self) -> bool:
        return await db_call(self.desk.is_spectator)(self.match_id, self.user_id)

    async def _version(self) -> str | None:
        return await db_call(self.desk.version)(self.match_id)

    def _open(self) -> bool:
        """In the database thread at connect: the match exists; the session the socket acts for."""
        self.read_credentials()
        return self.desk.exists(self.match_id)

    async def _state_frame(self) -> dict[str, Any] | None:
        return await db_call(self.desk.state)(self.match_id, self.user_id, self.language)

    async def _send_state(self) -> None:
        frame = await self._state_frame()
        if frame is not None:
            await self.send_json(frame)

    async def _send_state_limited(self) -> None:
        """A state frame now if the state bucket has a token; else one state frame as
        soon as it has (however many were asked for meanwhile: they coalesce)."""
        if self.state_task is not None and not self.state_task.done():
            return  # a state is already on its way: it answers this one too
        if self.state_tokens.take():
            await self._send_state()
            return
        self.state_task = asyncio.create_task(self._send_state_later(self.state_tokens.wait()))

    async def _send_state_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.state_tokens.take_late()
        try:
            await self._send_state()
        except Exception:  # the socket closed meanwhile, or the database is away: the next sync asks again
            log.warning("a coalesced state for match %s was not sent", self.match_id, exc_info=True)
