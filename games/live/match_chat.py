"""The chat of a match socket (docs/protocol.md, "Chat"): a mixin of
``MatchConsumer``. Each socket reads one room (players, or spectators and
anonymous visitors) and writes through the desk's chat service. Chat frames
have their own token bucket, database threads and queue: a line is written by
the socket's chat task, so a move sent right after a burst of lines is handled
at once, not behind their inserts."""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from django.db import DatabaseError
from django.utils import translation

from kropki_site.lib.refusals import Refusal

from . import transport
from .dbcall import db_call
from .wsframes import TokenBucket

log = logging.getLogger(__name__)

# Chat frames (docs/protocol.md "Chat") have a bucket of their own, so a chatty socket never
# spends the tokens of its moves: bursts of 5, then one per 2 s (the service also limits each
# user over all sockets, settings.CHAT_MESSAGES_PER_WINDOW). Chat refusals are never followed
# by a state frame, and carry "for": "chat" so the page shows them by the chat.
CHAT_RATE_PER_SECOND = 0.5
CHAT_BURST = 5.0
# The chat's database calls run on a small pool of their own: a chat line waiting for the
# database (SQLite's single writer, or a PostgreSQL insert waiting on the match row's key
# lock while a move holds it) never takes a thread the moves need (bench/chat.py).
CHAT_EXECUTOR = ThreadPoolExecutor(max_workers=2, thread_name_prefix="chat-db")
# A flood of chat frames is answered with at most one refusal a second (the rest are dropped).
CHAT_REFUSAL_INTERVAL = 1.0


class ChatDesk(Protocol):
    """What the chat asks of the desk (games/desk.py)."""

    def chat(self, match_id: int, user_id: int | None, content: dict[str, Any]) -> None: ...
    def credentials_valid(self, user_id: int, session_key: str | None, auth_hash: str | None) -> bool: ...
    def chat_history(self, match_id: int, room: str) -> dict[str, Any] | None: ...


class MatchChat:
    """Needs from the consumer: ``match_id``, ``user_id``, ``spectator``,
    ``language``, ``desk``, ``listen``, ``send``/``send_json``, the session
    (``session_key``, ``auth_hash``) and the buckets ``tokens`` (moves) and
    ``chat_tokens``."""

    match_id: int
    user_id: int | None
    spectator: bool
    language: str
    desk: ChatDesk
    session_key: str | None
    auth_hash: str | None
    chat_room: str | None = None
    chat_tokens: TokenBucket
    tokens: TokenBucket  # the move bucket
    chat_task: asyncio.Task[None] | None = None
    chat_queue: asyncio.Queue[dict[str, Any]] | None = None
    chat_refused_at: float = 0.0

    if TYPE_CHECKING:  # the consumer's own

        async def send(
            self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
        ) -> None: ...

        async def send_json(self, content: dict[str, Any], close: bool = False) -> None: ...

        async def listen(self, topic: str, listener: Any) -> None: ...

        async def send_text(self, text: str) -> None: ...

        async def close_logged_out(self) -> None: ...

    async def _join_chat(self) -> None:
        """Read the players' room as a player, the spectators' room otherwise (also anonymous)."""
        self.chat_room = "spectators" if self.spectator else "players"
        await self.listen(transport.chat_topic(self.match_id, self.chat_room), self.send_text)

    async def _send_chat_history(self) -> None:
        """The room's recent lines after the state on connect (nothing while the room is empty)."""
        if self.chat_room is None:
            return
        try:
            frame = await db_call(self.desk.chat_history, CHAT_EXECUTOR)(self.match_id, self.chat_room)
        except DatabaseError:  # the chat can wait for the next connect; the match must not
            log.warning("chat history of match %s not sent", self.match_id, exc_info=True)
            return
        if frame is not None:
            await self.send_json(frame)

    async def _chat(self, content: dict[str, Any]) -> None:
        """A chat line: its own bucket, then the socket's chat task writes it (this returns
        at once, so the next frame, a move, is not held up by the insert)."""
        if not self.chat_tokens.take():
            await self._send_chat_error(Refusal("chat_rate_limited"))
            return
        if self.chat_queue is None:
            self.chat_queue = asyncio.Queue()
            self.chat_task = asyncio.create_task(self._write_chat_forever(self.chat_queue))
        self.chat_queue.put_nowait(content)  # bounded by chat_tokens (a burst of 5)

    async def _write_chat_forever(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            content = await queue.get()
            try:
                # Anonymous too: the desk's service refuses it (login_required) before any query.
                if await db_call(self._write_chat, CHAT_EXECUTOR)(content):
                    self.tokens.refund()  # an accepted line does not cost its socket a move's token
                else:
                    await self.close_logged_out()
                    return
            except Refusal as exc:
                await self._send_chat_error(exc)
            except DatabaseError:
                log.warning("chat line of match %s not written", self.match_id, exc_info=True)
                await self._send_chat_error(Refusal("server_unavailable"))
            except Exception:  # the socket closed meanwhile
                log.debug("chat line of match %s not answered", self.match_id, exc_info=True)

    def _write_chat(self, content: dict[str, Any]) -> bool:
        """In a chat database thread: the session still valid (else False), then the desk's service."""
        if self.user_id is not None and not self.desk.credentials_valid(self.user_id, self.session_key, self.auth_hash):
            return False
        self.desk.chat(self.match_id, self.user_id, content)
        return True

    async def _send_chat_error(self, exc: Refusal) -> None:
        """A chat refusal; at most one a second (a flood of chat frames gets no flood of answers)."""
        now = time.monotonic()
        if now - self.chat_refused_at < CHAT_REFUSAL_INTERVAL:
            return
        self.chat_refused_at = now
        with translation.override(self.language):  # the message in this socket's language
            message = str(exc.message)
        await self.send_json({"type": "error", "code": exc.code, "message": message, "for": "chat"})
