"""The cost of presence: N idle site-wide sockets (``ws/site/``) on one daphne.

    python bench/presence.py [--sockets N] [--per-user K] [--idle-seconds S]

Starts what it needs with bench/live.py's machinery: its own Redis (a unix
socket in a temporary directory), a migrated database (SQLite, or a fresh
PostgreSQL database next to DATABASE_URL), one daphne. Creates N / K users
with a session each, then opens N site sockets (K per user, default 1: one
tab each; at most 50 handshakes at a time) and reads each one's ``hello``.
Then nothing happens for S seconds (default 30): the sockets stay open and
send nothing, as idle tabs do. Measured:

- daphne's resident memory (RSS, psutil) after start-up and one page, after
  the sockets connected, and at the end of the idle time;
- daphne's and Redis's CPU seconds (user + system) during the idle time, and
  daphne's as a percentage of one core;
- how many users Redis counts online at the end (``<LIMITS_PREFIX>online``).

Baseline, in the same run on the same daphne: as many ``ws/ping/`` sockets
(an echo socket: no lease, no presence, no database), idle as long: what any
open WebSocket costs daphne (its keep-alive pings, its timeout checks).

An idle site socket sends nothing and is sent nothing; each renews its lease
(socket cap and presence) in Redis every 30 s, so an idle time of 30 s or more
contains one renewal per socket.

The last line printed is one JSON object:
{"sockets": N, "users": …, "connect_seconds": …, "idle_seconds": S,
 "daphne_cpu_seconds_idle": …, "daphne_cpu_percent_idle": …, "redis_cpu_seconds_idle": …,
 "daphne_rss_mb_before": …, "daphne_rss_mb_connected": …, "daphne_rss_mb_after_idle": …,
 "rss_kb_per_socket": …, "online_users": …, "baseline_ping_daphne_cpu_seconds_idle": …,
 "baseline_ping_redis_cpu_seconds_idle": …, "baseline_ping_rss_mb_connected": …, "error": … (only on failure)}
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.live import CpuMeter, connect, make_tree_site, start_redis  # noqa: E402 - bench/live.py's machinery
from tests import live  # noqa: E402

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
User = get_user_model()
out = []
for i in range(%(n)d):
    user = User(username="idle%%d" %% i, email="idle%%d@example.com" %% i)
    user.set_unusable_password()
    user.save()
    client = Client()
    client.force_login(user)
    out.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
print("JSON:" + json.dumps({"cookie_name": settings.SESSION_COOKIE_NAME, "cookies": out}))
"""


def rss_mb(pid: int) -> float:
    import psutil

    proc = psutil.Process(pid)
    total = proc.memory_info().rss
    for child in proc.children(recursive=True):
        total += child.memory_info().rss
    return round(total / 2**20, 1)


async def open_all(
    host: str, cookie_name: str, cookies: list[str], per_user: int, timeout: float, path: str = "/ws/site/"
) -> list:
    gate = asyncio.Semaphore(50)

    async def one(cookie: str):
        async with gate:
            ws = await connect(host, path, f"{cookie_name}={cookie}", timeout)
            hello = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            if hello.get("type") != "hello":
                raise RuntimeError(f"first frame {hello!r}")
            return ws

    return await asyncio.gather(*(one(c) for c in cookies for _ in range(per_user)))


async def idle(sockets: list, seconds: float) -> int:
    """Sit ``seconds`` with the sockets open; count frames that arrive anyway (none expected)."""
    got = 0

    async def drain(ws) -> None:
        nonlocal got
        try:
            while True:
                await ws.recv()
                got += 1
        except Exception:  # closed at the end
            return

    readers = [asyncio.create_task(drain(ws)) for ws in sockets]
    await asyncio.sleep(seconds)
    for task in readers:
        task.cancel()
    return got


