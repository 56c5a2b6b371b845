"""Live play through the whole stack: N concurrent matches over WebSockets.

    python bench/live.py --matches N [--daphnes D] [--moves M] [--think-ms T] [--variant KEY] [--seed S]
                         [--params JSON] [--tree PATH] [--timeout S] [--max-seconds S]

``--params '{"width": 40, "height": 40}'``: the matches are casual games with these engine
parameters (a game's own settings, ``Match.params``: Kropki 40×40, say) instead of the variant's.
``--days N``: correspondence games (N days a move; their "your turn" notices are beat's, not
the move's: games/play/correspondence.py).
``--notify N``: while the matches play, another process at the notifications worker's priority
(``nice -n 10``, as scripts/supervisord.conf runs it) tells N notifications (games/notifications:
to the bench's players, their e-mail addresses verified) into the outbox, makes their rows as
beat's delivery does (``deliver_paced`` every NOTIFY_DELIVER_SECONDS: NOTIFY_DELIVER_STEPS batches
of NOTIFY_DELIVER_BATCH players spread over the second) and
sends their N e-mails through a local SMTP server (aiosmtpd's own process): what 10,000
notifications cost the live moves beside them. The mails go as the site sends them, once the
rows are made: a sweep of NOTIFY_MAIL_BATCH every
NOTIFY_MAIL_SECONDS (beat's; 200 every 20 s by default), until the matches are over;
``--notify-rate R`` sends R a second instead (``0``: batches of 500 back to back, the sender's
own limit). The JSON gains ``notify``: rows, mails sent, sweeps, the rate, seconds.
``--notify-part rows`` makes the rows only (no mail); ``--notify-part mails`` makes the N rows in
one statement, then mails them: which part costs the moves. ``--notify-part fanout`` makes N
players of their own before the matches start, then tells all of them in one ``notify`` call,
as an arena's notice to its players is made, and mails them. ``--notify-part sweep`` makes N
correspondence games of 200 players of their own, all due, before the matches start; then beat's
turn sweep (``turns_due``: 500 games a batch, one transaction each) tells their players, back to
back or (``--sweep-every S``) one sweep every S seconds as beat sends them, and the mails go.
``--evals N``: while the matches play, N visitors of their own address each ask the analysis
board of the first daphne for the evaluation of one random position of a random game (every
game with a reviewer) after another (``/analiza/<variant>/?ruchy=…&ocena=1``;
games/review/analysis_board.py), asking again every
second while it is made, as the page does, within the site's limit a minute; an analysis worker
(Celery, the ``analysis`` and ``board`` queues) makes them: what the evaluations cost the moves beside them.
The JSON gains ``evals``: answered, refused, the median seconds to an answer, the visitors.

Starts everything it needs: its own Redis (redis-server on a unix socket in a
temporary directory), a database (a temporary SQLite file, or a fresh
PostgreSQL database next to DATABASE_URL when that is set; migrated), and one
daphne (``--daphnes D``: D of them on D ports, sharing Redis and the database;
each match's two players, and each baseline pair, on different ones). No Celery: moves need none (MOVE_SECONDS is set high so no clock fires).

``--tree PATH``: the server side (``manage.py migrate``, the set-up script
below, daphne) runs from another checkout of this project, with that tree's
code (cwd and PYTHONPATH = PATH) and its ``PATH/.venv`` (a symlink to this
tree's ``.venv`` will do; the tree needs its compiled translations and
collected static files, as ``scripts/setup.sh`` makes them). The client
(this file, the engine it tracks positions with) is always this checkout's.
Default: this checkout. ``bench/live_compare.py`` runs two trees alternately.

Then, for each of N matches, two sockets (one per player, logged in by session
cookie) play random legal moves as fast as the server answers: the player to
move sends ``{"type": "move", "ply", "action"}`` as soon as its socket has the
position, up to M moves per match (``--think-ms T``: it first waits
T × U(0.5, 1.5) ms). Kropki's "end the game" action is never chosen. The
client keeps the position itself: the engine state of the variant
(``games.catalogue``), to which it applies the ``action`` of every
``moved``/``finished`` frame, so it needs no ``snapshot`` in move frames and
plays the same with either wire format (move frames with a whole ``snapshot``,
or with a small ``match`` header); it checks the frames' ``to_move`` (and a
``state`` frame's ``legal``) against its own. The latency of a move is the
time from sending it to the *opponent's* socket receiving the ``moved`` (or
``finished``) frame with the new ply: the service (row lock, move row,
engine), the commit, the frame, and the Redis group_send. A ``rate_limited``
answer (a player with many Kropki i kwadraty extra moves in a row) is waited
out and the move resent, the latency then counted from the resend
(``rate_limited`` in the JSON counts them).

Also measured, for the matches only: every text frame the players' sockets
receive, by type (``state``, ``moved``, ``finished``, ...): count, median and
max of its UTF-8 length in bytes; and the CPU seconds (psutil, user + system)
of every daphne process and its children, of Redis and of this client,
sampled right before the matches start and right after the last one
finishes, divided by the moves played.

Baseline, measured in the same run through the same daphne and Redis: N pairs
of ws/ping/ sockets, each pair in its own group; one socket sends
``{"relay": group, "data": ...}`` and the server does a bare ``group_send``;
the time until the other socket receives it. The pairs take turns the same way
(M round trips each, all pairs at once); daphne's CPU per relay is measured
the same way.

Every wait is bounded (``--timeout``, default 30 s, per frame; ``--max-seconds``,
default 900, for each phase). A run that fails (e.g. Kropki 20×20 on a tree
whose first ``state`` frame is over daphne's 64 KiB limit: the socket closes
before any frame) still prints its JSON line, with ``"error"``, and exits 1.

The last line printed is one JSON object:
{"variant": …, "matches": N, "moves_per_s": …, "p50_ms": …, "p99_ms": …,
 "baseline_p50_ms": …, "baseline_p99_ms": …,
 "frame_bytes": {"state": {"n", "median", "max"}, "moved": {…}, "finished": {…}},
 "daphne_cpu_ms_per_move": …, "baseline_daphne_cpu_ms_per_relay": …,
 "tree": …, "tree_rev": …, "error": … (only on failure), …}
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import live  # noqa: E402 - the same process helpers as the live tests

SETUP = """
import json
import games
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
try:
    from games import play as services  # the services' package (issue 15)
