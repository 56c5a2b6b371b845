"""Chat lines as data: what a ``chat`` frame, a ``chat_history`` frame, the
record page and a report's context carry (docs/protocol.md "Chat").

Text stays text: pages insert it with ``textContent`` (or Django's escaping),
never as markup, and links are never made clickable.
"""

from __future__ import annotations

from typing import Any, TypedDict

from games.models import ChatMessage


class ChatLine(TypedDict):
    id: int
    room: str
    author: str
    author_id: int
    text: str
    at: str


def chat_line(message: ChatMessage, author: str | None = None) -> ChatLine:
    """One line; ``author`` saves the query when the caller already knows the name."""
    return {
        "id": message.pk,
        "room": message.room,
        "author": author if author is not None else message.author.username,
        "author_id": message.author_id,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }


def chat_frame(line: ChatLine) -> dict[str, Any]:
    """The ``chat`` frame: one new line, to the sockets of its room."""
    return {"type": "chat", **line}


def chat_history_frame(room: str, lines: list[ChatLine]) -> dict[str, Any]:
    """The ``chat_history`` frame: the room's recent lines, oldest first, on connect."""
    return {"type": "chat_history", "room": room, "lines": lines}
