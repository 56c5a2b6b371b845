"""The API's two NDJSON streams (docs/api.md "Streams"), async views served on daphne's loop.

Each stream is a listener of the hub (games/live/listener.py), as a socket is: it joins its
topics, *then* reads the database (so nothing published in between is missed), writes one
JSON object a line, and an empty line every API_KEEPALIVE_SECONDS while nothing happens
(a client that hears nothing for three of them calls the connection dead and reconnects).

- ``GET /api/stream/event``: the account's events (topics ``site:<id>``, the site
  socket's, and ``api:<id>``). Counts as a site socket (``WS_SITE_SOCKETS_PER_USER``) and
  keeps its account in the online list while open.
- ``GET /api/bot/game/stream/<id>``: ``gameFull`` (with the move list), then a ``gameState`` a change of the
  match (topic ``match:<id>``); it ends after the state that finishes the match. Counts as
  a match socket (``WS_SOCKETS_PER_USER``).

A ``gameState`` line carries the ply and the move that made it (``last``), never the whole
list: a line does not grow with the game. When the hub's connection to Redis broke and came
back, or a frame was missed, a stream re-reads the database and says everything again (a
game stream a new ``gameFull``; the event stream its opening events). A stream cut by a daphne restart is simply opened again by the client: the first
line then has everything it needs (docs/api.md "Reconnecting").
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

from accounts.ip import client_ip
from accounts.models import ApiToken
from accounts.tokens import token_is_live
from games.live import hub, online, transport, workarounds, wsframes
from games.live.dbcall import db_call
from games.live.listener import LEASE_RENEW_SECONDS, HubListener
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

from . import reads
from .auth import authenticate, error

log = logging.getLogger(__name__)

RESYNC = "\x00resync"  # a marker in a stream's queue: re-read the database
END = "\x00end"  # a marker in a stream's queue: its token was revoked or its account deleted
QUEUE_LIMIT = 1000  # frames waiting for a slow client; past it the stream says everything again


def _line(value: dict[str, Any]) -> bytes:
    return (json.dumps(value, ensure_ascii=False, default=str) + "\n").encode()


class Feed(HubListener):
    """A stream's inbox: the frames of its topics from the hub, the hub's "resync", and the end
    of its token (``transport.end_api_streams`` on the account's ``api:`` topic, which every
    stream hears; and a check of the token with each renewal of the lease, should that frame
    be lost). ``online_user``: the account the lease's renewal also keeps in the online list."""

    def __init__(self, token: ApiToken, online_user: int | None = None) -> None:
        super().__init__()
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.channel_name = "api." + secrets.token_hex(10)
        self.token_id = token.pk
        self.user_id = token.user_id
        self.online_user = online_user
        self.renewed_at = 0.0
        self.token_live = True
        self.address_key: str | None = None  # its place among the streams of its address

    def _ends(self, text: str) -> bool:
        if not text.startswith('{"end_stream"'):
            return False
        try:
            token = json.loads(text).get("token")
        except ValueError:
            return False
        return token is None or token == self.token_id

    async def hear_end(self, text: str) -> None:
        """The account's ``api:`` topic of a stream that hears nothing else there."""
        if self._ends(text):
            self.queue.put_nowait(END)

    async def hear(self, text: str) -> None:
        if self._ends(text):
            self.queue.put_nowait(END)
            return
        if self.queue.qsize() >= QUEUE_LIMIT:  # the client reads too slowly: drop, and say it all again
            while not self.queue.empty():
                self.queue.get_nowait()
            text = RESYNC
        self.queue.put_nowait(text)

    async def resync(self) -> None:
        self.queue.put_nowait(RESYNC)

    async def open(self, topics: list[str], cap_key: str, cap: int, address: str) -> None:
        """Its places (under the account's cap, then under its address's), then its topics."""
        if not await self.take_place(cap_key, cap):
            raise Refusal("too_many_streams")
        self.address_key = limits.key("api-open", address)
        if not await sync_to_async(wsframes.acquire, thread_sensitive=False)(
            self.address_key, self.channel_name, settings.API_STREAMS_PER_ADDRESS
        ):
            self.address_key = None
            await self.stop_listening()
            raise Refusal("too_many_streams_address")
        for topic in topics:
            await self.listen(topic, self.hear)
        await self.listen(transport.api_topic(self.user_id), self.hear_end)  # joined above for the event stream
        self.rejoin_after_reconnect()

    def renew_place(self) -> None:
        super().renew_place()
        if self.online_user is not None:
            online.mark_online(self.online_user)
        if self.address_key is not None:
            wsframes.acquire(self.address_key, self.channel_name, settings.API_STREAMS_PER_ADDRESS)
        self.token_live = token_is_live(self.token_id)

    async def stop_listening(self) -> None:
        """Its topics left and both its places given back, to the end even when the response's
        task is cancelled meanwhile: a client's disconnect cancels Django's task, and dropping a
        stream that reads nothing makes daphne report one at once (issue 37: a cancelled release
        left the address's places taken until their lease lapsed, 90 s)."""
        if hub.loop_running():
            await asyncio.shield(self._give_back())

    async def _give_back(self) -> None:
        await super().stop_listening()
        if self.address_key is not None:
            key, self.address_key = self.address_key, None
            await sync_to_async(wsframes.release, thread_sensitive=False)(key, self.channel_name)

    async def next(self) -> str | None:
        """The next frame, or None after a keep-alive interval of silence (the lease renewed meanwhile)."""
        loop = asyncio.get_running_loop()
        if loop.time() - self.renewed_at > LEASE_RENEW_SECONDS:
            self.renewed_at = loop.time()
            await db_call(self.renew_place)()
            if not self.token_live:
                return END
        try:
            return await asyncio.wait_for(self.queue.get(), settings.API_KEEPALIVE_SECONDS)
        except TimeoutError:
            return None


