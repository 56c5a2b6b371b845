"""The API's cost beside the WebSocket's (docs/api.md, docs/performance.md "The API").

    .venv/bin/python bench/api.py [--moves N] [--variant KEY] [--streams S] [--idle-seconds T]

Starts its own site (tests/live.py: a migrated database, its own Redis, one daphne with
scripts/run's flags and a Celery worker), then, in one run:

1. **WebSocket moves**: two people (ania, bob) play N random legal moves of ``--variant``
   (default kropki-20, whose "end" is never chosen) over their match sockets; a move's
   latency is from sending the ``move`` frame to the opponent's socket receiving the
   ``moved`` frame with the new ply (as bench/live.py measures it).
2. **API moves**: two bot accounts play N moves of the same variant through the API; a
   move's latency is from sending the ``POST /api/bot/game/<id>/move/<action>`` to the
   opponent's game stream (``GET /api/bot/game/stream/<id>``) yielding the ``gameState``
   line with the new ply. Each POST is a new HTTP connection, as a simple bridge makes it.
3. **Idle event streams**: S (200) ``GET /api/stream/event`` held open and idle; daphne's
   CPU (user + system, psutil) over T seconds (30) after a settling pause, as a share of
   one core. Idle streams send a keep-alive line every API_KEEPALIVE_SECONDS (6) and
   renew their socket-cap lease every 30 s.

The last line printed is one JSON object: ``ws_p50_ms``, ``ws_p99_ms``, ``api_p50_ms``,
``api_p99_ms``, ``p50_ratio`` (API / WebSocket; the issue asks for at most 2),
``moves``, ``streams``, ``idle_seconds``, ``idle_daphne_cpu_percent`` (the issue asks for
at most 5 % of a core).
"""

from __future__ import annotations

import argparse
import http.client
import json
import queue
import random
import socket
import statistics
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil
from websockets.sync.client import connect
from websockets.typing import Origin

from bench.kropki_engine import variants
from games.engine import get_game
from tests import live

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from accounts.tokens import token_create
from games.play.botaccounts import user_become_bot
from games import play as services
out = {}
for name in ("ania", "bob", "robot1", "robot2"):
    user = User.objects.create_user(username=name, email=name + "@example.com", password="kropka-Trudna-2024")
    client = Client()
    client.force_login(user)
    out[name] = {"id": user.pk, "cookie": settings.SESSION_COOKIE_NAME + "=" + client.cookies[settings.SESSION_COOKIE_NAME].value}
    if name.startswith("robot"):
        user_become_bot(user_id=user.pk)
        out[name]["token"] = token_create(user=user, name="bench", scopes=["bot:play"])[1]
out["ws_match"] = services.match_create(variant=%(variant)r, pink_id=out["ania"]["id"], blue_id=out["bob"]["id"]).pk
out["api_match"] = services.match_create(variant=%(variant)r, pink_id=out["robot1"]["id"], blue_id=out["robot2"]["id"]).pk
out["api_match_2"] = services.match_create(variant=%(variant)r, pink_id=out["robot1"]["id"], blue_id=out["robot2"]["id"]).pk
print("JSON:" + json.dumps(out))
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def turns(variant: str, moves: int) -> Iterator[tuple[int, int, int]]:
    """(ply, the player to move, a random legal action) for up to ``moves`` moves of ``variant``,
    the same sequence every run; Kropki's "end" is never chosen."""
    slug, params = variants()[variant]
    state = get_game(slug, **params).new_initial_state()
    rng = random.Random(1)
    end = getattr(state.game, "end_action", None)
    for ply in range(moves):
        mover = state.current_player()
        if state.is_terminal() or mover is None:
            return
        action = rng.choice([a for a in state.legal_actions() if a != end])
        yield ply, mover, action
        state.apply_action(action)


def ws_moves(url: str, people: dict, variant: str, moves: int) -> list[float]:
    host = urlparse(url).netloc
    match_id = people["ws_match"]
    sockets = {}
    for side, name in ((1, "ania"), (2, "bob")):
        ws = connect(
            f"ws://{host}/ws/match/{match_id}/",
            origin=Origin(f"http://{host}"),
            additional_headers={"Cookie": people[name]["cookie"]},
            max_size=2**20,
            legacy=True,  # a plain connection, kept open by hand (not the reconnecting iterator)
        )
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        sockets[side] = ws
    latencies = []
    for ply, mover, action in turns(variant, moves):
        sent = time.perf_counter()
        sockets[mover].send(json.dumps({"type": "move", "ply": ply, "action": action}))
        other = sockets[3 - mover]
        while True:
            frame = json.loads(other.recv(timeout=30))
            if frame.get("type") in ("moved", "finished") and frame.get("ply") == ply + 1:
                latencies.append(time.perf_counter() - sent)
                break
        while True:  # the mover's own copy (so the next read starts clean)
            frame = json.loads(sockets[mover].recv(timeout=30))
            if frame.get("type") == "error" and frame.get("code") == "rate_limited":
                raise RuntimeError("rate limited: lower --moves")
            if frame.get("ply") == ply + 1:
                break
        time.sleep(0.3)  # within the socket's frame budget (a person is slower still)
    for ws in sockets.values():
        ws.close()
    return latencies


