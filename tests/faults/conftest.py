"""Fault tests on the real stack (docs/reliability.md rows 7, 8, 9, plus a dropped
database connection and the planned restart of docs/deploy.md).

Each test gets a site of its own: a fresh database (SQLite file, or a new
PostgreSQL database next to DATABASE_URL's), its **own** redis-server on a unix
socket in the test's temporary directory (so restarting it never touches the
machine's Redis), and starts the processes it needs (daphne, Celery worker and
beat, ``manage.py sweep_turns --loop``) through tests/live.py. Everything is
stopped and the database dropped when the test ends.

``Player`` is a test client that behaves like static/js/match.js: it keeps the
last ply it drew, drops old frames and duplicates, asks for ``sync`` on a gap,
and after any close (other than 4401/4404) reconnects with the same backoff
(min(8 s, 0.5 s x 2^attempt), jittered) and sends ``sync``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest
import websockets
from websockets.typing import Origin

from kropki_site.lib import devredis
from tests import live

MOVE_SECONDS = 3
GRACE_SECONDS = 1
SWEEP_SECONDS = 1  # beat's sweep task (settings.SWEEP_SECONDS), as in production
LOOP_SECONDS = 2  # the sweep_turns loop's --interval, as scripts/run starts it
PASSWORD = "kropka-Trudna-2024"


# -- a Redis of our own, that we may kill and restart ---------------------------


class PrivateRedis:
    """redis-server on a unix socket in the test's directory: no persistence,
    ``noeviction`` (as in production). ``restart()`` loses everything, like a
    production Redis without persistence that crashed."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.sock = workdir / "redis.sock"
        self.popen: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.sock}"

    def start(self) -> None:
        self.sock.unlink(missing_ok=True)
        self.popen = devredis.start(self.sock)

    def kill(self) -> None:
        """kill -9: every queued Celery message, group membership and key is gone."""
        if self.popen is not None:
            live.stop_group(self.popen, timeout=5, sig=signal.SIGKILL)
            self.popen = None

    def stop(self) -> None:
        if self.popen is not None:
            live.stop_group(self.popen, timeout=5)
            self.popen = None


# -- the site -------------------------------------------------------------------


@dataclass
class FaultSite:
    site: live.LiveSite
    redis: PrivateRedis
    workdir: Path
    url: str = ""
    daphne: live.Proc | None = None
    port: int = 0
    extra: list[live.Proc] = field(default_factory=list)

    # processes

    def start_daphne(self, name: str = "daphne") -> str:
        proc, url = self.site.start_daphne(port=self.port or None, name=name)
        self.daphne, self.url = proc, url
        port = urlparse(url).port
        assert port is not None, url
        self.port = port
        return url

    def start_sweeper(self, name: str = "sweeper") -> live.Proc:
        proc = live.start(
            name,
            [str(live.VENV_BIN / "python"), "manage.py", "sweep_turns", "--loop", "--interval", str(LOOP_SECONDS)],
            self.site.env,
            self.workdir,
        )
        self.site.procs.append(proc)
        live.wait_for_log(proc, "sweeping every", 60)
        return proc

    def forget(self, proc: live.Proc) -> None:
        if proc in self.site.procs:
            self.site.procs.remove(proc)

    def kill(self, proc: live.Proc) -> None:
        proc.kill()
        self.forget(proc)

    def stop(self, proc: live.Proc) -> None:
        proc.stop()
        self.forget(proc)

    # database

    def call(self, name: str, **kwargs: object) -> dict:
        """A function of tests/sitecalls/ run in this site's database (LiveSite.call)."""
        return self.site.call(name, **kwargs)

    def create_match(self, variant: str = "kropki-10", rated: bool = False) -> dict:
        """alice and bob, each with a session, and a new match: alice (pink) against bob."""
        return self.call("players_with_match", variant=variant, names=["alice", "bob"], rated=rated, password=PASSWORD)

    def db_state(self, match_id: int) -> dict:
        return self.call("match_db_state", match_id=match_id)


