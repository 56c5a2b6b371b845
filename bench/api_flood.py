"""A player's page under an API flood (issue 37, the API's budgets; docs/reliability.md).

    .venv/bin/python bench/api_flood.py [--samples N] [--attackers A] [--threads T]

Starts its own site (tests/live.py: a migrated database, its own Redis, one daphne with
scripts/run's flags and a Celery worker; the production limits: API_REQUESTS_PER_MINUTE,
API_STREAMS_PER_MINUTE, the per-address budgets and API_STREAMS_PER_ADDRESS). A player (ania,
signed in, from 127.0.0.1) loads her match page ``/partia/<id>/`` N times one after another
(default 60), first with nobody else on the site, then while A accounts (default 6), each from
an address of its own on the loopback (127.0.0.2, 127.0.0.3, ...: the attacker's own addresses)
and with three tokens, flood the API from T threads each (default 2): each thread, as fast as the
site answers, calls ``GET /api/account``, opens the game stream of ania's match and the event
stream and closes each after its first line, with its tokens in turn.

The last line printed is one JSON object: ``page_quiet_p50_ms``, ``page_quiet_p99_ms``,
``page_flood_p50_ms``, ``page_flood_p99_ms``, ``p50_ratio``, ``flood_requests``,
``flood_per_second``, ``flood_statuses`` (HTTP status: count; 0 for a refused or reset
connection), ``samples``, ``attackers``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import live

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from accounts.tokens import token_create
from games import play as services
out = {"flooders": []}
for name in ("ania", "bob"):
    user = User.objects.create_user(username=name, email=name + "@example.com", password="kropka-Trudna-2024")
    client = Client()
    client.force_login(user)
    out[name] = {"id": user.pk, "cookie": settings.SESSION_COOKIE_NAME + "=" + client.cookies[settings.SESSION_COOKIE_NAME].value}
out["match"] = services.match_create(variant="kropki-10", pink_id=out["ania"]["id"], blue_id=out["bob"]["id"]).pk
for i in range(%(attackers)d):
    user = User.objects.create_user(username="zalew%%d" %% i, email="zalew%%d@example.com" %% i, password="kropka-Trudna-2024")
    scopes = ["board:read", "challenge:write"]
    out["flooders"].append([token_create(user=user, name="t%%d" %% n, scopes=scopes)[1] for n in range(3)])
print("JSON:" + json.dumps(out))
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def page_times(url: str, path: str, cookie: str, samples: int) -> list[float]:
    """Seconds for each of ``samples`` GETs of ``path`` (a new connection each, as a browser's first)."""
    parsed = urlparse(url)
    times = []
    for _ in range(samples):
        conn = http.client.HTTPConnection(parsed.hostname or "127.0.0.1", parsed.port, timeout=30)
        started = time.perf_counter()
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        response.read()
        times.append(time.perf_counter() - started)
        conn.close()
        if response.status != 200:
            raise RuntimeError(f"the player's page answered {response.status}")
        time.sleep(0.1)
    return times


class Flooder(threading.Thread):
    """One thread of one attacker: API calls and stream openings from ``address``, as fast as answered."""

    def __init__(self, url: str, address: str, tokens: list[str], match_id: int) -> None:
        super().__init__(daemon=True)
        parsed = urlparse(url)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port
        self.address, self.tokens = address, tokens
        self.paths = ["/api/account", f"/api/bot/game/stream/{match_id}", "/api/stream/event"]
        self.stop = threading.Event()
        self.statuses: dict[int, int] = {}

    def run(self) -> None:
        turn = 0
        while not self.stop.is_set():
            token, path = self.tokens[turn % len(self.tokens)], self.paths[turn % len(self.paths)]
            turn += 1
            status = 0
            try:
                conn = http.client.HTTPConnection(self.host, self.port, timeout=10, source_address=(self.address, 0))
                conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
                response = conn.getresponse()
                status = response.status
                response.readline()  # a call's body, or a stream's first line; then closed
                conn.close()
            except OSError:
                pass
            self.statuses[status] = self.statuses.get(status, 0) + 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--attackers", type=int, default=6)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    with live.own_site("bench-api-flood", MOVE_SECONDS="600") as site:
        site.start_worker()
        _daphne, url = site.start_daphne()
        result = site.manage("shell", "-c", SETUP % {"attackers": args.attackers})
        people = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("JSON:"))[5:])
        path, cookie = f"/partia/{people['match']}/", people["ania"]["cookie"]
        page_times(url, path, cookie, 5)  # warm
        quiet = page_times(url, path, cookie, args.samples)
        flooders = [
            Flooder(url, f"127.0.0.{2 + i}", tokens, people["match"])
            for i, tokens in enumerate(people["flooders"])
            for _ in range(args.threads)
        ]
        started = time.perf_counter()
        for flooder in flooders:
            flooder.start()
        time.sleep(2)  # under way
        flooded = page_times(url, path, cookie, args.samples)
        for flooder in flooders:
            flooder.stop.set()
        for flooder in flooders:
            flooder.join(timeout=30)
        elapsed = time.perf_counter() - started
    statuses: dict[int, int] = {}
    for flooder in flooders:
        for status, count in flooder.statuses.items():
            statuses[status] = statuses.get(status, 0) + count
    quiet_p50, flood_p50 = statistics.median(quiet) * 1000, statistics.median(flooded) * 1000
    report = {
        "samples": args.samples,
        "attackers": args.attackers,
        "page_quiet_p50_ms": round(quiet_p50, 1),
        "page_quiet_p99_ms": round(percentile(quiet, 0.99) * 1000, 1),
        "page_flood_p50_ms": round(flood_p50, 1),
        "page_flood_p99_ms": round(percentile(flooded, 0.99) * 1000, 1),
        "p50_ratio": round(flood_p50 / quiet_p50, 2),
        "flood_requests": sum(statuses.values()),
        "flood_per_second": round(sum(statuses.values()) / elapsed, 1),
        "flood_statuses": {str(status): count for status, count in sorted(statuses.items())},
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
