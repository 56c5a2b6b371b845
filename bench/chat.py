"""Moves with chat beside them: does the chat at the table slow the moves down?

    python bench/chat.py --matches N [--rounds R] [--moves M] [--think-ms T] [--variant KEY] [--chat-per-s C]
                         [--daphnes D] [--flood L]

``--flood L`` (issue 23's reconnect flood): the second phase has no chat but L anonymous
loops (in a child process) that open a socket of one of the phase's matches, read its first
frame and close, again at once, for the whole phase; the site runs with the production
handshake budget (games/live/budget.py), from an address of their own (X-Forwarded-For,
with BEHIND_PROXY=1; the players connect from 127.0.0.1). The JSON's ``flood`` counts what the loops got
(``state``, ``closed 4429``, ...); ``p99_ratio`` is then flood ÷ alone (target ≤ 2).

A sibling of bench/live.py, built from its machinery (its Redis, site, daphne,
players and latency measure: ``bench/live.py`` documents them). One daphne
(``--daphnes D``: D of them, each match's players and writers spread over them), one
Redis, one database; then R rounds, each of two phases of N fresh matches:

1. **alone**: N matches played by bench/live.py's players (each waits
   T × U(0.5, 1.5) ms before a move, default T = 200), nothing else on the site;
2. **chat**: N other matches played the same way while each match has chat at
   C lines/s (default 5): each player writes in the players' room from a second
   socket of their own, and spectators (logged in, one socket each) write in the
   spectators' room, every writer at most one line per 2.2 s (within the
   per-socket bucket and the per-user limit, docs/social.md), as many writers
   as C needs. The players' sockets that move also hear the players' room.

The latency of a move is bench/live.py's: from sending it to the opponent's
socket receiving the move frame (the chat writers run in a child process, so
their frames do not queue in the event loop that times the moves). The chat's own latency is from sending a line
to the writer's socket receiving it back (the room's broadcast).

Database: a temporary SQLite file, or a fresh PostgreSQL database next to
``DATABASE_URL`` when that is set (as bench/live.py). The daphne's and Redis's
CPU per move of each phase (chat included) is in the JSON too.

The last line printed is one JSON object:
{"variant", "matches", "rounds", "chat_per_s", "alone": {"moves", "p50_ms", "p99_ms"},
 "chat": {"moves", "p50_ms", "p99_ms", "chat_lines", "chat_per_s_measured", "chat_p50_ms", "chat_p99_ms",
 "chat_errors"}, "p99_ratio", "p50_ratio", "target_p99_ratio": 1.2, "error": … (only on failure)}
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import math
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_spec = importlib.util.spec_from_file_location("bench_live", ROOT / "bench" / "live.py")
assert _spec is not None and _spec.loader is not None
bench_live = importlib.util.module_from_spec(_spec)
sys.modules["bench_live"] = bench_live
_spec.loader.exec_module(bench_live)

from tests import live  # noqa: E402 - the same process helpers as the live tests

WRITER_INTERVAL = 2.2  # seconds between two lines of one writer (the bucket refills one per 2 s)

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from games import play as services
User = get_user_model()

def login(name):
    user = User.objects.create_user(username=name, email=name + "@example.com")
    client = Client()
    client.force_login(user)
    return {"id": user.pk, "cookie": client.cookies[settings.SESSION_COOKIE_NAME].value}

out = []
for i in range(%(n)d):
    pair = [login("chatb%%s%%d" %% (side, i)) for side in ("p", "b")]
    match = services.match_create(variant=%(variant)r, pink_id=pair[0]["id"], blue_id=pair[1]["id"])
    watchers = [login("chatw%%d_%%d" %% (i, k)) for k in range(%(watchers)d)] if i %% 2 else []
    out.append({"match": match.pk, "players": pair, "watchers": watchers})
print("JSON:" + json.dumps({"cookie_name": settings.SESSION_COOKIE_NAME, "matches": out}))
"""


