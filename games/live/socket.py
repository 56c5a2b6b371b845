"""What the match socket and the site socket share (``LiveSocket``, the one socket base):
frames come from the hub (no channel layer), the topics, re-join and place under a
socket cap of every listener of the hub (listener.py, which the API's streams share),
the lease's renewal, its user's control topic (the 4401 close), the session it was
opened with and checked before each command, its language, a frame read within its
rate and bounds, the error frame, the end that releases everything however the socket
ends, and a send that never raises on a socket already closing. What leans on the
frameworks' internals is in workarounds.py."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from asgiref.sync import sync_to_async
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from kropki_site.lib.refusals import Refusal

from . import hub, transport, workarounds, wsframes
from .listener import LEASE_RENEW_SECONDS, HubListener

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

log = logging.getLogger(__name__)

CLOSE_LOGIN_REQUIRED = 4401
CLOSE_NOT_READING = 4408  # the client read nothing while WS_MAX_UNSENT_BYTES piled up for it


class SessionDesk(Protocol):
    """What every socket asks of its desk: is the session it was opened with still valid."""

    def credentials_valid(self, user_id: int, session_key: str | None, auth_hash: str | None) -> bool: ...


class KeepServerSend:
    """ASGI middleware, outermost: the server's own send callable in the scope (``server_send``),
    before any middleware wraps it, for ``workarounds.unsent_bytes``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.inner({**scope, "server_send": send}, receive, send)