class StreamReader(threading.Thread):
    """One game stream: each line with its arrival time, onto a queue."""

    def __init__(self, url: str, path: str, token: str) -> None:
        super().__init__(daemon=True)
        request = urllib.request.Request(url + path, headers={"Authorization": f"Bearer {token}"})
        self.response = urllib.request.urlopen(request, timeout=60)
        self.lines: queue.Queue[tuple[float, dict]] = queue.Queue()

    def run(self) -> None:
        while True:
            raw = self.response.readline()
            if not raw:
                return
            if raw.strip():
                self.lines.put((time.perf_counter(), json.loads(raw)))


def api_moves(url: str, people: dict, variant: str, moves: int, keep_alive: bool = False) -> list[float]:
    parsed = urlparse(url)
    connections: dict[int, http.client.HTTPConnection] = {}
    match_id = people["api_match"]
    tokens = {1: people["robot1"]["token"], 2: people["robot2"]["token"]}
    readers = {side: StreamReader(url, f"/api/bot/game/stream/{match_id}", tokens[side]) for side in (1, 2)}
    for reader in readers.values():
        reader.start()
        assert reader.lines.get(timeout=10)[1]["type"] == "gameFull"
    latencies = []
    for ply, mover, action in turns(variant, moves):
        path = f"/api/bot/game/{match_id}/move/{action}?ply={ply}"
        headers = {"Authorization": f"Bearer {tokens[mover]}", "Content-Length": "0"}
        sent = time.perf_counter()
        if keep_alive:  # one HTTP/1.1 connection per bot, kept open (a bridge may do so)
            conn = connections.get(mover)
            if conn is None:
                conn = connections[mover] = http.client.HTTPConnection(
                    parsed.hostname or "127.0.0.1", parsed.port, timeout=30
                )
            conn.request("POST", path, headers=headers)
            answer = conn.getresponse()
            assert json.loads(answer.read())["ok"]
            if answer.getheader("Connection", "").lower() == "close":
                conn.close()
                connections.pop(mover)
        else:  # a new connection a move, as urllib (scripts/engine_bridge.py) makes it
            request = urllib.request.Request(url + path, data=b"", method="POST", headers=headers)
            with urllib.request.urlopen(request, timeout=30) as response:
                assert json.loads(response.read())["ok"]
        while True:
            at, line = readers[3 - mover].lines.get(timeout=30)
            if line.get("ply") == ply + 1:
                latencies.append(at - sent)
                break
        while readers[mover].lines.get(timeout=30)[1].get("ply") != ply + 1:
            pass
        time.sleep(0.3)  # the same pace as the sockets' moves
    return latencies


def idle_streams(url: str, token: str, count: int, seconds: float, daphne_pid: int) -> float:
    """Open ``count`` event streams, let them settle, and return daphne's CPU share meanwhile (%)."""
    parsed = urlparse(url)
    held = []
    for _ in range(count):
        sock = socket.create_connection((parsed.hostname, parsed.port), timeout=10)
        sock.sendall(
            f"GET /api/stream/event HTTP/1.1\r\nHost: {parsed.netloc}\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
        )
        head = sock.recv(4096)
        assert b" 200 " in head.split(b"\r\n", 1)[0], head[:200]
        held.append(sock)
    time.sleep(8)  # the openings' work done
    daphne = psutil.Process(daphne_pid)
    before = daphne.cpu_times()
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:  # keep reading so nothing piles up in daphne
        for sock in held:
            sock.setblocking(False)
            try:
                while sock.recv(65536):
                    pass
            except BlockingIOError:
                pass
        time.sleep(1)
    after = daphne.cpu_times()
    elapsed = time.perf_counter() - start
    for sock in held:
        sock.close()
    used = (after.user - before.user) + (after.system - before.system)
    return 100.0 * used / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--variant", default="kropki-20")
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    # room for the bench: every stream of one account, opened within a minute
    extra = {
        "WS_SITE_SOCKETS_PER_USER": str(args.streams + 10),
        "API_STREAMS_PER_MINUTE": str(args.streams + 100),
        "MOVE_SECONDS": "600",
    }
    with live.own_site("bench-api", **extra) as site:
        site.start_worker()
        daphne, url = site.start_daphne()
        result = site.manage("shell", "-c", SETUP % {"variant": args.variant})
        people = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("JSON:"))[5:])
        ws = ws_moves(url, people, args.variant, args.moves)
        api = api_moves(url, people, args.variant, args.moves)
        people["api_match"] = people["api_match_2"]
        kept = api_moves(url, people, args.variant, args.moves, keep_alive=True)
        cpu = idle_streams(url, people["robot1"]["token"], args.streams, args.idle_seconds, daphne.popen.pid)
    ws_p50, api_p50 = statistics.median(ws) * 1000, statistics.median(api) * 1000
    report = {
        "variant": args.variant,
        "moves": min(len(ws), len(api)),
        "ws_p50_ms": round(ws_p50, 2),
        "ws_p99_ms": round(percentile(ws, 0.99) * 1000, 2),
        "api_p50_ms": round(api_p50, 2),
        "api_p99_ms": round(percentile(api, 0.99) * 1000, 2),
        "p50_ratio": round(api_p50 / ws_p50, 2),
        "api_keepalive_p50_ms": round(statistics.median(kept) * 1000, 2),
        "api_keepalive_p99_ms": round(percentile(kept, 0.99) * 1000, 2),
        "keepalive_p50_ratio": round(statistics.median(kept) * 1000 / ws_p50, 2),
        "streams": args.streams,
        "idle_seconds": args.idle_seconds,
        "idle_daphne_cpu_percent": round(cpu, 2),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