class ChatLoad:
    """Chat writers for some matches: each writer a socket of its own, writing one line every
    WRITER_INTERVAL s (first at a random offset) until ``stop``; latencies of the echoes."""

    def __init__(
        self, hosts: list[str], cookie_name: str, specs: list[dict], watchers_per_match: int, seed: int, timeout: float
    ) -> None:
        self.hosts, self.cookie_name, self.specs = hosts, cookie_name, specs
        self.watchers = watchers_per_match
        self.rng = random.Random(seed)
        self.timeout = timeout
        self.stop = asyncio.Event()
        self.go = asyncio.Event()  # set once every player's socket has its first state
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.lines = 0
        self.sockets: list = []
        self.tasks: list[asyncio.Task] = []

    async def open(self) -> None:
        for i, spec in enumerate(self.specs):
            writers = [("players", p) for p in spec["players"]]
            writers += [("spectators", w) for w in spec["watchers"][: self.watchers]]
            for k, (room, who) in enumerate(writers):  # spread over the daphnes
                ws = await bench_live.connect(
                    self.hosts[(i + k) % len(self.hosts)],
                    f"/ws/match/{spec['match']}/",
                    f"{self.cookie_name}={who['cookie']}",
                    self.timeout,
                )
                self.sockets.append(ws)
                self.tasks.append(asyncio.create_task(self.write(ws, room, random.Random(self.rng.random()))))

    async def write(self, ws, room: str, rng: random.Random) -> None:
        sent: dict[str, float] = {}

        async def read() -> None:
            async for text in ws:
                frame = json.loads(text)
                if frame.get("type") == "chat" and frame.get("text") in sent:
                    self.latencies.append(time.perf_counter() - sent.pop(frame["text"]))
                    self.lines += 1
                elif frame.get("type") == "error":
                    self.errors[frame.get("code", "?")] = self.errors.get(frame.get("code", "?"), 0) + 1

        reader = asyncio.create_task(read())
        await self.go.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), rng.uniform(0, WRITER_INTERVAL))
        n = 0
        while not self.stop.is_set():
            n += 1
            text = f"{room} {id(ws) % 10000}-{n} Powodzenia! Dobra partia!"
            sent[text] = time.perf_counter()
            await ws.send(json.dumps({"type": "chat", "room": room, "text": text}))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), WRITER_INTERVAL)
        await asyncio.sleep(0.5)  # the last echoes
        reader.cancel()

    async def close(self) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for ws in self.sockets:
            await ws.close()


def chat_worker(
    hosts: list[str],
    cookie_name: str,
    specs: list[dict],
    watchers: int,
    seed: int,
    timeout: float,
    opened,
    go,
    stop,
    results,
) -> None:
    """The chat writers in a process of their own, so that their frames never wait in the event
    loop of the client that times the moves (the bench measures the server, not itself)."""

    async def run() -> None:
        load = ChatLoad(hosts, cookie_name, specs, watchers, seed, timeout)
        await load.open()
        opened.set()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, go.wait)
        load.go.set()
        await loop.run_in_executor(None, stop.wait)
        await load.close()
        results.put({"latencies": load.latencies, "lines": load.lines, "errors": load.errors})

    asyncio.run(run())


FLOOD_ADDRESS = "203.0.113.7"  # the flood's one address (TEST-NET-3); the players come from 127.0.0.1


def flood_worker(hosts: list[str], match_ids: list[int], loops: int, opened, go, stop, results) -> None:
    """``loops`` anonymous reconnect loops over the matches, until ``stop`` (a child process)."""
    import websockets
    from websockets.typing import Origin

    counts: dict[str, int] = {}

    async def loop_one(i: int) -> None:
        host = hosts[i % len(hosts)]
        while not stop.is_set():
            key = "failed"
            try:  # from the attacker's own address (the site trusts the proxy's header here, BEHIND_PROXY)
                ws = await websockets.connect(
                    f"ws://{host}/ws/match/{match_ids[i % len(match_ids)]}/",
                    origin=Origin(f"http://{host}"),
                    open_timeout=10,
                    additional_headers=[("X-Forwarded-For", FLOOD_ADDRESS)],
                )
                frame = await asyncio.wait_for(ws.recv(), 10)
                key = "state" if '"state"' in frame else "other"
                await ws.close()
            except websockets.ConnectionClosed as exc:
                key = f"closed {exc.rcvd.code if exc.rcvd else None}"
            except Exception:  # counted
                await asyncio.sleep(0.05)
            counts[key] = counts.get(key, 0) + 1

    async def run() -> None:
        opened.set()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, go.wait)
        tasks = [asyncio.create_task(loop_one(i)) for i in range(loops)]
        await loop.run_in_executor(None, stop.wait)
        await asyncio.gather(*tasks, return_exceptions=True)
        results.put({"latencies": [], "lines": 0, "errors": counts})

    asyncio.run(run())


class ChatProcess:
    """``ChatLoad`` (or the flood) in a child process: open() waits until its sockets are open; start(), finish()."""

    def __init__(self, *args, worker=chat_worker) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self.opened, self.go, self.stop, self.results = ctx.Event(), ctx.Event(), ctx.Event(), ctx.Queue()
        self.proc = ctx.Process(target=worker, args=(*args, self.opened, self.go, self.stop, self.results), daemon=True)
        self.latencies: list[float] = []
        self.lines = 0
        self.errors: dict[str, int] = {}

    async def open(self, timeout: float) -> None:
        self.proc.start()
        if not await asyncio.get_running_loop().run_in_executor(None, self.opened.wait, timeout + 60):
            raise RuntimeError("the chat writers' sockets did not open")

    def start(self) -> None:
        self.go.set()

    async def finish(self) -> None:
        self.go.set()
        self.stop.set()
        got = await asyncio.get_running_loop().run_in_executor(None, self.results.get, True, 60)
        self.latencies, self.lines, self.errors = got["latencies"], got["lines"], got["errors"]
        self.proc.join(10)