async def _read_or_dropped(request: HttpRequest, lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """``lines``, until the client has left API_STREAM_MAX_UNSENT_BYTES unread in daphne's buffer:
    then the connection is dropped (its bytes freed) and the stream ends (issue 37: a client
    that never reads held a stream's every line in the server's memory)."""
    server_send = getattr(request, "scope", {}).get("server_send")
    try:
        async for line in lines:
            unsent = workarounds.unsent_bytes(server_send)
            if unsent is not None and unsent > settings.API_STREAM_MAX_UNSENT_BYTES:
                log.warning("dropping an API stream that reads nothing (%d bytes unsent)", unsent)
                await aclose(lines)  # its places given back first; the drop then cancels this task
                workarounds.drop_connection(server_send)
                return
            yield line
    finally:
        await aclose(lines)


async def aclose(lines: AsyncIterator[bytes]) -> None:
    close = getattr(lines, "aclose", None)
    if close is not None:
        await close()


def _ndjson(request: HttpRequest, lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(_read_or_dropped(request, lines), content_type="application/x-ndjson")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must pass each line on at once
    return response


async def _authenticated(request: HttpRequest, *scopes: str) -> ApiToken:
    return await db_call(lambda: authenticate(request, *scopes, stream=True))()


# -- the event stream -------------------------------------------------------------------------


@csrf_exempt
async def event_stream(request: HttpRequest) -> HttpResponseBase:
    """GET /api/stream/event (scope bot:play or challenge:write)."""
    if request.method != "GET":
        return error(Refusal("method_not_allowed"))
    try:
        token = await _authenticated(request, "bot:play", "challenge:write")
        user_id = token.user_id
        feed = Feed(token, online_user=user_id)
        await feed.open(
            [transport.site_topic(user_id), transport.api_topic(user_id)],
            online.sockets_key(user_id),
            online.socket_cap(),
            client_ip(request),
        )
    except Refusal as exc:
        return error(exc)

    async def lines() -> AsyncIterator[bytes]:
        try:
            # A keep-alive line at once: the response's headers go out with the first bytes of its
            # body, and a client waits on them (with nothing to say, they went after the first
            # keep-alive interval; a client's connect timeout below that saw no stream).
            yield b"\n"
            await sync_to_async(online.mark_online, thread_sensitive=False)(user_id)
            for event in await db_call(reads.opening_events)(user_id):
                yield _line(event)
            while True:
                text = await feed.next()
                if text is None:
                    yield b"\n"
                elif text == END:
                    return
                elif text == RESYNC:
                    for event in await db_call(reads.opening_events)(user_id):
                        yield _line(event)
                else:
                    told = _event(text)
                    if told is not None and told["type"] == "gameStart":  # with its colour and opponent
                        told = await db_call(reads.game_start_of)(
                            told["game"]["id"], user_id, told["game"]["challenge"]
                        )
                    if told is not None:
                        yield _line(told)
        finally:
            await feed.stop_listening()
            # Out of the online list unless a page or another stream of the account is open (no
            # announcement to the lobbies: their next list leaves it out).
            await sync_to_async(online.mark_offline_if_gone, thread_sensitive=False)(user_id)

    return _ndjson(request, lines())


def _event(text: str) -> dict[str, Any] | None:
    try:
        frame = json.loads(text)
    except ValueError:
        return None
    return reads.event_line(frame) if isinstance(frame, dict) else None


# -- the game stream --------------------------------------------------------------------------


@csrf_exempt
async def game_stream(request: HttpRequest, match_id: int) -> HttpResponseBase:
    """GET /api/bot/game/stream/<id> (scope bot:play or board:read)."""
    if request.method != "GET":
        return error(Refusal("method_not_allowed"))
    try:
        token = await _authenticated(request, "bot:play", "board:read")
        user_id = token.user_id
        feed = Feed(token)
        cap_key = limits.key("ws", "user", user_id)
        await feed.open([transport.match_topic(match_id)], cap_key, settings.WS_SOCKETS_PER_USER, client_ip(request))
        try:
            full = await db_call(reads.game_full)(match_id, user_id)
        except BaseException:
            await feed.stop_listening()
            raise
    except Refusal as exc:
        return error(exc)

    async def lines() -> AsyncIterator[bytes]:
        game = GameView(full)
        try:
            yield _line(full)
            if full["state"]["status"] != "active":
                return
            while True:
                text = await feed.next()
                if text is None:
                    yield b"\n"
                    continue
                if text == END:
                    return
                line = game.update(text) if text != RESYNC else None
                if text == RESYNC or line == RESYNC_NEEDED:  # a gap: everything again, as a gameFull
                    again = await db_call(reads.game_full)(match_id, user_id)
                    game.reset(again["state"])
                    yield _line(again)
                    if again["state"]["status"] != "active":
                        return
                elif isinstance(line, dict):
                    yield _line(line)
                    if line["status"] != "active":
                        return
        finally:
            await feed.stop_listening()

    return _ndjson(request, lines())


RESYNC_NEEDED = object()


class GameView:
    """How far a game stream has told the match (its ply) and the clocks, kept up to date from
    the match's frames: a ``gameState`` carries the new move, not the list (docs/api.md)."""

    def __init__(self, full: dict[str, Any]) -> None:
        self.id = full["id"]
        self.reset(full["state"])

    def reset(self, state: dict[str, Any]) -> None:
        self.ply: int = state["ply"]
        self.clocks: dict[str, float] = dict(state["clocks"])

    def update(self, text: str) -> dict[str, Any] | object | None:
        """The gameState line of a match frame, None for a frame that changes nothing said
        (a chat line, the computer's queue), RESYNC_NEEDED after a gap."""
        try:
            frame = json.loads(text)
        except ValueError:
            return None
        header = frame.get("match") if isinstance(frame, dict) else None
        if not isinstance(header, dict) or frame.get("type") in ("created", "rematch"):
            return None
        ply = frame.get("ply")
        if frame.get("type") == "clock" and "berserk" in frame:
            return RESYNC_NEEDED  # a player's clock was halved: the clocks as stored
        last = None
        if "action" in frame and "by" in frame:
            if ply == self.ply:  # heard already (a resync read it)
                return None
            if ply != self.ply + 1:
                return RESYNC_NEEDED
            self.ply = ply
            last = {key: frame.get(key) for key in ("action", "by", "notation", "by_timeout")}
        elif ply != self.ply:
            return RESYNC_NEEDED
        return reads.state_line(self.id, self.ply, header, last, self.clocks)
