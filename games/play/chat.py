"""Chat at the table and reports (docs/social.md "Chat").

A match has two rooms, kept apart as lichess keeps them: the players' room
(the two players, nobody else writes or reads it during the match) and the
spectators' room (logged-in visitors who do not play it; anonymous visitors
read it only). Both are shown on the match's record once it is over.

``chat_send`` checks who may write where, then stores the line and sends it
after commit to that room's group only (``transport.chat_topic``): never to
the match group, so a chat line never queues with the moves. It takes no row
lock on the match. Refusals raise Refusal with a stable code.

Bounded (issue 24): no chat in games against the computer; guests write
nowhere (only accounts do); at most CHAT_LINES_PER_ROOM lines a room; closed
CHAT_CLOSE_MINUTES after the match ended (``chat_closed``); lines of only
invisible characters, with bidirectional overrides, or with a pile of stacked
accents are refused (``chat_invisible``, ``chat_bidi``, ``chat_marks``). The
record shows the last RECORD_CHAT_LINES lines of each room, older ones a page
further (``chat_record_page``), cached once the chat is closed.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta
from typing import TypedDict

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.blocks import has_blocked
from accounts.models import Block, User
from games.display.chat import ChatLine, chat_frame, chat_line
from games.live import transport
from games.models import PINK, ChatMessage, Match, Report
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

from . import trust

PLAYERS = ChatMessage.Room.PLAYERS.value
SPECTATORS = ChatMessage.Room.SPECTATORS.value
ROOMS = (PLAYERS, SPECTATORS)
MAX_CHARS = 140
HISTORY_LINES = 50  # sent on connect
CONTEXT_BEFORE, CONTEXT_AFTER = 5, 4  # a report keeps the message and the lines around it (10 in all)

# Words of the refusals whose codes the moves use too, said for the chat.
LOGIN_REQUIRED = _("Log in to write in the chat.")
NOT_A_PLAYER = _("Only the players write in the players' chat.")
GUEST = _("The chat needs an account.")
CLOSED = _("The chat of this match is closed.")
COMPUTER = _("There is no chat in a game against the computer.")
MAX_MARKS = 4  # combining marks in a row on one letter (Polish needs one; Vietnamese two)
RECORD_CHAT_LINES = 100  # per room and page of the record
# Unicode's bidirectional embeddings, overrides and isolates: they reorder the rest of the page's line.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def chat_clean(text: str) -> str:
    """The text as stored: runs of white space (new lines too) made one space,
    control characters dropped, stripped."""
    text = "".join(ch for ch in " ".join(text.split()) if unicodedata.category(ch) != "Cc")
    return text.strip()


def chat_check_text(text: str) -> None:
    """Refuse a cleaned line that shows nothing (only format characters such as
    zero-width spaces), carries bidirectional controls, or stacks more than
    MAX_MARKS combining marks on one character."""
    if any(ch in BIDI_CONTROLS for ch in text):
        raise Refusal("chat_bidi")
    if not any(unicodedata.category(ch) not in ("Cf", "Mn", "Me", "Zs", "Co", "Cn") for ch in text):
        raise Refusal("chat_invisible")
    run = 0
    for ch in text:
        run = run + 1 if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            raise Refusal("chat_marks")


def chat_closes_at(finished_at: datetime | None) -> datetime | None:
    """When the chat of a match that ended at ``finished_at`` stops taking lines."""
    return finished_at + timedelta(minutes=settings.CHAT_CLOSE_MINUTES) if finished_at is not None else None


def chat_open_after_end(finished_at: datetime | None) -> bool:
    """Whether the chat of a match that ended at ``finished_at`` still takes lines."""
    closes_at = chat_closes_at(finished_at)
    return closes_at is not None and timezone.now() < closes_at


def chat_room_of(match: Match, user_id: int | None) -> str:
    """The room a viewer reads on the match page: a player the players', anyone else the spectators'."""
    return PLAYERS if match.side_of(user_id) is not None else SPECTATORS


def chat_send(*, match_id: int, user_id: int | None, room: str, text: str) -> ChatLine:
    """Write ``text`` into ``room`` of the match as ``user_id``; the stored line.

    Guards, cheapest first: logged in, a known room, the text (not empty, at
    most 140 characters after ``chat_clean``), the match, the room is the
    writer's (players: a player who is not blocked by the opponent;
    spectators: an account that does not play the match), then the per-user
    rate (CHAT_MESSAGES_PER_WINDOW per CHAT_WINDOW_SECONDS, over all sockets).
    """
    if user_id is None:
        raise Refusal("login_required", LOGIN_REQUIRED)
    if room not in ROOMS:
        raise Refusal("bad_frame")
    text = chat_clean(text)
    if not text:
        raise Refusal("chat_empty")
    if len(text) > MAX_CHARS:
        raise Refusal("chat_too_long")
    chat_check_text(text)
    match = (
        Match.objects.filter(pk=match_id).only("pk", "pink_id", "blue_id", "bot_level", "status", "finished_at").first()
    )
    if match is None:
        raise Refusal("not_found")
    if match.bot_side is not None:
        raise Refusal("chat_closed", COMPUTER)
    if not match.is_active and not chat_open_after_end(match.finished_at):
        raise Refusal("chat_closed", CLOSED)
    side = match.side_of(user_id)
    if room == PLAYERS:
        if side is None:
            raise Refusal("not_a_player", NOT_A_PLAYER)
        opponent = match.blue_id if side == PINK else match.pink_id
        if opponent is not None and has_blocked(opponent, user_id):
            raise Refusal("blocked")
    elif side is not None:
        raise Refusal("not_a_spectator")
    else:
        # The players' blocks reach their spectators' room too.
        players = [pk for pk in (match.pink_id, match.blue_id) if pk is not None]
        if players and Block.objects.filter(blocker_id__in=players, blocked_id=user_id).exists():
            raise Refusal("blocked")
    author = User.objects.filter(pk=user_id).values_list("username", "is_guest").first()
    if author is None:
        raise Refusal("login_required", LOGIN_REQUIRED)
    name, is_guest = author
    if is_guest:
        raise Refusal("account_required", GUEST)
    if ChatMessage.objects.filter(match_id=match_id, room=room).count() >= settings.CHAT_LINES_PER_ROOM:
        raise Refusal("chat_full")
    if not limits.hit(
        "chat", str(user_id), limit=settings.CHAT_MESSAGES_PER_WINDOW, window=settings.CHAT_WINDOW_SECONDS
    ):
        raise Refusal("chat_rate_limited")
    with transaction.atomic():
        message = ChatMessage.objects.create(match_id=match_id, room=room, author_id=user_id, text=text)
        line = chat_line(message, name)
        transaction.on_commit(lambda: transport.send_to_chat(match_id, room, chat_frame(line)))
    return line


def chat_lines(*, match_id: int, room: str, limit: int = HISTORY_LINES) -> list[ChatLine]:
    """The last ``limit`` lines of ``room``, oldest first."""
    rows = (
        ChatMessage.objects.filter(match_id=match_id, room=room)
        .select_related("author")
        .order_by("-created_at", "-pk")[:limit]
    )
    return [chat_line(message) for message in reversed(list(rows))]


class RecordRoom(TypedDict):
    lines: list[ChatLine]  # oldest first
    older: bool  # lines before these exist (a page further)


def chat_record_page(*, match_id: int, finished_at: datetime | None, page: int = 1) -> dict[str, RecordRoom]:
    """The record's chat: page ``page`` (1: the latest) of RECORD_CHAT_LINES lines a
    room, oldest first, and whether older lines exist. One query a room whatever
    the chat's length; cached once the chat is closed (it never changes then)."""
    closed = finished_at is not None and not chat_open_after_end(finished_at)
    key = f"record-chat:{match_id}:{finished_at.isoformat() if finished_at else ''}:{page}"
    if closed:
        cached: dict[str, RecordRoom] | None = cache.get(key)
        if cached is not None:
            return cached
    size = RECORD_CHAT_LINES
    rooms: dict[str, RecordRoom] = {}
    for room in ROOMS:
        rows = list(
            ChatMessage.objects.filter(match_id=match_id, room=room)
            .select_related("author")
            .order_by("-created_at", "-pk")[(page - 1) * size : page * size + 1]
        )
        rooms[room] = {"lines": [chat_line(m) for m in reversed(rows[:size])], "older": len(rows) > size}
    if closed:
        cache.set(key, rooms, 24 * 3600)
    return rooms