@pytest.fixture
def fault_site_factory():
    """``make(**env)``: a site of its own (database, private Redis) with MOVE_SECONDS=3,
    MOVE_GRACE_SECONDS=1 and SWEEP_SECONDS=1 unless overridden. Stops everything afterwards."""
    made: list[FaultSite] = []

    def make(**env: str) -> FaultSite:
        workdir = Path(tempfile.mkdtemp(prefix="kropki-fault-"))
        redis = PrivateRedis(workdir)
        redis.start()
        settings_env = {
            "MOVE_SECONDS": str(MOVE_SECONDS),
            "MOVE_GRACE_SECONDS": str(GRACE_SECONDS),
            "SWEEP_SECONDS": str(SWEEP_SECONDS),
            **env,
        }
        try:
            site = live.make_live_site(workdir, redis.url, **settings_env)
        except Exception:
            redis.stop()
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        fs = FaultSite(site=site, redis=redis, workdir=workdir)
        made.append(fs)
        return fs

    yield make
    for fs in made:
        fs.site.stop_all()
        fs.redis.stop()
        try:
            live.drop_live_database(fs.site.env["DATABASE_URL"])
        finally:
            if os.environ.get("KROPKI_KEEP_FAULT_LOGS"):
                print(f"fault logs kept in {fs.workdir}")
            else:
                shutil.rmtree(fs.workdir, ignore_errors=True)


@pytest.fixture
def fault_site(fault_site_factory) -> FaultSite:
    return fault_site_factory()


# -- a client that behaves like static/js/match.js --------------------------------


class Player:
    """One browser tab on a match page, as static/js/match.js behaves."""

    def __init__(self, base_url: str, match_id: int, who: dict | None, name: str = ""):
        self.base_url = base_url
        self.match_id = match_id
        self.who = who
        self.name = name or (str(who["id"]) if who else "spectator")
        self.last_ply = -1
        self.snapshot: dict | None = None
        self.you: int | None = None
        self.frames: list[dict] = []
        self.errors: list[dict] = []
        self.connects = 0
        self.closes: list[int | None] = []
        self.ws = None
        self.stopped = False
        self.sent: list[tuple[int, int]] = []  # (ply, action) of every move sent
        self._task: asyncio.Task | None = None
        self._open = asyncio.Event()

    # connection loop

    async def start(self, timeout: float = 15) -> Player:
        self._task = asyncio.create_task(self._run())
        await self.wait(lambda p: p.snapshot is not None, timeout, "first state frame")
        return self

    async def _connect(self):
        host = urlparse(self.base_url).netloc
        headers = [("Cookie", f"{self.who['cookie_name']}={self.who['cookie']}")] if self.who else []
        return await websockets.connect(
            f"ws://{host}/ws/match/{self.match_id}/",
            origin=Origin(f"http://{host}"),
            additional_headers=headers,
            open_timeout=5,
            close_timeout=1,
        )

    async def _run(self) -> None:
        attempts = 0
        while not self.stopped:
            try:
                ws = await self._connect()
            except (TimeoutError, OSError, websockets.InvalidHandshake, websockets.InvalidURI):
                ws = None
            if ws is not None:
                attempts = 0
                self.ws = ws
                self.connects += 1
                self._open.set()
                try:
                    await ws.send(json.dumps({"type": "sync"}))
                    async for raw in ws:
                        try:
                            frame = json.loads(raw)
                        except ValueError:
                            continue
                        await self._on_frame(frame)
                except websockets.ConnectionClosed:
                    pass
                self._open.clear()
                self.ws = None
                self.closes.append(ws.close_code)
                if ws.close_code in (4401, 4404):
                    self.stopped = True
                    return
            if self.stopped:
                return
            base = min(8.0, 0.5 * 2**attempts)
            attempts += 1
            await asyncio.sleep(base / 2 + random.random() * base / 2)

    async def _on_frame(self, frame: dict) -> None:
        """As static/js/match.js: a state frame replaces the picture; another frame
        brings the match header (and a move); a gap asks for the state."""
        self.frames.append(frame)
        if frame.get("type") == "error":
            self.errors.append(frame)
            return
        if not isinstance(frame.get("ply"), int):
            return
        if frame["type"] == "state":
            if not frame.get("snapshot") or frame["ply"] < self.last_ply:
                return
            if frame.get("you") is not None:
                self.you = frame["you"]
            self.snapshot = frame["snapshot"]
        else:
            if not frame.get("match") or frame["ply"] < self.last_ply or self.snapshot is None:
                return
            is_move = isinstance(frame.get("action"), int)
            if is_move and frame["ply"] == self.last_ply:
                return  # a duplicate
            if frame["ply"] > self.last_ply + (1 if is_move else 0):
                await self.send({"type": "sync"})  # a gap: the state frame brings the whole match
                return
            self.snapshot = {**self.snapshot, **frame["match"], "ply": frame["ply"]}
            if is_move:
                self.snapshot["moves"] = self.snapshot["moves"] + [frame["notation"]]
        self.last_ply = frame["ply"]

    async def send(self, frame: dict) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(frame))
            return True
        except websockets.ConnectionClosed:
            return False

    async def close(self) -> None:
        self.stopped = True
        if self.ws is not None:
            await self.ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    # playing

    async def wait(self, predicate, timeout: float, what: str = "condition") -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{self.name}: no {what} within {timeout} s (last ply {self.last_ply}, "
                    f"status {self.snapshot and self.snapshot['status']}, errors {self.errors[-3:]})"
                )
            await asyncio.sleep(0.02)

    async def wait_connected(self, timeout: float) -> None:
        await asyncio.wait_for(self._open.wait(), timeout)

    async def move(self, action: int) -> int:
        """Send ``action`` as the answer to the position drawn; returns the ply sent."""
        ply = self.last_ply
        if not await self.send({"type": "move", "ply": ply, "action": action}):
            raise ConnectionError(f"{self.name}: socket closed")
        self.sent.append((ply, action))
        return ply

    def acked(self) -> list[tuple[int, int, int]]:
        """(ply, by, action) of every ``moved``/``finished`` frame for a move this player made."""
        return sorted(
            {
                (f["ply"], f["by"], f["action"])
                for f in self.frames
                if f.get("type") in ("moved", "finished") and f.get("by") == self.you and "action" in f
            }
        )