async def close_all(sockets: list) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--per-user", type=int, default=1, help="site sockets per user (tabs), at most 10")
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the sockets, here and in daphne (inherited)

    users = max(1, args.sockets // args.per_user)
    report: dict = {"sockets": users * args.per_user, "users": users, "idle_seconds": args.idle_seconds}
    workdir = Path(tempfile.mkdtemp(prefix="kropki-presence-"))
    redis_proc, redis_url = start_redis(workdir)
    site = None
    phase = "setup"
    try:
        site = make_tree_site(workdir, redis_url, ROOT, DJANGO_LOG_LEVEL="WARNING")
        result = site.manage("shell", "-c", SETUP % {"n": users}, timeout=900)
        setup = json.loads(next(x for x in result.stdout.splitlines() if x.startswith("JSON:"))[5:])
        proc, url = site.start_daphne(name="daphne")
        host = url.split("//", 1)[1]
        live.http_get(url + "/graj/")  # warm: templates, translations, the first database connection
        time.sleep(1)
        pid = proc.popen.pid
        report["daphne_rss_mb_before"] = rss_mb(pid)
        phase = "connect"
        print(f"==> daphne at {host}; opening {report['sockets']} site sockets", file=sys.stderr)

        async def run() -> None:
            started = time.monotonic()
            sockets = await open_all(host, setup["cookie_name"], setup["cookies"], args.per_user, args.timeout)
            report["connect_seconds"] = round(time.monotonic() - started, 2)
            await asyncio.sleep(2)  # the last announcements and database calls settle
            report["daphne_rss_mb_connected"] = rss_mb(pid)
            cpu = CpuMeter([pid], redis_proc.pid)
            before = cpu.sample()
            print(f"==> idle for {args.idle_seconds:g} s", file=sys.stderr)
            report["frames_while_idle"] = await idle(sockets, args.idle_seconds)
            after = cpu.sample()
            report["daphne_cpu_seconds_idle"] = round(after["daphne"] - before["daphne"], 3)
            report["daphne_cpu_percent_idle"] = round(100 * (after["daphne"] - before["daphne"]) / args.idle_seconds, 2)
            report["redis_cpu_seconds_idle"] = round(after["redis"] - before["redis"], 3)
            report["daphne_rss_mb_after_idle"] = rss_mb(pid)
            import redis

            client = redis.Redis.from_url(redis_url)
            report["online_users"] = client.zcount(site.env["LIMITS_PREFIX"] + "online", time.time(), "+inf")
            await close_all(sockets)

            # Baseline, same daphne, same clients: as many ws/ping/ sockets (no lease, no presence).
            await asyncio.sleep(3)
            phase_base = await open_all(
                host, setup["cookie_name"], setup["cookies"], args.per_user, args.timeout, path="/ws/ping/"
            )
            await asyncio.sleep(2)
            report["baseline_ping_rss_mb_connected"] = rss_mb(pid)
            before = cpu.sample()
            print(f"==> baseline: {len(phase_base)} idle ws/ping/ sockets for {args.idle_seconds:g} s", file=sys.stderr)
            await idle(phase_base, args.idle_seconds)
            after = cpu.sample()
            report["baseline_ping_daphne_cpu_seconds_idle"] = round(after["daphne"] - before["daphne"], 3)
            report["baseline_ping_redis_cpu_seconds_idle"] = round(after["redis"] - before["redis"], 3)
            await close_all(phase_base)

        asyncio.run(run())
        grown = report["daphne_rss_mb_connected"] - report["daphne_rss_mb_before"]
        report["rss_kb_per_socket"] = round(grown * 1024 / report["sockets"], 1)
    except Exception as exc:  # reported in the JSON line
        report["error"] = f"{phase}: {type(exc).__name__}: {exc}"[:2000]
    finally:
        if site is not None:
            site.stop_all()
            live.drop_live_database(site.env["DATABASE_URL"])
        live.stop_group(redis_proc)
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(report))
    return 1 if "error" in report else 0


if __name__ == "__main__":
    sys.exit(main())
