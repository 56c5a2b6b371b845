"""What the match socket and the site socket share: frames come from the hub (no
channel layer), the topics a socket hears, its user's control topic (the 4401
close), the session it was opened with, and a send that never raises on a socket
already closing."""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY

from . import hub, transport, workarounds

log = logging.getLogger(__name__)

CLOSE_LOGIN_REQUIRED = 4401
CLOSE_NOT_READING = 4408  # the client read nothing while WS_MAX_UNSENT_BYTES piled up for it


class KeepServerSend:
    """ASGI middleware, outermost: the server's own send callable in the scope (``server_send``),
    before any middleware wraps it, for ``workarounds.unsent_bytes``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.inner({**scope, "server_send": send}, receive, send)


class LiveSocket(AsyncJsonWebsocketConsumer):  # type: ignore[misc]  # channels ships no type hints
    channel_layer_alias = hub.NO_CHANNEL_LAYER  # no channel, no channel-layer receive loop: the hub carries frames

    user_id: int | None = None
    session_key: str | None = None
    auth_hash: str | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The socket's name in Redis (socket caps, presence): channels would have named its channel so.
        self.channel_name = "ws." + secrets.token_hex(10)
        self.listening: dict[str, hub.Listener] = {}
        self.closing = False

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its per-message ``aclose_old_connections`` (workarounds.py)."""
        await workarounds.dispatch(self, message)

    # -- topics -------------------------------------------------------------------------------

    async def listen(self, topic: str, listener: hub.Listener) -> None:
        if topic in self.listening:
            return
        self.listening[topic] = listener
        await hub.hub().join(topic, listener)

    async def unlisten(self, topic: str) -> None:
        listener = self.listening.pop(topic, None)
        if listener is not None:
            await hub.hub().leave(topic, listener)

    async def unlisten_all(self) -> None:
        for topic in list(self.listening):
            try:
                await self.unlisten(topic)
            except Exception:  # Redis away: the hub's connection drops its subscriptions anyway
                log.warning("leaving %s failed", topic, exc_info=True)

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

    # -- sending --------------------------------------------------------------------------------

    async def send_text(self, text: str) -> None:
        """A pre-encoded frame (from the hub); a socket whose client stopped reading is closed
        instead (its frames would pile up in daphne's memory), and its page reconnects."""
        if self.closing:
            return
        unsent = workarounds.unsent_bytes(self.scope.get("server_send"))
        if unsent is not None and unsent > settings.WS_MAX_UNSENT_BYTES:
            log.warning("closing a socket that reads nothing (%d bytes unsent)", unsent)
            self.closing = True
            await self.close(code=CLOSE_NOT_READING)
            return
        await self.send(text_data=text)

    @classmethod
    async def encode_json(cls, content: dict[str, Any]) -> str:
        return json.dumps(content, ensure_ascii=False, default=str)