def chat_rooms(*, match_id: int) -> dict[str, list[ChatLine]]:
    """Every line of both rooms, oldest first (staff and tests; the record reads ``chat_record_page``)."""
    rooms: dict[str, list[ChatLine]] = {room: [] for room in ROOMS}
    for message in ChatMessage.objects.filter(match_id=match_id).select_related("author").order_by("created_at", "pk"):
        rooms[message.room].append(chat_line(message))
    return rooms


def _context_of(message: ChatMessage) -> list[ChatLine]:
    """The message and the lines around it in its room, as they are now."""
    room = ChatMessage.objects.filter(match_id=message.match_id, room=message.room).select_related("author")
    earlier = Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, pk__lt=message.pk)
    later = Q(created_at__gt=message.created_at) | Q(created_at=message.created_at, pk__gt=message.pk)
    before = list(room.filter(earlier).order_by("-created_at", "-pk")[:CONTEXT_BEFORE])
    after = list(room.filter(later).order_by("created_at", "pk")[:CONTEXT_AFTER])
    return [chat_line(m) for m in [*reversed(before), message, *after]]


def report_create(
    *, reporter_id: int, match_id: int, message_id: int | None = None, reported_id: int | None = None, reason: str = ""
) -> Report:
    """A report for staff: of one chat line of the match (``message_id``: its author
    is reported, the context is the ~10 lines around it) or of a player of the
    match (``reported_id``: the context is the match's last 10 lines, both rooms)."""
    match = Match.objects.filter(pk=match_id).only("pk", "pink_id", "blue_id").first()
    if match is None:
        raise Refusal("not_found")
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, match_id=match_id).select_related("author").first()
        if message is None:
            raise Refusal("not_found")
        reported_id = message.author_id
        context = _context_of(message)
    else:
        if reported_id is None or match.side_of(reported_id) is None:
            raise Refusal("not_found")
        last = ChatMessage.objects.filter(match_id=match_id).select_related("author").order_by("-created_at", "-pk")
        context = [chat_line(m) for m in reversed(list(last[: CONTEXT_BEFORE + CONTEXT_AFTER + 1]))]
    if reported_id == reporter_id:
        raise Refusal("report_self")
    trust.require_established(reporter_id)
    if not limits.hit("report", str(reporter_id), limit=settings.REPORTS_PER_HOUR, window=3600):
        raise Refusal("reports_too_often")
    return Report.objects.create(
        reporter_id=reporter_id,
        reported_id=reported_id,
        match_id=match_id,
        message=message,
        reason=chat_clean(reason)[:500],
        context=list(context),
    )