except ImportError:
    from games import services  # a tree from before it (--tree, bench/live_compare.py)
User = get_user_model()
out = []
for i in range(%(n)d):
    pair = []
    for side in ("p", "b"):
        user = User.objects.create_user(username="bench%%s%%d" %% (side, i), email="bench%%s%%d@example.com" %% (side, i))
        client = Client()
        client.force_login(user)
        pair.append({"id": user.pk, "cookie": client.cookies[settings.SESSION_COOKIE_NAME].value})
    own = {"params": %(params)r} if %(params)r else {}  # a tree from before Match.params takes none
    own.update({"days": %(days)r} if %(days)r else {})
    match = services.match_create(variant=%(variant)r, pink_id=pair[0]["id"], blue_id=pair[1]["id"], **own)
    out.append({"match": match.pk, "players": pair})
print("JSON:" + json.dumps({"cookie_name": settings.SESSION_COOKIE_NAME, "matches": out, "code": games.__file__}))
"""

# Other names people use for the variants (the engine's slugs, English names).
ALIASES = {
    "connect4": "cztery-w-rzedzie",
    "connect-four": "cztery-w-rzedzie",
    "dots-and-boxes": "kropki-i-kwadraty",
    "dots_and_boxes": "kropki-i-kwadraty",
}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


async def connect(host: str, path: str, cookie: str | None, timeout: float = 30):
    import websockets
    from websockets.typing import Origin

    headers = [("Cookie", cookie)] if cookie else []
    return await websockets.connect(
        f"ws://{host}{path}",
        origin=Origin(f"http://{host}"),
        additional_headers=headers,
        open_timeout=timeout,
        max_size=2**24,
        compression=None,
    )


class FrameSizes:
    """UTF-8 length of every frame the players' sockets receive, by frame type."""

    def __init__(self) -> None:
        self.by_type: dict[str, list[int]] = {}

    def add(self, text: str | bytes, frame: dict) -> None:
        size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8"))
        self.by_type.setdefault(str(frame.get("type")), []).append(size)

    def report(self) -> dict[str, dict[str, float]]:
        return {
            kind: {"n": len(sizes), "median": round(statistics.median(sizes)), "max": max(sizes)}
            for kind, sizes in sorted(self.by_type.items())
        }


GAME_PARAMS: dict = {}  # --params: the matches' own engine parameters ({}: the variant's)


class Position:
    """The match as this client knows it: the engine state built from the
    variant and every move frame's ``action`` (no snapshot needed)."""

    def __init__(self, variant: str, label: str) -> None:
        from games.catalogue import variant as get_variant

        self.game = get_variant(variant).game(GAME_PARAMS)
        self.state = self.game.new_initial_state()
        self.end_action = getattr(self.game, "end_action", None)  # Kropki's "zakończ"
        self.label = label
        self.ply = 0
        self.status = "active"

    @staticmethod
    def header(frame: dict) -> dict:
        """The match fields of a frame: ``match`` (new move frames) or ``snapshot``."""
        return frame.get("match") or frame.get("snapshot") or {}

    def start(self, frame: dict) -> None:
        """The first ``state`` frame of a socket."""
        snap = frame.get("snapshot") or {}
        ply = frame.get("ply", snap.get("ply"))
        if ply:  # not a fresh match: replay its notation list if the frame has one
            moves = snap.get("moves")
            if not isinstance(moves, list) or len(moves) != ply:
                raise RuntimeError(f"{self.label}: state frame at ply {ply} without its move list")
            for notation in moves:
                self.state.apply_action(self.game.string_to_action(notation))
        self.ply = ply or 0
        self.status = snap.get("status", "active")
        self.check(frame)
        if "legal" in snap and list(snap["legal"]) != self.state.legal_actions():
            raise RuntimeError(f"{self.label}: the state frame's legal moves differ from the engine's")

    def check(self, frame: dict) -> None:
        head = self.header(frame)
        mine = self.state.current_player() if self.status == "active" else None
        if "to_move" in head and head["to_move"] != mine:
            raise RuntimeError(
                f"{self.label}: ply {self.ply}: frame says to_move={head['to_move']}, the engine says {mine}"
            )

    def apply(self, frame: dict) -> None:
        """A ``moved``/``finished`` frame with ply = self.ply + 1."""
        action = frame.get("action")
        if action is not None:
            by = frame.get("by")
            if by is not None and by != self.state.current_player():
                raise RuntimeError(
                    f"{self.label}: ply {frame['ply']}: moved by {by}, the engine's player to move "
                    f"is {self.state.current_player()}"
                )
            self.state.apply_action(action)
            self.ply += 1
        if frame.get("ply") != self.ply:
            raise RuntimeError(f"{self.label}: frame ply {frame.get('ply')} != the client's {self.ply}")
        self.status = self.header(frame).get("status") or (
            "finished" if frame.get("type") == "finished" else self.status
        )
        self.check(frame)

    @property
    def active(self) -> bool:
        return self.status == "active" and not self.state.is_terminal()

    def to_move(self) -> int:
        player = self.state.current_player()
        assert player is not None, f"{self.label}: the game is over"
        return player

    def board_actions(self) -> list[int]:
        return [a for a in self.state.legal_actions() if a != self.end_action]


