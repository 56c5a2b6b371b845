"""Human-pace capacity of the cluster (issue 30): one web host, then two, in the same run.

    sudo .venv/bin/python bench/cluster.py [--think-ms 2000] [--p99-ms 50] [--moves 10]
                                           [--start 32] [--variant kropki-10] [--budget-min 20]

For 1 and then 2 web hosts it builds the cluster of tests/cluster.py (a db host with its
own PostgreSQL and Redis, web hosts running scripts/supervisord.conf, nginx with
docs/deploy.md's configuration), each web host pinned to one core with ``taskset``
(w1 on CPU 0, w2 on CPU 1; the db host, nginx and this client are not pinned), and
searches the largest number N of concurrent matches whose move latency p99 stays within
``--p99-ms`` when every player thinks ``--think-ms`` × U(0.5, 1.5) before each move:
doubling from ``--start``, then bisecting to within 10 %, one run of ``--moves`` moves per
match per candidate (a candidate that fails is run once more, both runs kept in the JSON:
on a shared machine one slow moment fails the p99 of a few hundred moves; a warm-up run
of 8 matches comes first). The players are bench/live.py's (``play_match``: random legal moves,
latency = sent → the opponent's socket has the ``moved`` frame), here over wss:// through
nginx, each socket from a loopback address of its own (nginx's ``limit_conn peraddr 20``
would otherwise refuse a bench's sockets, all from one address).

The machine this was written on has 2 cores: with two web hosts pinned to both, the db
host's PostgreSQL and Redis, nginx and this client take their CPU from the same two cores
that the web hosts use, where with one web host they have a core to themselves. Read the
ratio with that in mind.

The last line printed is one JSON object:
{"think_ms", "p99_ms_limit", "variant", "moves", "capacity": {"1": N1, "2": N2}, "ratio": N2 / N1,
 "runs": [{"webs", "matches", "p50_ms", "p99_ms", "moves_per_s", "daphne_cpu_ms_per_move", "ok", "error"?, "retried"?}, ...],
 "cpus": …, "load_1min": [start, end]}
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import live as bench_live  # noqa: E402 - bench/live.py's players
from tests import cluster as cluster_lib  # noqa: E402

_addresses = (f"127.78.{a}.{b}" for a, b in itertools.product(range(256), range(1, 255)))


def use_cluster_sockets(cl: cluster_lib.Cluster) -> None:
    """bench/live.py's ``connect``, through the cluster's nginx (wss://, its certificate),
    each socket from a loopback address of its own."""
    import websockets
    from websockets.typing import Origin

    context = cl.ssl_context()

    async def connect(host: str, path: str, cookie: str | None, timeout: float = 30):
        headers = [("Cookie", cookie)] if cookie else []
        return await websockets.connect(
            f"wss://{cl.listen}{path}",
            origin=Origin(cl.url),
            additional_headers=headers,
            open_timeout=timeout,
            max_size=2**24,
            compression=None,
            ssl=context,
            local_addr=(next(_addresses), 0),
        )

    bench_live.connect = connect  # the same signature, another transport


def daphne_pids(cl: cluster_lib.Cluster) -> list[int]:
    import psutil

    pids = []
    for name in cl.hosts:
        if name == "db":
            continue
        for pid in cl.pids(name):
            try:
                if "daphne" in " ".join(psutil.Process(pid).cmdline()):
                    pids.append(pid)
            except psutil.Error:
                pass
    return pids


def run_once(cl: cluster_lib.Cluster, webs: int, n: int, args: argparse.Namespace, tag: str) -> dict:
    """One candidate: ``n`` matches at the human pace; its figures."""
    # Usernames of this candidate's own (bench/live.py's set-up makes bench<p|b><i>).
    code = bench_live.SETUP.replace("bench%%s", f"bench{tag}%%s") % {"n": n, "variant": args.variant}
    out = cl.site.manage("shell", "-c", code).stdout
    setup = json.loads(next(line for line in out.splitlines() if line.startswith("JSON:"))[5:])
    cpu = bench_live.CpuMeter(daphne_pids(cl), None)
    sizes, counters = bench_live.FrameSizes(), dict[str, int]()
    result: dict = {"webs": webs, "matches": n}
    try:
        latencies, moves, seconds, per_move = asyncio.run(
            bench_live.run_matches(
                ["nginx"],
                setup,
                args.variant,
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
    except Exception as exc:  # a socket refused or closed, a frame that never came: this N fails
        result.update(ok=False, error=f"{type(exc).__name__}: {exc}"[:300])
        return result
    p99 = bench_live.percentile(latencies, 0.99) * 1000
    result.update(
        p50_ms=round(bench_live.percentile(latencies, 0.5) * 1000, 1),
        p99_ms=round(p99, 1),
        moves_per_s=round(moves / seconds, 1) if seconds else None,
        daphne_cpu_ms_per_move=per_move["daphne"],
        ok=p99 <= args.p99_ms,
    )
    return result


def search(webs: int, args: argparse.Namespace, runs: list[dict], deadline: float) -> int:
    """The largest N that passed for ``webs`` web hosts (0 when none did)."""
    env = {"MOVE_SECONDS": "3600"}  # no clock fires during a run
    with cluster_lib.Cluster(webs=webs, cpus=list(range(webs)), extra_env=env) as cl:
        use_cluster_sockets(cl)
        run_once(cl, webs, 8, args, f"{webs}w")  # warm-up (not counted): first connections, caches
        best, worst = 0, None  # the largest N that passed, the smallest that failed
        n = args.start
        for step in itertools.count():
            if time.monotonic() > deadline:
                print(f"  (budget spent: {webs} web host(s) stop at {best})", flush=True)
                break
            result = run_once(cl, webs, n, args, f"{webs}x{step}x")
            if not result["ok"]:  # one slow moment of a shared machine fails a p99 of ~100 moves: once more
                runs.append({**result, "retried": True})
                print(f"  {webs} web host(s), {n} matches, failed once: {json.dumps(result)}", flush=True)
                result = run_once(cl, webs, n, args, f"{webs}x{step}r")
            runs.append(result)
            print(f"  {webs} web host(s), {n} matches: {json.dumps(result)}", flush=True)
            if result["ok"]:
                best = max(best, n)
            else:
                worst = n if worst is None else min(worst, n)
            if worst is None:
                n *= 2
            elif worst - best <= max(1, best // 10):
                break
            else:
                n = (best + worst) // 2 if best else max(1, worst // 2)
                if n in (best, worst):
                    break
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--think-ms", type=float, default=2000)
    parser.add_argument("--p99-ms", type=float, default=50)
    parser.add_argument("--moves", type=int, default=10, help="moves per match per candidate (default 10)")
    parser.add_argument("--start", type=int, default=32, help="the first N (default 32), then doubled")
    parser.add_argument("--variant", default="kropki-10")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--max-seconds", type=float, default=600)
    parser.add_argument("--budget-min", type=float, default=20, help="for each of the two searches (default 20)")
    args = parser.parse_args()
    why = cluster_lib.unavailable()
    if why:
        print(json.dumps({"error": f"no cluster here: {why}"}))
        return 1
    runs: list[dict] = []
    capacity = {}
    load_start = os.getloadavg()[0]
    for webs in (1, 2):
        print(f"==> {webs} web host(s), each pinned to one core", flush=True)
        capacity[str(webs)] = search(webs, args, runs, time.monotonic() + args.budget_min * 60)
    ratio = round(capacity["2"] / capacity["1"], 2) if capacity["1"] else None
    print(
        json.dumps(
            {
                "think_ms": args.think_ms,
                "p99_ms_limit": args.p99_ms,
                "variant": args.variant,
                "moves": args.moves,
                "capacity": capacity,
                "ratio": ratio,
                "runs": runs,
                "cpus": os.cpu_count(),
                "load_1min": [round(load_start, 2), round(os.getloadavg()[0], 2)],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
