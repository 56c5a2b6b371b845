"""The WebSocket handshake's Origin, checked whole (issue 24, item 21).

Channels' ``AllowedHostsOriginValidator`` compares the Origin's host with
``ALLOWED_HOSTS`` and ignores its scheme and port, so a page served from
``http://kropki.example:8080`` (another program on the same host) could open
sockets with a visitor's cookies. Here the Origin must be the page's own origin:
the scheme the visitor used (``wss`` → ``https``; behind the proxy, its
``X-Forwarded-Proto``), the ``Host`` header's host and port, default ports
folded; or one of ``CSRF_TRUSTED_ORIGINS``. This runs inside the host check,
which still refuses hosts not in ``ALLOWED_HOSTS`` and a missing Origin. A
handshake without a ``Host`` header (no browser sends one) gets the host check only.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope
from channels.security.websocket import WebsocketDenier
from django.conf import settings

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return scheme, parts.hostname.lower(), port


def same_origin(scope: dict[str, Any]) -> bool:
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers") or []}
    origin = headers.get("origin")
    if not origin:
        return False
    parts = urlsplit(origin)
    claimed = _origin(parts.scheme.lower(), parts.netloc) if parts.scheme in ("http", "https") else None
    if claimed is None:
        return False
    trusted = {_origin(urlsplit(o).scheme, urlsplit(o).netloc) for o in settings.CSRF_TRUSTED_ORIGINS}
    if claimed in trusted:
        return True
    host = headers.get("host")
    if host is None:
        return True  # the host check alone (see above)
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    if settings.BEHIND_PROXY and headers.get("x-forwarded-proto", "").strip().lower() in DEFAULT_PORTS:
        scheme = headers["x-forwarded-proto"].strip().lower()
    return claimed == _origin(scheme, host)


class SameOriginValidator:
    """Refuse (HTTP 403, as Channels' validators do) a handshake from another origin."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        if scope["type"] == "websocket" and not same_origin(dict(scope)):
            await WebsocketDenier()(scope, receive, send)
            return
        await self.inner(scope, receive, send)