class Closed(Exception):
    pass


async def read_frames(index: int, ws, queue: asyncio.Queue, sizes: FrameSizes) -> None:
    """Put (socket index, receive time, frame) on ``queue``; on close, (index, time, Closed)."""
    try:
        async for text in ws:
            t = time.perf_counter()
            frame = json.loads(text)
            sizes.add(text, frame)
            queue.put_nowait((index, t, frame))
    except Exception as exc:  # handed to the player loop
        queue.put_nowait((index, time.perf_counter(), Closed(describe_close(ws, exc))))
        return
    queue.put_nowait((index, time.perf_counter(), Closed(describe_close(ws, None))))


def describe_close(ws, exc: Exception | None) -> str:
    code = getattr(ws, "close_code", None)
    reason = getattr(ws, "close_reason", None)
    text = f"socket closed (code {code}{', ' + repr(reason) if reason else ''})"
    return f"{text}: {type(exc).__name__}: {exc}" if exc is not None else text


async def play_match(
    hosts: list[str],
    cookie_name: str,
    spec: dict,
    variant: str,
    max_moves: int,
    rng: random.Random,
    latencies: list[float],
    start: asyncio.Event,
    done: Done,
    sizes: FrameSizes,
    counters: dict,
    think: float = 0.0,
    timeout: float = 30.0,
) -> int:
    """Two sockets play random legal moves; returns the number of moves made."""
    label = f"match {spec['match']}"
    queue: asyncio.Queue = asyncio.Queue()
    sockets: list = []
    readers: list[asyncio.Task] = []
    moves = 0

    async def next_frame(what: str):
        try:
            index, t, frame = await asyncio.wait_for(queue.get(), timeout)
        except TimeoutError:
            raise RuntimeError(f"{label}: no frame within {timeout} s while waiting for {what}") from None
        if isinstance(frame, Closed):
            raise RuntimeError(f"{label}: socket {index} (player {index + 1}) {frame} while waiting for {what}")
        return index, t, frame

    try:
        # with several daphnes, the two players sit on different ones (hosts rotate per match)
        for i, (host, p) in enumerate(zip(hosts, spec["players"], strict=True)):
            ws = await connect(host, f"/ws/match/{spec['match']}/", f"{cookie_name}={p['cookie']}", timeout)
            sockets.append(ws)
            readers.append(asyncio.create_task(read_frames(i, ws, queue, sizes)))
        pos = Position(variant, label)
        first: dict[int, dict] = {}
        while len(first) < 2:
            index, _, frame = await next_frame("the first state frames")
            if frame.get("type") != "state":
                raise RuntimeError(f"{label}: first frame of socket {index} is {frame.get('type')!r}, not state")
            first.setdefault(index, frame)
        pos.start(first[0])
        await start.wait()
        while pos.active and moves < max_moves:
            mover = pos.to_move() - 1
            legal = pos.board_actions()
            if not legal:
                break
            action = rng.choice(legal)
            ply = pos.ply
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            move = json.dumps({"type": "move", "ply": ply, "action": action})
            sent = time.perf_counter()
            await sockets[mover].send(move)
            # both sockets get the broadcast with the new ply; the latency is the opponent's
            got: dict[int, dict] = {}
            while len(got) < 2:
                index, t, frame = await next_frame(f"the frames of ply {ply + 1}")
                kind = frame.get("type")
                if kind in ("moved", "finished") and frame.get("ply") == ply + 1:
                    got[index] = frame
                    if index != mover:
                        latencies.append(t - sent)
                elif kind == "error" and frame.get("code") == "rate_limited" and index == mover:
                    counters["rate_limited"] = counters.get("rate_limited", 0) + 1
                    await asyncio.sleep(0.25)
                    sent = time.perf_counter()
                    await sockets[mover].send(move)
                elif kind == "error":
                    raise RuntimeError(f"{label}: socket {index} got {frame} after move {action} at ply {ply}")
                elif kind in ("moved", "finished", "state") and (frame.get("ply") or 0) > ply + 1:
                    raise RuntimeError(f"{label}: a {kind} frame for ply {frame.get('ply')} while at ply {ply}")
                # anything else (a duplicate, presence, a state after a resend) is counted and skipped
            pos.apply(got[mover])
            moves += 1
    finally:
        await done.finished_one()  # see Done
        for ws in sockets:
            await ws.close()
        for task in readers:
            task.cancel()
    return moves


async def echo_pair(
    hosts: list[str],
    index: int,
    rounds: int,
    latencies: list[float],
    start: asyncio.Event,
    done: Done,
    timeout: float = 30.0,
) -> int:
    group = f"bench{index}"
    sockets = []

    async def recv(ws):
        return json.loads(await asyncio.wait_for(ws.recv(), timeout))

    try:
        for host in hosts:
            sockets.append(await connect(host, "/ws/ping/", None, timeout))
        for ws in sockets:
            await recv(ws)  # hello
            await ws.send(json.dumps({"relay": group, "join": True}))
            while (await recv(ws)).get("type") != "joined":
                pass
        await start.wait()
        for n in range(rounds):
            sender = n % 2
            sent = time.perf_counter()
            await sockets[sender].send(json.dumps({"relay": group, "data": n}))
            try:
                while (await recv(sockets[1 - sender])).get("data") != n:
                    pass
            except TimeoutError:
                raise RuntimeError(
                    f"baseline pair {index} ({hosts}): relay {n} from socket {sender} never reached the other socket"
                ) from None
            latencies.append(time.perf_counter() - sent)
            while (await recv(sockets[sender])).get("data") != n:
                pass
    finally:
        await done.finished_one()  # see Done
        for ws in sockets:
            await ws.close()
    return rounds