async def play(mover: Player, watcher: Player, action: int, timeout: float = 10) -> int:
    """``mover`` plays ``action``; both see the move. Returns the new ply."""
    ply = await mover.move(action)
    for p in (mover, watcher):
        await p.wait(lambda q: q.last_ply >= ply + 1, timeout, f"ply {ply + 1}")
    return ply + 1


def assert_clients_match_db(db: dict, *players: Player) -> None:
    """Each client draws exactly the server's state: ply, move list, status, turn, deadline."""
    for p in players:
        snap = p.snapshot
        assert snap is not None
        assert snap["ply"] == db["ply"] == p.last_ply, (p.name, snap["ply"], db["ply"])
        assert len(snap["moves"]) == db["ply"], (p.name, snap["moves"], db["moves"])
        assert snap["status"] == db["status"], (p.name, snap["status"], db["status"])
        assert snap["to_move"] == db["to_move"], p.name
        if db["deadline"] is None:
            assert snap["deadline"] is None
        else:
            assert snap["deadline"] is not None
            assert abs(_ts(snap["deadline"]) - _ts(db["deadline"])) < 0.01, (snap["deadline"], db["deadline"])


def assert_moves_consistent(db: dict, *players: Player) -> None:
    """No accepted move lost: every acknowledged move is in the database at its ply,
    the moves are numbered 1..ply without a gap and history has one entry per move."""
    moves = db["moves"]
    assert [m[0] for m in moves] == list(range(1, db["ply"] + 1))
    assert len(db["history"]) == db["ply"]
    by_ply = {m[0]: (m[1], m[2]) for m in moves}
    for p in players:
        for ply, by, action in p.acked():
            assert by_ply.get(ply) == (by, action), f"{p.name}: acked move {ply} {action} not stored as such"


def assert_nothing_overdue(db: dict) -> None:
    """No match of the site is still active 10 s past its deadline (+ grace)."""
    now = time.time()
    late = [(pk, now - _ts(d)) for pk, d in db["active_deadlines"] if now > _ts(d) + GRACE_SECONDS + 10]
    assert not late, f"active past deadline + 10 s: {late}"


def _ts(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def deadline_ts(snapshot: dict | None) -> float:
    assert snapshot is not None, "no state frame yet"
    return _ts(snapshot["deadline"])
