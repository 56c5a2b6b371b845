"""Running a desk's synchronous database call from a consumer (``db_call``)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import cast

from channels.db import database_sync_to_async
from django.db import DEFAULT_DB_ALIAS, connections

from . import workarounds


def db_call[**P, R](func: Callable[P, R], executor: ThreadPoolExecutor | None = None) -> Callable[P, Awaitable[R]]:
    """``database_sync_to_async`` on the thread pool rather than the one shared
    thread: matches do not queue behind each other's moves (the row lock orders
    the writers of one match).

    The pool's threads live as long as the process and there are few of them
    (the loop's default executor: CPU count + 4), so each keeps its database
    connection between calls instead of opening one per message (a new SQLite
    connection was ~9 % of daphne's CPU under load, PostgreSQL's costs a round
    trip and authentication). A connection that failed is still closed after
    the call, and ``CONN_HEALTH_CHECKS`` pings a kept one before it is reused.
    (``database_sync_to_async`` closes old connections in the thread itself,
    before and after the call; channels' ``aclose_old_connections`` would only
    hop to the one thread-sensitive thread and clean that thread's connection.)
    Broadcasts after commit are one publish each, from the thread (``games/live/hub.py``).
    ``executor``: another pool than the loop's (the chat's, ``CHAT_EXECUTOR``).
    """

    @functools.wraps(func)
    def keep_connection(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        finally:
            conn = connections[DEFAULT_DB_ALIAS]
            if conn.connection is not None and not conn.in_atomic_block:
                workarounds.keep_connection(conn)  # not "obsolete" for close_old_connections

    # channels ships no type hints: database_sync_to_async is untyped (it returns an awaitable version of the function).
    return cast(
        Callable[P, Awaitable[R]], database_sync_to_async(keep_connection, thread_sensitive=False, executor=executor)
    )