class Done:
    """Every socket stays open until all tasks have finished playing, then all close.

    Sockets closing while others still wait for frames make channels_redis lose
    a frame now and then (a receive cancelled on a process's shared channel,
    django/channels#1683): seen with two daphnes as a relay that never arrived.
    Players close their tabs too, but the bench measures latency, not that.
    ``on_end`` runs once, when the last task has finished playing (before any
    socket closes): the CPU sample.
    """

    def __init__(self, tasks: int, on_end=None) -> None:
        self.left = tasks
        self.event = asyncio.Event()
        self.ended = 0.0  # when the last one finished playing
        self.on_end = on_end
        self.end_sample = None

    async def finished_one(self) -> None:
        self.left -= 1
        if self.left <= 0 or sys.exc_info()[0] is not None:  # all done, or one failed: close everything
            if not self.ended:
                self.ended = time.perf_counter()
                if self.on_end is not None:
                    self.end_sample = self.on_end()
            self.event.set()
        await self.event.wait()


def pair_hosts(hosts: list[str], i: int) -> list[str]:
    """The two sockets of pair ``i``: on different daphnes when there are several, spread evenly."""
    return [hosts[i % len(hosts)], hosts[(i + 1) % len(hosts)]]


class CpuMeter:
    """CPU seconds (user + system) of the daphnes (and their children), Redis and this client."""

    def __init__(self, daphne_pids: list[int], redis_pid: int | None) -> None:
        import psutil

        self.psutil = psutil
        self.daphnes = [psutil.Process(pid) for pid in daphne_pids]
        self.redis = psutil.Process(redis_pid) if redis_pid else None
        self.me = psutil.Process()

    def _tree(self, procs, children: bool = True) -> float:
        total = 0.0
        for proc in procs:
            try:
                family = [proc, *(proc.children(recursive=True) if children else ())]
            except self.psutil.Error:
                continue
            for p in family:
                try:
                    t = p.cpu_times()
                    total += t.user + t.system
                except self.psutil.Error:
                    pass
        return total

    def sample(self) -> dict[str, float]:
        return {
            "daphne": self._tree(self.daphnes),
            "redis": self._tree([self.redis]) if self.redis else 0.0,
            "client": self._tree([self.me], children=False),  # its children are Redis and the daphnes
        }

    @staticmethod
    def per(before: dict | None, after: dict | None, count: int) -> dict[str, float | None]:
        if not before or not after or not count:
            return {k: None for k in ("daphne", "redis", "client")}
        return {k: round((after[k] - before[k]) * 1000 / count, 3) for k in before}


async def run_baseline(hosts: list[str], n: int, rounds: int, cpu: CpuMeter, timeout: float, max_seconds: float):
    latencies: list[float] = []
    start = asyncio.Event()
    done = Done(n, on_end=cpu.sample)
    tasks = [
        asyncio.create_task(echo_pair(pair_hosts(hosts, i), i, rounds, latencies, start, done, timeout))
        for i in range(n)
    ]
    await asyncio.sleep(0)
    await asyncio.sleep(0.5 + 0.02 * n)  # let every pair connect and join before the clock starts
    before = cpu.sample()
    t0 = time.perf_counter()
    start.set()
    await asyncio.wait_for(asyncio.gather(*tasks), max_seconds)
    return latencies, done.ended - t0, CpuMeter.per(before, done.end_sample, len(latencies))


async def run_matches(
    hosts: list[str],
    setup: dict,
    variant: str,
    max_moves: int,
    seed: int,
    think: float,
    cpu: CpuMeter,
    sizes: FrameSizes,
    counters: dict,
    timeout: float,
    max_seconds: float,
):
    latencies: list[float] = []
    start = asyncio.Event()
    rng = random.Random(seed)
    specs = setup["matches"]
    done = Done(len(specs), on_end=cpu.sample)
    tasks = [
        asyncio.create_task(
            play_match(
                pair_hosts(hosts, i),
                setup["cookie_name"],
                spec,
                variant,
                max_moves,
                random.Random(rng.random()),
                latencies,
                start,
                done,
                sizes,
                counters,
                think,
                timeout,
            )
        )
        for i, spec in enumerate(specs)
    ]
    # let every socket connect and get its state before the clock starts
    await asyncio.sleep(0.5 + 0.02 * len(specs))
    failed = [t for t in tasks if t.done() and t.exception() is not None]
    if failed:  # e.g. a socket closed before its first frame: report that, not a later timeout
        error = failed[0].exception()
        assert error is not None
        raise error
    before = cpu.sample()
    t0 = time.perf_counter()
    start.set()
    counts = await asyncio.wait_for(asyncio.gather(*tasks), max_seconds)
    moves = sum(counts)
    return latencies, moves, done.ended - t0, CpuMeter.per(before, done.end_sample, moves)


def start_redis(workdir: Path) -> tuple[subprocess.Popen, str]:
    from kropki_site.lib import devredis

    sock = workdir / "redis.sock"
    return devredis.start(sock), f"unix://{sock}"


