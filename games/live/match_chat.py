"""The chat of a match socket (docs/protocol.md, "Chat"): a mixin of
``MatchConsumer``. Each socket reads one room (players, or spectators and
anonymous visitors) and writes through the desk's chat service; chat frames
have their own token bucket and database threads, so they never take what
moves need."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from django.db import DatabaseError
from django.utils import translation

from games.errors import MatchError

from . import chatrooms, transport
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


class ChatDesk(Protocol):
    """What the chat asks of the desk (games/desk.py)."""

    def chat(self, match_id: int, user_id: int | None, content: dict[str, Any]) -> None: ...
    def chat_history(self, match_id: int, room: str) -> dict[str, Any] | None: ...


class MatchChat:
    """Needs from the consumer: ``match_id``, ``user_id``, ``spectator``,
    ``language``, ``desk``, ``channel_layer``, ``send``/``send_json``, and the
    buckets ``tokens`` (moves) and ``chat_tokens``."""

    match_id: int
    user_id: int | None
    spectator: bool
    language: str
    desk: ChatDesk
    channel_layer: Any
    chat_room: str | None = None
    chat_tokens: TokenBucket
    tokens: TokenBucket  # the move bucket

    if TYPE_CHECKING:  # the consumer's own
        async def send(self, text_data: str | None = None, bytes_data: bytes | None = None,
                       close: bool = False) -> None: ...

        async def send_json(self, content: dict[str, Any], close: bool = False) -> None: ...

    def _chat_group(self) -> str:
        assert self.chat_room is not None
        return transport.chat_group(self.match_id, self.chat_room)

    async def _join_chat(self) -> None:
        """Read the players' room as a player, the spectators' room otherwise (also anonymous)."""
        self.chat_room = "spectators" if self.spectator else "players"
        await chatrooms.join(self.channel_layer, self._chat_group(), self._chat_line)

    async def _chat_line(self, text: str) -> None:
        """A committed line of this socket's room, pre-encoded (games/live/chatrooms.py hands it over)."""
        if isinstance(text, str):
            await self.send(text_data=text)

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
        """A chat line: its own bucket (the move bucket's token is given back), the
        desk's service, and refusals as ``error`` frames with ``"for": "chat"`` and
        no state frame after them."""
        self.tokens.refund()
        try:
            if not self.chat_tokens.take():
                raise MatchError("chat_rate_limited")
            # Anonymous too: the desk's service refuses it (login_required) before any query.
            await db_call(self.desk.chat, CHAT_EXECUTOR)(self.match_id, self.user_id, content)
        except MatchError as exc:
            await self._send_chat_error(exc)

    async def _send_chat_error(self, exc: MatchError) -> None:
        with translation.override(self.language):  # the message in this socket's language
            message = str(exc.message)
        await self.send_json({"type": "error", "code": exc.code, "message": message, "for": "chat"})

