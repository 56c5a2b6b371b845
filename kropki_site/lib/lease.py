"""Leadership of a singleton part (beat's schedule, the sweeper) across machines.

Every machine runs beat and the sweeper; each asks ``Lease(part).held()`` before it acts
(each tick, each sweep), and only the holder acts. The lease is a PostgreSQL session-level
advisory lock (``pg_try_advisory_lock``) on a connection of its own, so it lives exactly as
long as that database session:

- the holder's processes die (a machine stopped, every process SIGKILLed): its kernel
  closes the socket, PostgreSQL ends the session and frees the lock at once; the next
  ``held()`` of another machine (within a second) takes it;
- the holder's machine vanishes from the network without closing anything: the session's
  own TCP settings (``tcp_user_timeout`` and keepalives, set below for this session only)
  make PostgreSQL drop it within DEAD_PEER_SECONDS, and the holder, whose check of its
  connection fails first (``statement_timeout``), has stopped acting by then.

Why PostgreSQL and not a Redis lock or celery-redbeat: the sweeper is the clock's
broker-less last line of defence (it must go on while Redis is down), so its leadership
cannot live in Redis; the database is the one part every machine needs anyway, and a
session lock needs no renewing, no clock agreement between machines and no migration.
Two leaders at once would still be harmless (each sweep re-checks every match under its
row lock), so the lease saves doubled work and keeps beat's schedule single; it is not
what makes the clock correct.

On SQLite there is one machine by construction: ``held()`` is always true.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import zlib
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

# PostgreSQL drops a holder that stopped answering on the network within this time.
DEAD_PEER_SECONDS = 4
# Advisory lock keys live in one 64-bit space per database: ours are tagged.
_KEY_BASE = 0x4B52_4F50 << 32  # "KROP"


def host_name() -> str:
    """This machine's name, as /healthz reports the leader."""
    return socket.gethostname()


def lock_key(part: str) -> int:
    return _KEY_BASE | zlib.crc32(part.encode())


class Lease:
    """The lease on ``part``; ``held()`` takes it when free and tells whether this process has it."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.key = lock_key(part)
        self._conn: psycopg.Connection[Any] | None = None
        self._held = False
        db = settings.DATABASES["default"]
        self._everyone_leads = db["ENGINE"] != "django.db.backends.postgresql"  # SQLite: one machine

    def held(self) -> bool:
        """Whether this process leads ``part`` now; never raises (a database error means no)."""
        if self._everyone_leads:
            return True
        try:
            conn = self._connection()
            if self._held:
                conn.execute("SELECT 1")  # the session (and so the lock) is still there
            else:
                row = conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
                self._held = bool(row and row[0])
                if self._held:
                    log.info("lease %s: taken by %s (pid %s)", self.part, host_name(), os.getpid())
        except psycopg.Error as exc:
            if self._held:
                log.warning("lease %s: lost (%s)", self.part, exc)
            self.release()
        return self._held

    def release(self) -> None:
        """Close the session: the lock, if held, is free for the others at once."""
        conn, self._conn, self._held = self._conn, None, False
        if conn is not None:
            with contextlib.suppress(psycopg.Error):
                conn.close()

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is not None and not self._conn.closed:
            return self._conn
        db = settings.DATABASES["default"]
        conn = psycopg.connect(
            dbname=db["NAME"],
            user=db.get("USER") or None,
            password=db.get("PASSWORD") or None,
            host=db.get("HOST") or None,
            port=db.get("PORT") or None,
            connect_timeout=DEAD_PEER_SECONDS,
            application_name=f"kropki-lease:{self.part}@{host_name()}"[:63],
            autocommit=True,
            # The client's side: a dead server is noticed within seconds, too.
            keepalives=1,
            keepalives_idle=1,
            keepalives_interval=1,
            keepalives_count=2,
            tcp_user_timeout=DEAD_PEER_SECONDS * 500,
        )
        # The server's side, for this session only: a holder gone from the network is dropped.
        conn.execute(f"SET statement_timeout = {DEAD_PEER_SECONDS * 500}")
        conn.execute(f"SET tcp_user_timeout = {DEAD_PEER_SECONDS * 1000}")
        conn.execute("SET tcp_keepalives_idle = 1")
        conn.execute("SET tcp_keepalives_interval = 1")
        conn.execute(f"SET tcp_keepalives_count = {DEAD_PEER_SECONDS - 1}")
        self._conn = conn
        return conn


def leaders() -> dict[str, str]:
    """Which host holds each lease now, from the database's own view (application_name);
    {} on SQLite. Raises psycopg/Django database errors."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return {}
    parts = {lock_key(part): part for part in ("beat", "sweeper")}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (l.classid::bigint << 32) | l.objid::bigint, a.application_name"
            " FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        rows = cursor.fetchall()
    found = {}
    for key, name in rows:
        if key in parts and name.startswith("kropki-lease:"):
            found[parts[key]] = name.split("@", 1)[1]
    return found
