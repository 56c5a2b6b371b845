"""daphne as the site runs it (scripts/supervisord.conf, tests/live.py), with an access log that
never writes a secret (issue 37, item 11 b).

daphne's access log (stdout at its default verbosity, kept by supervisord) writes each request's
whole path with its query string. A token sent in the query (``?token=``, ``?access_token=``, an
arena's ``?key=``) is refused by the site, yet it would stand in clear in that log; here each such
value is written as ``[redacted]``. Everything else is daphne's own command line, unchanged:
``python -m kropki_site.serve -b HOST -p PORT ... kropki_site.asgi:application``.

The kernel's send buffer of every accepted connection is WEB_SEND_BUFFER_BYTES (64 KiB, which
Linux doubles; set on the listening socket, which accepted ones inherit), not Linux's
autotuned up to ``tcp_wmem``'s 4 MiB: a client that never reads holds at most that much in
the server's kernel beside the WS_MAX_UNSENT_BYTES / API_STREAM_MAX_UNSENT_BYTES in daphne's
own buffer, after which its socket or stream is dropped (issue 37, item 10 e). ``0`` keeps
the kernel's autotuning.
"""

from __future__ import annotations

import os
import re
import socket
from typing import Any
from urllib.parse import unquote_plus

from daphne import cli
from daphne.access import AccessLogGenerator
from twisted.internet import tcp

# a query parameter: its name (as sent: maybe percent-encoded) and its value, up to the next one
QUERY_PARAM = re.compile(r"([?&;])([^=&;\s\"]*)=([^&;\s\"]*)")
SECRET_NAMES = frozenset({"token", "access_token", "key"})
REDACTED = "[redacted]"


def _redacted(found: re.Match[str]) -> str:
    lead, name, value = found.groups()
    if unquote_plus(name).strip().lower() in SECRET_NAMES:  # %74oken is token to Django too
        value = REDACTED
    return f"{lead}{name}={value}"


def redact(request: str) -> str:
    """``request`` (e.g. ``GET /api/x?token=abc``) with every secret-named query value replaced."""
    if "?" not in request:
        return request
    path, query = request.split("?", 1)
    return path + QUERY_PARAM.sub(_redacted, "?" + query)


class RedactingAccessLog(AccessLogGenerator):  # type: ignore[misc]
    """daphne's NCSA-style access log, its request line redacted."""

    def write_entry(self, host: Any, date: Any, request: str, *args: Any, **kwargs: Any) -> None:
        super().write_entry(host, date, redact(request), *args, **kwargs)


def send_buffer_bytes() -> int:
    return int(os.environ.get("WEB_SEND_BUFFER_BYTES", "65536"))


class BoundedSendPort(tcp.Port):
    """Twisted's listening TCP port whose socket (so every accepted one) has a fixed send buffer."""

    def createInternetSocket(self) -> socket.socket:
        sock: socket.socket = super().createInternetSocket()  # type: ignore[no-untyped-call]
        if send_buffer_bytes() > 0:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer_bytes())
        return sock


def main() -> None:
    cli.AccessLogGenerator = RedactingAccessLog  # the command line builds its access log with this name
    tcp.Port = BoundedSendPort  # type: ignore[misc]  # the reactor's listenTCP (daphne's tcp: endpoints) builds its port with this name
    cli.CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
