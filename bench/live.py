"""Live play through the whole stack: N concurrent matches over WebSockets.

    python bench/live.py --matches N [--daphnes D] [--moves M] [--think-ms T] [--variant KEY] [--seed S]

Starts everything it needs: its own Redis (redis-server on a unix socket in a
temporary directory), a database (a temporary SQLite file, or a fresh
PostgreSQL database next to DATABASE_URL when that is set; migrated), and one
daphne (``--daphnes D``: D of them on D ports, sharing Redis and the database;
each match's two players, and each baseline pair, on different ones). No Celery: moves need none (MOVE_SECONDS is set high so no clock fires).

Then, for each of N matches, two sockets (one per player, logged in by session
cookie) play random legal moves as fast as the server answers: the player to
move sends ``{"type": "move", "ply", "action"}`` as soon as its socket has the
position, up to M moves per match. The latency of a move is the time from
sending it to the *opponent's* socket receiving the ``moved`` (or
``finished``) frame with the new ply: the service (row lock, move row,
engine), the commit, the snapshot with its SVG, and the Redis group_send.

Baseline, measured in the same run through the same daphne and Redis: N pairs
of ws/ping/ sockets, each pair in its own group; one socket sends
``{"relay": group, "data": ...}`` and the server does a bare ``group_send``;
the time until the other socket receives it. The pairs take turns the same way
(M round trips each, all pairs at once).

The last line printed is one JSON object:
{"matches": N, "moves_per_s": …, "p50_ms": …, "p99_ms": …,
 "baseline_p50_ms": …, "baseline_p99_ms": …}
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import live  # noqa: E402 - the same process helpers as the live tests

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from games import services
User = get_user_model()
out = []
for i in range(%(n)d):
    pair = []
    for side in ("p", "b"):
        user = User.objects.create_user(username="bench%%s%%d" %% (side, i), email="bench%%s%%d@example.com" %% (side, i))
        client = Client()
        client.force_login(user)
        pair.append({"id": user.pk, "cookie": client.cookies[settings.SESSION_COOKIE_NAME].value})
    match = services.match_create(variant=%(variant)r, pink_id=pair[0]["id"], blue_id=pair[1]["id"])
    out.append({"match": match.pk, "players": pair})
print("JSON:" + json.dumps({"cookie_name": settings.SESSION_COOKIE_NAME, "matches": out}))
"""


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


async def connect(host: str, path: str, cookie: str | None):
    import websockets

    headers = [("Cookie", cookie)] if cookie else []
    return await websockets.connect(
        f"ws://{host}{path}", origin=f"http://{host}", additional_headers=headers, open_timeout=30,
        max_size=2**22, compression=None,
    )


async def play_match(hosts: list[str], cookie_name: str, spec: dict, max_moves: int, rng: random.Random,
                     latencies: list[float], start: asyncio.Event, done: Done, think: float = 0.0) -> int:
    """Two sockets play random legal moves; returns the number of moves made."""
    # with several daphnes, the two players sit on different ones (hosts rotate per match)
    sockets = [await connect(host, f"/ws/match/{spec['match']}/", f"{cookie_name}={p['cookie']}")
               for host, p in zip(hosts, spec["players"])]
    states = [json.loads(await ws.recv()) for ws in sockets]
    snap = states[0]["snapshot"]
    end_action = 100 if snap["game"] == "kropki" else None  # Kropki's "end": never chosen
    await start.wait()
    moves = 0
    try:
        while snap["status"] == "active" and moves < max_moves:
            mover = snap["to_move"] - 1
            legal = [a for a in snap["legal"] if a != end_action]
            if not legal:
                break
            action = rng.choice(legal)
            ply = snap["ply"]
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            sent = time.perf_counter()
            await sockets[mover].send(json.dumps({"type": "move", "ply": ply, "action": action}))
            # the opponent's socket: wait for the frame with the new ply
            while True:
                frame = json.loads(await asyncio.wait_for(sockets[1 - mover].recv(), 30))
                if frame.get("type") in ("moved", "finished") and frame.get("ply") == ply + 1:
                    latencies.append(time.perf_counter() - sent)
                    break
                if frame.get("type") == "error":
                    raise RuntimeError(f"match {spec['match']}: {frame}")
            # the mover's own socket gets the same broadcast: drain it
            while True:
                frame = json.loads(await asyncio.wait_for(sockets[mover].recv(), 30))
                if frame.get("ply") == ply + 1 and frame.get("type") in ("moved", "finished"):
                    break
                if frame.get("type") == "error":
                    raise RuntimeError(f"match {spec['match']}: {frame}")
            snap = frame["snapshot"]
            moves += 1
    finally:
        await done.finished_one()  # see Done
        for ws in sockets:
            await ws.close()
    return moves


