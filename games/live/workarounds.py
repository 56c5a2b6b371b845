"""The sockets' workarounds in channels, asgiref, Django and daphne, in one module.

Each one leans on an internal that no public API offers, and says what breaks if
that internal changes. tests/games/live/test_workarounds.py pins the versions they
were checked against (``CHECKED_WITH``) and checks that each internal is still the
way this module expects: after an upgrade the test fails there first, and points
here. The rest of games/live/ calls these and touches no framework internal itself.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from django.db.backends.base.base import BaseDatabaseWrapper

# The versions each workaround below was read against (requirements.lock).
CHECKED_WITH = {"channels": "4.3.2", "asgiref": "3.13.0", "daphne": "4.2.3", "Django": "6.1.3", "Twisted": "26.10.0"}


async def dispatch(consumer: Any, message: dict[str, Any]) -> None:
    """channels' ``AsyncConsumer.dispatch`` without its ``aclose_old_connections`` before every
    message: that is a hop to the one thread-sensitive thread (per frame), and it only cleans
    that thread's connection. The sockets touch the database only through ``db_call``, whose
    pool thread closes old connections itself. (channels 4.3.2: ``get_handler_name`` maps
    ``websocket.receive`` to ``websocket_receive``, as channels' own dispatch does.)"""
    handler = getattr(consumer, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


def keep_connection(conn: BaseDatabaseWrapper) -> None:
    """Keep a pool thread's database connection between calls: with ``close_at`` None it is
    not "obsolete" for ``close_old_connections`` (CONN_MAX_AGE is 0 for requests), which
    ``database_sync_to_async`` runs before and after each call (Django 6.1: the check in
    ``BaseDatabaseWrapper.close_if_unusable_or_obsolete``)."""
    conn.close_at = None


def unsent_bytes(send: Any) -> int | None:
    """Bytes daphne holds for a socket that the client has not taken yet, or None if unknown.

    A client that never reads (a stalled tab, a hostile script) makes Twisted buffer every
    frame for it, without bound (issue 24, item 21: ~6 kB/s per socket of a busy match).
    daphne hands each application ``partial(server.handle_reply, protocol)`` as its send
    (daphne/server.py ``create_application``); the protocol's Twisted transport keeps the
    pending bytes in ``dataBuffer`` (from ``offset``) and ``_tempDataBuffer``
    (``twisted.internet.abstract.FileDescriptor``). These are internals: any other server,
    or a change in them, gives None and no limit (pinned by the live test,
    tests/live_play/test_socket_lifetime.py::test_row_21_a_socket_that_never_reads_is_closed).
    Channels' session middleware wraps ``send``, so ``games.live.socket.KeepServerSend``
    keeps daphne's own."""
    args = getattr(send, "args", None)
    transport = getattr(args[0], "transport", None) if args else None
    if transport is None:
        return None
    try:
        return len(transport.dataBuffer) - int(transport.offset) + int(transport._tempDataLen)
    except (AttributeError, TypeError):
        return None


def drop_connection(send: Any) -> bool:
    """Drop the connection under daphne's ``send`` at once, its unsent bytes with it (Twisted's
    ``abortConnection``): an API stream whose client stopped reading, which a normal end would
    not free (daphne's ``finish`` waits for those bytes to go out). False if unknown (another
    server): the caller just ends. The same internals as ``unsent_bytes``."""
    args = getattr(send, "args", None)
    transport = getattr(args[0], "transport", None) if args else None
    abort = getattr(transport, "abortConnection", None)
    if abort is None:
        return False
    abort()
    return True