@contextlib.contextmanager
def in_process_site(prefix: str, **extra_env: str) -> Iterator[None]:
    """This process as a site without sockets (bench/profile_move.py, bench/guard.py): its own
    Redis, a migrated temporary database (SQLite, or a fresh PostgreSQL database next to
    DATABASE_URL when set), production settings, a long move clock and ``extra_env``; Django
    set up inside. All of it is removed on leaving."""
    workdir = Path(tempfile.mkdtemp(prefix=f"kropki-{prefix}-"))
    redis_proc, redis_url = start_redis(workdir)
    db_url = live.live_database_url(os.environ.get("DATABASE_URL"), workdir, f"{prefix}{os.getpid()}")
    os.environ.update(
        DATABASE_URL=db_url,
        REDIS_URL=redis_url,
        DJANGO_SETTINGS_MODULE="kropki_site.settings",
        MOVE_SECONDS="3600",
        DJANGO_LOG_LEVEL="WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        VAR_DIR=str(workdir / "var"),
        **extra_env,
    )
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        yield
    finally:
        try:
            from django.db import connections

            connections.close_all()
            live.drop_live_database(db_url)
        finally:
            live.stop_group(redis_proc)
            shutil.rmtree(workdir, ignore_errors=True)


# -- the server side, from any checkout of this project ------------------------------------------