async def echo_pair(hosts: list[str], index: int, rounds: int, latencies: list[float], start: asyncio.Event,
                    done: Done) -> int:
    group = f"bench{index}"
    sockets = [await connect(host, "/ws/ping/", None) for host in hosts]
    for ws in sockets:
        json.loads(await ws.recv())  # hello
        await ws.send(json.dumps({"relay": group, "join": True}))
        while json.loads(await ws.recv()).get("type") != "joined":
            pass
    await start.wait()
    try:
        for n in range(rounds):
            sender = n % 2
            sent = time.perf_counter()
            await sockets[sender].send(json.dumps({"relay": group, "data": n}))
            try:
                while json.loads(await asyncio.wait_for(sockets[1 - sender].recv(), 30)).get("data") != n:
                    pass
            except TimeoutError:
                raise RuntimeError(f"baseline pair {index} ({hosts}): relay {n} from socket {sender} never reached "
                                   f"the other socket") from None
            latencies.append(time.perf_counter() - sent)
            while json.loads(await asyncio.wait_for(sockets[sender].recv(), 30)).get("data") != n:
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
    """

    def __init__(self, tasks: int) -> None:
        self.left = tasks
        self.event = asyncio.Event()
        self.ended = 0.0  # when the last one finished playing

    async def finished_one(self) -> None:
        self.left -= 1
        if self.left <= 0 or sys.exc_info()[0] is not None:  # all done, or one failed: close everything
            self.ended = self.ended or time.perf_counter()
            self.event.set()
        await self.event.wait()


def pair_hosts(hosts: list[str], i: int) -> list[str]:
    """The two sockets of pair ``i``: on different daphnes when there are several, spread evenly."""
    return [hosts[i % len(hosts)], hosts[(i + 1) % len(hosts)]]


async def run_baseline(hosts: list[str], n: int, rounds: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    start = asyncio.Event()
    done = Done(n)
    tasks = [asyncio.create_task(echo_pair(pair_hosts(hosts, i), i, rounds, latencies, start, done))
             for i in range(n)]
    await asyncio.sleep(0)
    await asyncio.sleep(0.5 + 0.02 * n)  # let every pair connect and join before the clock starts
    t0 = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks)
    return latencies, done.ended - t0


async def run_matches(hosts: list[str], setup: dict, max_moves: int, seed: int, think: float = 0.0):
    latencies: list[float] = []
    start = asyncio.Event()
    rng = random.Random(seed)
    specs = setup["matches"]
    done = Done(len(specs))
    tasks = [
        asyncio.create_task(play_match(pair_hosts(hosts, i), setup["cookie_name"], spec, max_moves, random.Random(rng.random()),
                                       latencies, start, done, think))
        for i, spec in enumerate(specs)
    ]
    # let every socket connect and get its state before the clock starts
    await asyncio.sleep(0.5 + 0.02 * len(specs))
    t0 = time.perf_counter()
    start.set()
    counts = await asyncio.gather(*tasks)
    return latencies, sum(counts), done.ended - t0


def start_redis(workdir: Path) -> tuple[subprocess.Popen, str]:
    from kropki_site import devredis

    sock = workdir / "redis.sock"
    return devredis.start(sock), f"unix://{sock}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--moves", type=int, default=40, help="moves per match at most (default 40)")
    parser.add_argument("--variant", default="kropki-10")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--daphnes", type=int, default=1,
                        help="daphne processes sharing Redis and the database (default 1); with 2+, the two "
                             "sockets of each match (and of each baseline pair) are on different ones")
    parser.add_argument("--think-ms", type=float, default=0.0,
                        help="a bot waits this long before each move (default 0: as fast as the server answers)")
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    workdir = Path(tempfile.mkdtemp(prefix="kropki-bench-live-"))
    redis_proc, redis_url = start_redis(workdir)
    site = None
    try:
        print(f"==> site in {workdir} (DATABASE_URL={os.environ.get('DATABASE_URL') or 'temporary SQLite'})",
              file=sys.stderr)
        site = live.make_live_site(workdir, redis_url, MOVE_SECONDS="3600", DJANGO_LOG_LEVEL="WARNING")
        result = site.manage("shell", "-c", SETUP % {"n": args.matches, "variant": args.variant})
        line = next(x for x in result.stdout.splitlines() if x.startswith("JSON:"))
        setup = json.loads(line[5:])
        hosts = [site.start_daphne(name=f"daphne{i}")[1].split("//", 1)[1] for i in range(args.daphnes)]
        print(f"==> daphne at {', '.join(hosts)}; baseline: {args.matches} ping pairs x {args.moves} relays",
              file=sys.stderr)
        base_lat, base_secs = asyncio.run(run_baseline(hosts, args.matches, args.moves))
        print(f"==> {args.matches} matches of {args.variant}, up to {args.moves} moves each", file=sys.stderr)
        lat, moves, secs = asyncio.run(run_matches(hosts, setup, args.moves, args.seed, args.think_ms / 1000))
    except BaseException:
        for proc in site.procs if site is not None else ():
            print(f"--- {proc.name} log (tail) ---\n{"\n".join(l for l in proc.log.read_text(errors="replace").splitlines() if "WS" not in l)[-3000:]}", file=sys.stderr)
        raise
    finally:
        if site is not None:
            site.stop_all()
            live.drop_live_database(site.env["DATABASE_URL"])
        live.stop_group(redis_proc)
        shutil.rmtree(workdir, ignore_errors=True)

    ms = lambda v: round(v * 1000, 2)  # noqa: E731
    report = {
        "matches": args.matches,
        "daphnes": args.daphnes,
        "think_ms": args.think_ms,
        "moves": moves,
        "seconds": round(secs, 2),
        "moves_per_s": round(moves / secs, 1),
        "p50_ms": ms(percentile(lat, 0.5)),
        "p99_ms": ms(percentile(lat, 0.99)),
        "baseline_relays": len(base_lat),
        "baseline_per_s": round(len(base_lat) / base_secs, 1),
        "baseline_p50_ms": ms(percentile(base_lat, 0.5)),
        "baseline_p99_ms": ms(percentile(base_lat, 0.99)),
        "load_avg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],  # at the start, at the end
    }
    print(f"moves: {moves} in {secs:.1f} s = {report['moves_per_s']} moves/s; latency to the opponent "
          f"p50 {report['p50_ms']} ms, p99 {report['p99_ms']} ms (mean {ms(statistics.fmean(lat))} ms)")
    print(f"baseline (bare group_send echo): {len(base_lat)} relays, {report['baseline_per_s']}/s; "
          f"p50 {report['baseline_p50_ms']} ms, p99 {report['baseline_p99_ms']} ms")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