async def phase(
    hosts: list[str],
    setup: dict,
    specs: list[dict],
    variant: str,
    args,
    cpu,
    sizes,
    counters,
    seed: int,
    chat_writers: int,
) -> tuple[list[float], int, float, ChatProcess | None]:
    load = None
    if chat_writers and args.flood:
        load = ChatProcess(hosts, [spec["match"] for spec in specs], args.flood, worker=flood_worker)
        await load.open(args.timeout)
    elif chat_writers:  # the writers' sockets first: the players' sockets must read their state before any line
        load = ChatProcess(hosts, setup["cookie_name"], specs, chat_writers - 2, seed, args.timeout)
        await load.open(args.timeout)
    t0 = time.perf_counter()
    try:
        matches = asyncio.create_task(
            bench_live.run_matches(
                hosts,
                {"cookie_name": setup["cookie_name"], "matches": specs},
                variant,
                args.moves,
                seed,
                args.think_ms / 1000,
                cpu,
                sizes,
                counters,
                args.timeout,
                args.max_seconds,
            )
        )
        # run_matches lets every socket connect and read its state for 0.5 + 0.02 n s, then starts the moves:
        # the writers start then too (each at a random offset within its first interval)
        await asyncio.sleep(0.5 + 0.02 * len(specs) + 0.05)
        if load is not None:
            load.start()
        lat, moves, _secs, cpu_per_move = await matches
    finally:
        secs = time.perf_counter() - t0
        if load is not None:
            await load.finish()
    counters.setdefault("cpu", {}).setdefault("chat" if chat_writers else "alone", []).append(cpu_per_move)
    return lat, moves, secs, load


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10, help="matches per phase (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="alone/chat rounds, interleaved (default 3)")
    parser.add_argument("--moves", type=int, default=40, help="moves per match at most (default 40)")
    parser.add_argument("--variant", default="kropki-10")
    parser.add_argument("--chat-per-s", type=float, default=5.0, help="chat lines per second per match (default 5)")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=200.0,
        help="a player waits this long (x U(0.5, 1.5)) before each move (default 200), so a "
        "phase lasts long enough for the chat to run beside it",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--daphnes", type=int, default=1, help="daphne processes (default 1); players and writers are spread over them"
    )
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--max-seconds", type=float, default=900.0)
    parser.add_argument("--flood", type=int, default=0, help="the second phase: this many reconnect loops, no chat")
    args = parser.parse_args()

    writers = max(2, math.ceil(args.chat_per_s * WRITER_INTERVAL))  # the two players and the spectators
    per_round = 2 * args.matches
    ms = lambda v: round(v * 1000, 2)  # noqa: E731
    report: dict = {
        "variant": args.variant,
        "matches": args.matches,
        "rounds": args.rounds,
        "daphnes": args.daphnes,
        "chat_per_s": round(writers / WRITER_INTERVAL, 2),
        "chat_writers_per_match": writers,
        "tree_rev": bench_live.tree_revision(ROOT),
    }
    workdir = Path(tempfile.mkdtemp(prefix="kropki-bench-chat-"))
    redis_proc, redis_url = bench_live.start_redis(workdir)
    site = None
    sizes = bench_live.FrameSizes()
    counters: dict = {"rate_limited": 0}
    results: dict[str, dict] = {
        "alone": {"lat": [], "moves": 0, "secs": 0.0},
        "chat": {"lat": [], "moves": 0, "secs": 0.0, "chat_lat": [], "lines": 0, "errors": {}},
    }
    error = None
    try:
        budget = (
            {}
            if not args.flood
            else {  # production's handshake budget (tests/live.py lifts it)
                "WS_CONNECTS_PER_IP_BURST": "60",
                "WS_CONNECTS_PER_ANONYMOUS_IP_BURST": "40",
                "WS_CONNECTS_PER_USER_BURST": "30",
                "BEHIND_PROXY": "1",
            }
        )  # so that the flood's X-Forwarded-For is its address
        site = bench_live.make_tree_site(
            workdir, redis_url, ROOT, MOVE_SECONDS="3600", DJANGO_LOG_LEVEL="WARNING", **budget
        )
        result = site.manage(
            "shell",
            "-c",
            SETUP % {"n": per_round * args.rounds, "variant": args.variant, "watchers": writers - 2},
            timeout=600,
        )
        setup = json.loads(next(x for x in result.stdout.splitlines() if x.startswith("JSON:"))[5:])
        hosts = [site.start_daphne(name=f"daphne{i}")[1].split("//", 1)[1] for i in range(args.daphnes)]
        cpu = bench_live.CpuMeter([p.popen.pid for p in site.procs], redis_proc.pid)
        specs = setup["matches"]
        for r in range(args.rounds):
            chunk = specs[r * per_round : (r + 1) * per_round]
            quiet, chatty = chunk[0::2], chunk[1::2]  # odd ones have spectators (SETUP)
            for name, group, chat_writers in (("alone", quiet, 0), ("chat", chatty, writers)):
                print(f"==> round {r + 1}: {len(group)} matches, {name}", file=sys.stderr)
                lat, moves, secs, load = asyncio.run(
                    phase(hosts, setup, group, args.variant, args, cpu, sizes, counters, args.seed + r, chat_writers)
                )
                res = results[name]
                res["lat"] += lat
                res["moves"] += moves
                res["secs"] += secs
                if load is not None:
                    res["chat_lat"] += load.latencies
                    res["lines"] += load.lines
                    for code, n in load.errors.items():
                        res["errors"][code] = res["errors"].get(code, 0) + n
    except Exception as exc:  # reported in the JSON line
        error = f"{type(exc).__name__}: {exc}"[:2000]
        for proc in site.procs if site is not None else ():
            print(f"--- {proc.name} log (tail) ---\n{proc.log.read_text(errors='replace')[-3000:]}", file=sys.stderr)
    finally:
        if site is not None:
            site.stop_all()
            live.drop_live_database(site.env["DATABASE_URL"])
        live.stop_group(redis_proc)
        shutil.rmtree(workdir, ignore_errors=True)

    if error is None:
        alone, chat = results["alone"], results["chat"]
        report["alone"] = {
            "moves": alone["moves"],
            "moves_per_s": round(alone["moves"] / alone["secs"], 1),
            "p50_ms": ms(bench_live.percentile(alone["lat"], 0.5)),
            "p99_ms": ms(bench_live.percentile(alone["lat"], 0.99)),
        }
        report["chat"] = {
            "moves": chat["moves"],
            "moves_per_s": round(chat["moves"] / chat["secs"], 1),
            "p50_ms": ms(bench_live.percentile(chat["lat"], 0.5)),
            "p99_ms": ms(bench_live.percentile(chat["lat"], 0.99)),
            "chat_lines": chat["lines"],
            "chat_per_s_measured": round(chat["lines"] / chat["secs"], 1),
            "chat_p50_ms": ms(bench_live.percentile(chat["chat_lat"], 0.5)),
            "chat_p99_ms": ms(bench_live.percentile(chat["chat_lat"], 0.99)),
            "chat_errors": chat["errors"],
        }
        report["p99_ratio"] = round(report["chat"]["p99_ms"] / report["alone"]["p99_ms"], 3)
        report["p50_ratio"] = round(report["chat"]["p50_ms"] / report["alone"]["p50_ms"], 3)
        report["target_p99_ratio"] = 2.0 if args.flood else 1.2
        report["rate_limited"] = counters["rate_limited"]
        for name, samples in counters.get("cpu", {}).items():  # daphne and Redis CPU per move, each phase
            report[name]["daphne_cpu_ms_per_move"] = [c["daphne"] for c in samples]
            report[name]["redis_cpu_ms_per_move"] = [c["redis"] for c in samples]
        if args.flood:  # the second phase was the flood: say so
            report["flood"] = report.pop("chat")
            report["flood"].update(loops=args.flood, outcomes=report["flood"].pop("chat_errors"))
            for key in ("chat_lines", "chat_per_s_measured", "chat_p50_ms", "chat_p99_ms"):
                report["flood"].pop(key, None)
        other = report.get("chat") or report["flood"]
        print(
            f"moves alone: p50 {report['alone']['p50_ms']} ms, p99 {report['alone']['p99_ms']} ms; "
            f"with {'the flood' if args.flood else 'chat'}: p50 {other['p50_ms']} ms, p99 {other['p99_ms']} ms; "
            f"p99 ratio {report['p99_ratio']} (target <= {report['target_p99_ratio']})"
        )
    else:
        report["error"] = error
        print(f"FAILED: {error}", file=sys.stderr)
    report["load_avg_1m"] = round(os.getloadavg()[0], 2)
    print(json.dumps(report))
    return 0 if error is None else 1


if __name__ == "__main__":
    sys.exit(main())