class TreeSite(live.LiveSite):
    """``live.LiveSite`` whose processes run from ``root`` (cwd and PYTHONPATH) with ``root/.venv``."""

    def __init__(self, env: dict[str, str], workdir: Path, root: Path) -> None:
        super().__init__(env=env, workdir=workdir)
        self.root = root
        self.bin = root / ".venv" / "bin"

    def manage(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        result = subprocess.run(
            [str(self.bin / "python"), "manage.py", *args],
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} ({self.root}) failed:\n{result.stdout}\n{result.stderr}")
        return result

    def start_daphne(
        self, port: int | None = None, name: str = "daphne", ready_path: str = "/"
    ) -> tuple[live.Proc, str]:
        port = port or live.free_port()
        log = self.workdir / f"{name}.log"
        with open(log, "ab") as handle:
            popen = subprocess.Popen(
                [
                    str(self.bin / "python"),
                    str(self.bin / "daphne"),
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    *live.DAPHNE_LIMITS,
                    "kropki_site.asgi:application",
                ],
                cwd=self.root,
                env=self.env,
                stdout=handle,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        proc = live.Proc(name, popen, log)
        self.procs.append(proc)
        url = f"http://127.0.0.1:{port}"
        live.wait_for_http(url + ready_path, timeout=60, proc=popen, log=log)
        return proc, url


NOTIFY = """
import json, os, time
from django.conf import settings
from django.test.utils import override_settings
from accounts.models import User
from games.notifications import services
ids = list(User.objects.filter(username__startswith="bench").values_list("pk", flat=True))
User.objects.filter(pk__in=ids).update(email_verified=True)
start = time.perf_counter()
made = 0
told_s = None
def stopped():
    return os.path.exists(%(stop)r)
if %(part)r == "mails":  # the rows in one statement: the mails alone beside the moves
    from games.notifications.models import Notification
    data = {"name": "bench", "variant": %(variant)r}
    Notification.objects.bulk_create(
        Notification(user_id=ids[i %% len(ids)], kind="challenge", data={**data, "challenge": i}, mail="pending")
        for i in range(%(n)d)
    )
    made = %(n)d
else:
    # The notices go into the outbox as their callers tell them: 625 calls back to back (all, rows),
    # one call (fanout), or beat's turn sweeps (sweep: back to back, or one every `every` seconds);
    # beat's delivery (the notify worker's ``deliver_paced``) makes their rows, a run every NOTIFY_DELIVER_SECONDS,
    # until the outbox is empty or the matches are over.
    told = 0
    if %(part)r == "fanout":  # one notice to N players of their own (an arena's): one call
        fans = list(User.objects.filter(username__startswith="fan").values_list("pk", flat=True))
        told = services.notify(fans, "challenge", {"name": "bench", "variant": %(variant)r})
    elif %(part)r != "sweep":
        while told < %(n)d:
            told += services.notify(ids, "challenge", {"name": "bench", "variant": %(variant)r, "challenge": told})
    told_s = time.perf_counter() - start
    from games.play.correspondence import turns_due
    sweeping = %(part)r == "sweep"
    next_sweep = next_run = time.monotonic()
    gap = settings.NOTIFY_MAIL_GAP_HOURS if sweeping else 0  # the same 16 players told 625 times: all mailed
    with override_settings(NOTIFY_MAIL_GAP_HOURS=gap):
        while not stopped():
            now = time.monotonic()
            if sweeping and now >= next_sweep:
                sweeping = bool(turns_due())
                next_sweep = now + %(every)r
                continue
            if now >= next_run:
                delivered = services.deliver_paced()
                made += delivered
                next_run = now + settings.NOTIFY_DELIVER_SECONDS
                if not delivered and not sweeping:
                    break
            time.sleep(0.01)
rows = time.perf_counter() - start
# The sweeps: the site's (beat sends one every NOTIFY_MAIL_SECONDS, each at most NOTIFY_MAIL_BATCH
# mails: scripts/supervisord.conf's notify-worker), or faster (a rate in mails a second), or back
# to back (rate 0: batches of 500 with no pause, the sender's own limit). Until all are sent or
# the bench's matches are over (the stop file).
every = settings.CELERY_BEAT_SCHEDULE["notifications-mail"]["schedule"]
batch = settings.NOTIFY_MAIL_BATCH if %(rate)r != 0 else 500
rate = %(rate)r if %(rate)r is not None else batch / every
sent = sweeps = 0
while %(part)r != "rows" and not stopped():
    began = time.monotonic()
    done = services.mail_pending(batch=batch)
    if not done:
        break
    sent += done["sent"]
    sweeps += 1
    while rate and time.monotonic() < began + batch / rate and not stopped():
        time.sleep(0.05)
print("JSON:" + json.dumps({"rows": made, "mails": sent, "sweeps": sweeps, "batch": batch, "rate_per_s": rate,
                            "told_s": told_s and round(told_s, 2), "rows_s": round(rows, 2),
                            "all_s": round(time.perf_counter() - start, 2)}))
"""


FANS = """
from accounts.models import User
User.objects.bulk_create(
    User(username=f"fan{i}", email=f"fan{i}@example.com", password="!", email_verified=True) for i in range(%(n)d)
)
"""


CORR = """
import random
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games.models import Match
from games.play.creating import matches_create_many
User.objects.bulk_create(
    User(username=f"corr{i}", email=f"corr{i}@example.com", password="!", email_verified=True) for i in range(200)
)
ids = list(User.objects.filter(username__startswith="corr").order_by("pk").values_list("pk", flat=True))
rng, start, made, r = random.Random(1), timezone.now(), [], 0
while len(made) < %(n)d:  # 100 games a call, each player in one of them, each call its own moment
    rng.shuffle(ids)
    pairs = [(ids[i], ids[i + 100]) for i in range(min(100, %(n)d - len(made)))]
    made += matches_create_many(variant="kropki-10", pairs=pairs, now=start + timedelta(microseconds=r))
    r += 1
Match.objects.filter(pk__in=[m.pk for m in made]).update(days=1, turn_deadline=start + timedelta(days=1))
"""


class NotifyLoad:
    """``--notify N``: a local SMTP server (aiosmtpd's own command, its Sink handler, a process of
    its own so the clients' timing shares nothing with it), and one ``manage.py shell`` (a worker's
    work) making and mailing N notifications, started now on a thread."""

    def __init__(
        self, site: TreeSite, n: int, part: str = "all", rate: float | None = None, every: float = 0.0
    ) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.smtp = subprocess.Popen(
            [
                str(site.bin / "python"),
                "-m",
                "aiosmtpd",
                "-n",
                "-c",
                "aiosmtpd.handlers.Sink",
                "-l",
                f"127.0.0.1:{port}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):  # until it listens
            with socket.socket() as check:
                if check.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        site.env.update(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(port)
        )
        self.out: dict = {}
        if part == "fanout":  # its players first, before the matches start
            site.manage("shell", "-c", FANS % {"n": n})
        if part == "sweep":  # the correspondence games, due, before the matches start
            site.manage("shell", "-c", CORR % {"n": n})
        self.stop = site.workdir / "notify.stop"
        script = NOTIFY % {
            "n": n,
            "variant": "kropki-10",
            "part": part,
            "rate": rate,
            "stop": str(self.stop),
            "every": every,
        }

        def run() -> None:
            try:  # at the notifications worker's priority (scripts/supervisord.conf: nice 10)
                command = ["nice", "-n", "10", str(site.bin / "python"), "manage.py", "shell", "-c", script]
                result = subprocess.run(
                    command, cwd=site.root, env=site.env, capture_output=True, text=True, timeout=600
                )
                if result.returncode != 0:
                    raise RuntimeError(result.stderr[-2000:])
                line = next(x for x in result.stdout.splitlines() if x.startswith("JSON:"))
                self.out = json.loads(line[5:])
            except Exception as exc:  # reported in the JSON line
                self.out = {"error": f"{type(exc).__name__}: {exc}"[:500]}

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def result(self) -> dict:
        """What was made and sent: the sweeps stop when the matches are over."""
        self.stop.touch()
        self.thread.join(timeout=600)
        self.smtp.terminate()
        self.smtp.wait(timeout=10)
        return self.out


class EvalLoad:
    """``--evals N``: N visitors, each from an address of its own (``X-Forwarded-For``, which the
    site reads as behind its proxy: ``BEHIND_PROXY=1`` with ``--evals``), each asking for the
    evaluation of one random position of a random game after another (so no visitor is answered
    from what another asked), until ``stop``. A page that says the evaluation is being made is asked
    again every second, as the page's own poll does, until it shows it: answered (the seconds from
    the first ask), refused (400: the limit a minute; asked again half a second later)."""

    def __init__(self, host: str, visitors: int) -> None:
        self.host, self.visitors = host, visitors
        self.stop = threading.Event()
        self.answered: list[float] = []
        self.refused = 0
        self.threads = [threading.Thread(target=self.visit, args=(i,), daemon=True) for i in range(visitors)]
        for thread in self.threads:
            thread.start()

    @staticmethod
    def position(seed: int) -> str:
        """A random position 6–12 moves from the start of a random game with a reviewer, the game
        not over: its analysis board's address, asking for the evaluation."""
        from games import catalogue

        rng = random.Random(seed)
        reviewed = [key for key in catalogue.variant_keys() if catalogue.variant(key).game_spec.review is not None]
        while True:
            variant = rng.choice(reviewed)
            state = catalogue.variant(variant).game().new_initial_state()
            for _ in range(rng.randint(6, 12)):
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
            if not state.is_terminal():
                query = urlencode({"ruchy": ",".join(map(str, state.history)), "ocena": "1"})
                return f"/analiza/{variant}/?{query}"

    def visit(self, i: int) -> None:
        address = f"198.51.100.{i + 1}"
        asks = 0
        while not self.stop.is_set():
            path = self.position(i * 100_000 + asks)
            asks += 1
            started = time.monotonic()
            while not self.stop.is_set():
                request = urllib.request.Request(f"http://{self.host}{path}", headers={"X-Forwarded-For": address})
                try:
                    with urllib.request.urlopen(request, timeout=120) as answer:
                        page = answer.read().decode()
                except urllib.error.HTTPError as exc:
                    exc.read()
                    self.refused += 1
                    self.stop.wait(0.5)  # refused by the limit: ask again a little later
                    continue
                if 'data-testid="board-thinking"' not in page:
                    self.answered.append(time.monotonic() - started)
                    break
                self.stop.wait(1.0)  # being made: the page asks again in a second

    def result(self) -> dict:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=180)
        median = statistics.median(self.answered) if self.answered else None
        return {
            "visitors": self.visitors,
            "answered": len(self.answered),
            "refused": self.refused,
            "answer_median_s": None if median is None else round(median, 2),
        }


def make_tree_site(workdir: Path, redis_url: str, root: Path, **extra_env: str) -> TreeSite:
    """As ``live.make_live_site`` (same environment), for the checkout at ``root``."""
    # WS_PING: the baseline's ws/ping/ sockets (not routed in production by default)
    env = live.live_env(workdir, redis_url, PYTHONPATH=str(root), **{"WS_PING": "1", **extra_env})
    if not (root / "tests" / "live_settings.py").exists():  # a tree from before it
        env["DJANGO_SETTINGS_MODULE"] = "kropki_site.settings"
    site = TreeSite(env, workdir, root)
    site.manage("migrate", "--noinput")
    return site


def tree_revision(root: Path) -> str:
    """``<short commit>`` of the checkout, ``+dirty`` when it has uncommitted changes to tracked files."""
    try:
        rev = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        return (rev or "?") + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "?"


def daphne_hint(site: TreeSite | None) -> str:
    """A known cause from the daphnes' logs, to name in the error."""
    for proc in site.procs if site is not None else ():
        text = proc.log.read_text(errors="replace") if proc.log.exists() else ""
        if "PayloadExceeded" in text or "message exceeds" in text.lower():
            return (
                f" [{proc.name}: PayloadExceededError in its log: a frame over daphne's "
                f"{live.WS_MAX_BYTES}-byte message limit]"
            )
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--moves", type=int, default=40, help="moves per match at most (default 40)")
    parser.add_argument(
        "--variant",
        default="kropki-10",
        help="kropki-10 (default), kropki-20, cztery-w-rzedzie (connect4), kropki-i-kwadraty (dots-and-boxes)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--params", type=json.loads, default={}, help="the matches' engine parameters (JSON)")
    parser.add_argument("--days", type=int, default=0, help="correspondence games: days a move (0: live)")
    parser.add_argument("--notify", type=int, default=0, help="notifications made and mailed beside the matches")
    parser.add_argument(
        "--evals", type=int, default=0, help="visitors asking the analysis board for evaluations beside the matches"
    )
    parser.add_argument(
        "--notify-part",
        choices=("all", "rows", "mails", "fanout", "sweep"),
        default="all",
        help="with --notify: all (default); rows (notify's rows, no mail); mails (the rows made in one "
        "statement first, then the mail sweeps): which part delays the moves; fanout (N players of "
        "their own, then one notify call to all of them, as an arena's notice, and its mails); sweep "
        "(N correspondence games of 200 players of their own, all due: beat's turn sweeps tell them, "
        "500 a batch, and the mails)",
    )
    parser.add_argument(
        "--notify-rate",
        type=float,
        default=None,
        help="with --notify: mails a second the sweeps may send (default: the site's, NOTIFY_MAIL_BATCH "
        "every NOTIFY_MAIL_SECONDS as beat sends them; 0: batches of 500 back to back)",
    )
    parser.add_argument(
        "--sweep-every",
        type=float,
        default=0.0,
        help="with --notify-part sweep: seconds from one turn sweep's start to the next (0, the default: "
        "back to back, a backlog worked off at full speed; the site's beat: CORRESPONDENCE_TURN_SECONDS, 10)",
    )
    parser.add_argument(
        "--daphnes",
        type=int,
        default=1,
        help="daphne processes sharing Redis and the database (default 1); with 2+, the two "
        "sockets of each match (and of each baseline pair) are on different ones",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="a bot waits this long before each move (default 0: as fast as the server answers)",
    )
    parser.add_argument(
        "--tree",
        type=Path,
        default=ROOT,
        help="checkout whose code serves (migrate, set-up, daphne), with its .venv; default: this one",
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for any one frame (default 30)")
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=900.0,
        help="seconds the baseline, and then the matches, may take at most (default 900)",
    )
    parser.add_argument(
        "--no-baseline",
        action="store_true",
        help="skip the ws/ping/ relay baseline (a capacity search judges the moves alone)",
    )
    args = parser.parse_args()

    from games.catalogue import variant_keys

    variant = ALIASES.get(args.variant, args.variant)
    if variant not in variant_keys():
        parser.error(f"--variant {args.variant!r}: not one of {', '.join(variant_keys())} (or {', '.join(ALIASES)})")
    tree = args.tree.resolve()
    if not (tree / "manage.py").exists() or not (tree / ".venv" / "bin" / "daphne").exists():
        parser.error(f"--tree {tree}: needs manage.py and .venv/bin/daphne (symlink .venv to this tree's)")

    ms = lambda v: round(v * 1000, 2)  # noqa: E731
    report: dict = {
        "variant": variant,
        "params": args.params,
        "days": args.days,
        "notify": args.notify,
        "evals": args.evals,
        "notify_part": args.notify_part,
        "notify_rate": args.notify_rate,
        "sweep_every": args.sweep_every,
        "matches": args.matches,
        "daphnes": args.daphnes,
        "think_ms": args.think_ms,
        "max_moves": args.moves,
        "tree": str(tree),
        "tree_rev": tree_revision(tree),
    }
    load_before = os.getloadavg()[0]
    workdir = Path(tempfile.mkdtemp(prefix="kropki-bench-live-"))
    redis_proc, redis_url = start_redis(workdir)
    site = None
    sizes = FrameSizes()
    counters: dict = {"rate_limited": 0}
    error = None
    phase = "start"
    try:
        print(
            f"==> site in {workdir} from {tree} ({report['tree_rev']}; "
            f"DATABASE_URL={os.environ.get('DATABASE_URL') or 'temporary SQLite'})",
            file=sys.stderr,
        )
        phase = "set-up"
        proxied = {"BEHIND_PROXY": "1"} if args.evals else {}
        site = make_tree_site(workdir, redis_url, tree, MOVE_SECONDS="3600", DJANGO_LOG_LEVEL="WARNING", **proxied)
        GAME_PARAMS.update(args.params)
        result = site.manage(
            "shell", "-c", SETUP % {"n": args.matches, "variant": variant, "params": args.params, "days": args.days}
        )
        line = next(x for x in result.stdout.splitlines() if x.startswith("JSON:"))
        setup = json.loads(line[5:])
        if not Path(setup["code"]).resolve().is_relative_to(tree):
            raise RuntimeError(f"the set-up ran {setup['code']}, not the code of {tree}")
        hosts = [site.start_daphne(name=f"daphne{i}")[1].split("//", 1)[1] for i in range(args.daphnes)]
        cpu = CpuMeter([p.popen.pid for p in site.procs], redis_proc.pid)
        if args.evals:  # the analysis board's evaluations: the analysis worker's, at its priority (supervisord.conf)
            site.start_worker(queues="analysis,board", name="analysis", nice=5)
        print(
            f"==> daphne at {', '.join(hosts)}; baseline: {args.matches} ping pairs x {args.moves} relays",
            file=sys.stderr,
        )
        if not args.no_baseline:
            phase = "baseline"
            try:
                base_lat, base_secs, base_cpu = asyncio.run(
                    run_baseline(hosts, args.matches, args.moves, cpu, args.timeout, args.max_seconds)
                )
                report.update(
                    {
                        "baseline_relays": len(base_lat),
                        "baseline_per_s": round(len(base_lat) / base_secs, 1),
                        "baseline_p50_ms": ms(percentile(base_lat, 0.5)),
                        "baseline_p99_ms": ms(percentile(base_lat, 0.99)),
                        "baseline_daphne_cpu_ms_per_relay": base_cpu["daphne"],
                    }
                )
            except Exception as exc:  # the baseline's own failure (channels_redis' core
                # layer loses relays under load, the very loss the hub removed): reported, the moves still run
                report["baseline_error"] = f"{type(exc).__name__}: {exc or 'took longer than --max-seconds'}"[:500]
                print(f"!! baseline failed: {report['baseline_error']}", file=sys.stderr)
        print(f"==> {args.matches} matches of {variant}, up to {args.moves} moves each", file=sys.stderr)
        phase = "matches"
        notifier = (
            NotifyLoad(site, args.notify, args.notify_part, args.notify_rate, args.sweep_every) if args.notify else None
        )
        evals = EvalLoad(hosts[0], args.evals) if args.evals else None
        lat, moves, secs, cpu_move = asyncio.run(
            run_matches(
                hosts,
                setup,
                variant,
                args.moves,
                args.seed,
                args.think_ms / 1000,
                cpu,
                sizes,
                counters,
                args.timeout,
                args.max_seconds,
            )
        )
        if notifier is not None:
            report["notify"] = notifier.result()
        if evals is not None:
            report["evals"] = evals.result()
    except Exception as exc:  # reported in the JSON line
        if isinstance(exc, TimeoutError) and not str(exc):
            exc = TimeoutError(f"the {phase} took longer than --max-seconds {args.max_seconds}")
        error = f"{phase}: {type(exc).__name__}: {exc}"[:2000] + daphne_hint(site)
        for proc in site.procs if site is not None else ():
            text = "\n".join(x for x in proc.log.read_text(errors="replace").splitlines() if "WS" not in x)
            print(f"--- {proc.name} log (tail) ---\n{text[-3000:]}", file=sys.stderr)
    finally:
        if site is not None:
            site.stop_all()
            live.drop_live_database(site.env["DATABASE_URL"])
        live.stop_group(redis_proc)
        shutil.rmtree(workdir, ignore_errors=True)

    report["frame_bytes"] = sizes.report()
    report["rate_limited"] = counters["rate_limited"]
    if error is None:
        report.update(
            {
                "moves": moves,
                "seconds": round(secs, 2),
                "moves_per_s": round(moves / secs, 1),
                "p50_ms": ms(percentile(lat, 0.5)),
                "p99_ms": ms(percentile(lat, 0.99)),
                "daphne_cpu_ms_per_move": cpu_move["daphne"],
                "redis_cpu_ms_per_move": cpu_move["redis"],
                "client_cpu_ms_per_move": cpu_move["client"],
            }
        )
        print(
            f"moves: {moves} in {secs:.1f} s = {report['moves_per_s']} moves/s; latency to the opponent "
            f"p50 {report['p50_ms']} ms, p99 {report['p99_ms']} ms (mean {ms(statistics.fmean(lat))} ms); "
            f"daphne CPU {report['daphne_cpu_ms_per_move']} ms/move"
        )
        if "baseline_relays" in report:
            print(
                f"baseline (bare group_send echo): {report['baseline_relays']} relays, {report['baseline_per_s']}/s; "
                f"p50 {report['baseline_p50_ms']} ms, p99 {report['baseline_p99_ms']} ms; "
                f"daphne CPU {report['baseline_daphne_cpu_ms_per_relay']} ms/relay"
            )
        for kind, s in report["frame_bytes"].items():
            print(f"frames {kind}: {s['n']}, median {s['median']} B, max {s['max']} B")
    else:
        report["error"] = error
        print(f"FAILED: {error}", file=sys.stderr)
    report["load_avg_1m"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]  # at the start, at the end
    print(json.dumps(report))
    return 0 if error is None else 1


if __name__ == "__main__":
    sys.exit(main())