class LiveSocket(HubListener, AsyncJsonWebsocketConsumer):  # type: ignore[misc]  # channels ships no type hints
    channel_layer_alias = hub.NO_CHANNEL_LAYER  # no channel, no channel-layer receive loop: the hub carries frames

    user_id: int | None = None
    session_key: str | None = None
    auth_hash: str | None = None
    desk: SessionDesk
    language: str
    tokens: wsframes.TokenBucket  # frames a second, set in connect()
    max_frame_bytes: int
    # The renewal of the socket's place under its cap, once connect() took it.
    lease_task: asyncio.Task[None] | None = None
    # The socket's own background tasks (attribute names), cancelled when it ends.
    task_names: tuple[str, ...] = ("lease_task",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The socket's name in Redis (socket caps, presence): channels would have named its channel so.
        self.channel_name = "ws." + secrets.token_hex(10)
        self.closing = False

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # also when daphne cancels the instance without a disconnect
            await self.stop()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its per-message ``aclose_old_connections`` (workarounds.py)."""
        await workarounds.dispatch(self, message)

    async def stop(self) -> None:
        """Cancel the socket's background tasks, leave its topics, give back its place under the
        cap. Runs at the disconnect and again when the instance ends: the second time is a no-op."""
        for name in self.task_names:
            task = getattr(self, name, None)
            if task is not None:
                task.cancel()
        await self.stop_listening()

    async def refuse(self, code: int) -> None:
        """Accept, then close with ``code``: a close before the accept reaches the
        browser as a handshake refused with HTTP 403, and its code is lost."""
        await self.accept()
        await self.close(code=code)

    def describe(self) -> str:
        """The socket in a log line."""
        return f"a socket of user {self.user_id}"

    # -- its place under the socket cap -------------------------------------------------------------

    async def take_place(self, key: str, cap: int) -> bool:
        """The listener's place (False: the cap is full), kept by a lease renewed every
        LEASE_RENEW_SECONDS for as long as the socket lives (``renew_place``)."""
        if not await super().take_place(key, cap):
            return False
        self.lease_task = asyncio.create_task(self._renew_forever())
        return True

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(LEASE_RENEW_SECONDS)
            await sync_to_async(self.renew_place, thread_sensitive=False)()

    # -- its user's control topic ---------------------------------------------------------------

    async def listen_to_user(self) -> None:
        """The user's control topic: a logout or password change elsewhere closes this socket."""
        if self.user_id is not None:
            await self.listen(transport.user_topic(self.user_id), self._on_user_control)

    async def _on_user_control(self, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            return
        keep = message.get("keep")
        if isinstance(keep, dict) and keep.get("tag") == transport.session_tag(self.session_key):
            # This socket's own session changed the password: it lives on under its new key.
            self.session_key, self.auth_hash = keep.get("key"), keep.get("hash")
            return
        if message.get("close"):
            await self.close_logged_out()

    async def close_logged_out(self) -> None:
        if not self.closing:
            self.closing = True
            await self.close(code=CLOSE_LOGIN_REQUIRED)

    # -- the session ----------------------------------------------------------------------------

    def read_credentials(self) -> None:
        """The session this socket was opened with (call in a database thread: the session may load)."""
        session = self.scope.get("session")
        if self.user_id is None or session is None:
            return
        self.session_key = session.session_key
        self.auth_hash = session.get(HASH_SESSION_KEY)

    def session_valid(self) -> bool:
        """In a database thread, before a command: the session this socket acts for is still
        valid (a logout's 4401 may have been lost)."""
        return self.user_id is not None and self.desk.credentials_valid(self.user_id, self.session_key, self.auth_hash)

    # -- frames in --------------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """A frame: read within the socket's rate and bounds, then ``command``; every refusal
        is an error frame and costs the frame, never the socket."""
        try:
            await self.command(self.read_frame(text_data))
        except Refusal as exc:
            await self.refused(exc)
        except DatabaseError:
            log.warning("database error on %s", self.describe(), exc_info=True)
            await self.database_error()
        except Exception:  # a bug must cost this frame, not the socket (issue 24, item 12)
            log.exception("%s: a frame failed", self.describe())
            await self.send_error(Refusal("server_unavailable"))

    def read_frame(self, text_data: str | None) -> dict[str, Any]:
        """The frame's JSON object, or Refusal: over the socket's rate, binary, over
        ``max_frame_bytes``, too deep (before json.loads could recurse: RecursionError, 1011), not JSON."""
        if not self.tokens.take():
            raise Refusal("rate_limited")
        if text_data is None:  # binary frames are not part of the protocol
            raise Refusal("bad_frame")
        if len(text_data.encode()) > self.max_frame_bytes:
            raise Refusal("frame_too_large")
        try:
            content = wsframes.loads_bounded(text_data)
        except wsframes.BadFrame:
            raise Refusal("bad_frame") from None
        except ValueError:
            raise Refusal("bad_json") from None
        if not isinstance(content, dict):
            raise Refusal("bad_frame")
        return content

    async def command(self, content: dict[str, Any]) -> None:
        raise NotImplementedError

    async def refused(self, exc: Refusal) -> None:
        await self.send_error(exc)

    async def database_error(self) -> None:
        """The connection dropped (restart, failover, a killed backend): the transaction rolled
        back, so nothing was written; say so."""
        await self.send_error(Refusal("server_unavailable"))

    async def send_error(self, exc: Refusal, words: Mapping[str, Any] | None = None) -> None:
        """An error frame, its message in the socket's language (``words``: this socket's own for some codes)."""
        with translation.override(self.language):
            message = str(words[exc.code]) if words and exc.code in words else exc.message
        await self.send_json({"type": "error", "code": exc.code, "message": message})

    # -- sending --------------------------------------------------------------------------------

    async def send_text(self, text: str) -> None:
        """A pre-encoded frame (from the hub)."""
        if self.closing:
            return
        await self.send(text_data=text)

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        """Every frame to the client (the hub's and the replies); a socket whose client has left
        WS_MAX_UNSENT_BYTES unread in daphne's buffer is closed (4408) and its connection dropped
        at once instead, its unsent bytes with it (issue 24 item 21, issue 37 item 10 e: a close
        alone waits behind those bytes, and the kernel's queues kept megabytes); its page reconnects."""
        server_send = self.scope.get("server_send")
        unsent = workarounds.unsent_bytes(server_send)
        if unsent is not None and unsent > settings.WS_MAX_UNSENT_BYTES:
            if not self.closing:
                log.warning("dropping a socket that reads nothing (%d bytes unsent)", unsent)
                self.closing = True
                await self.close(code=CLOSE_NOT_READING)
                workarounds.drop_connection(server_send)
            return
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    @classmethod
    async def encode_json(cls, content: dict[str, Any]) -> str:
        return json.dumps(content, ensure_ascii=False, default=str)


def socket_language(scope: dict[str, Any]) -> str:
    """The language of a socket's words, as a page's would be: the user's
    setting, else the language cookie, else Accept-Language, else Polish."""
    known = {code for code, _name in settings.LANGUAGES}
    user: User | AnonymousUser | None = scope.get("user")
    if user is not None and user.is_authenticated and getattr(user, "language", None) in known:
        return user.language
    cookie: str | None = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie is not None and cookie in known:
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept[:256]):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
