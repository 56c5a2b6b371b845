"""The transport on a live site (issue 23; docs/protocol.md "Transport"): real daphnes with
scripts/run's flags, a real Redis, a real Celery worker, the site's own handshake budget.

- 20 anonymous loops open a match socket, read its state and close, for 15 s, while two
  players play 100 moves: every ``moved`` frame reaches both players (with channels_redis'
  core layer 1-2 were lost a run), a chat burst's accepted lines reach the opponent, a
  direct challenge's notice reaches its target's site socket, and a logout closes the
  logged-out user's socket (4401);
- the players sit on different daphnes: moves, chat, challenge notices and presence
  (the online list) cross processes;
- Redis restarted mid-match: both players have the position within 3 s of its return.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from urllib.parse import urlparse

import pytest
import websockets
from websockets.typing import Origin

from kropki_site.lib import devredis
from tests import live

from .conftest import create_match
from .test_clock_live import open_ws, until

pytestmark = pytest.mark.slow

LOOPS = 20
FLOOD_SECONDS = 15
MOVES = 100
THINK = 0.12  # each player at most ~4 moves a second (a socket's bucket allows 8, bursts of 20)
FRAME_WAIT = 3.0  # a lost frame would only be noticed at the page's heartbeat, 10-12 s later


@pytest.fixture(scope="module")
def redis_sock(clock_workdir):
    return clock_workdir / "redis.sock"


@pytest.fixture(scope="module")
def site(clock_workdir, clock_redis):
    # The handshake budget as in production (tests/live.py lifts it for the other live tests).
    site = live.make_live_site(
        clock_workdir,
        clock_redis,
        WS_CONNECTS_PER_IP_RATE="10",
        WS_CONNECTS_PER_IP_BURST="60",
        WS_CONNECTS_PER_ANONYMOUS_IP_RATE="2",
        WS_CONNECTS_PER_ANONYMOUS_IP_BURST="40",
        WS_CONNECTS_PER_USER_RATE="1",
        WS_CONNECTS_PER_USER_BURST="30",
    )
    yield site
    site.stop_all()
    live.drop_live_database(site.env["DATABASE_URL"])


@pytest.fixture(scope="module")
def urls(site) -> list[str]:
    site.start_worker()
    return [site.start_daphne(name="daphne-1")[1], site.start_daphne(name="daphne-2")[1]]


async def open_site(base_url: str, player: dict):
    host = urlparse(base_url).netloc
    ws = await websockets.connect(
        f"ws://{host}/ws/site/",
        origin=Origin(f"http://{host}"),
        open_timeout=10,
        additional_headers=[("Cookie", f"{player['cookie_name']}={player['cookie']}")],
    )
    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "hello"
    return ws


async def flood(url: str, match_id: int, stop: asyncio.Event, counts: dict) -> None:
    """One anonymous loop: open the match's socket, read a frame, close; again at once."""
    while not stop.is_set():
        try:
            ws = await open_ws_raw(url, match_id)
            frame = await asyncio.wait_for(ws.recv(), 10)
            counts["state" if '"state"' in frame else "other"] += 1
            await ws.close()
        except websockets.ConnectionClosed as exc:
            counts[f"closed {exc.rcvd.code if exc.rcvd else None}"] += 1
        except (OSError, TimeoutError, websockets.InvalidHandshake):
            counts["failed"] += 1


async def open_ws_raw(base_url: str, match_id: int):
    host = urlparse(base_url).netloc
    return await websockets.connect(
        f"ws://{host}/ws/match/{match_id}/", origin=Origin(f"http://{host}"), open_timeout=10
    )


async def test_no_frame_is_lost_while_sockets_churn(site, urls):
    data = await asyncio.to_thread(create_match, site, "kropki-20")
    ws_a = await open_ws(urls[0], data["match"], data["alice"])
    ws_b = await open_ws(urls[1], data["match"], data["bob"])  # the players on different daphnes
    ws_c = await open_ws(urls[0], data["match"], data["charlie"])  # charlie watches, then logs out
    site_a = await open_site(urls[1], data["alice"])
    site_c = await open_site(urls[0], data["charlie"])
    charlie_closed: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()

    async def drain_charlie() -> None:  # a page reads every frame (else its keep-alive stalls)
        try:
            while True:
                await ws_c.recv()
        except websockets.ConnectionClosed as exc:
            charlie_closed.set_result(exc.rcvd.code if exc.rcvd else None)

    drain = asyncio.create_task(drain_charlie())
    stop = asyncio.Event()
    counts: Counter[str] = Counter()
    loops = [asyncio.create_task(flood(urls[i % 2], data["match"], stop, counts)) for i in range(LOOPS)]
    started = time.monotonic()
    lost = []
    chat_seen: list[str] = []

    others: list[dict] = []  # what else the players heard (errors would show here)

    def moved_or_chat(n: int):
        def predicate(frame: dict) -> bool:
            if frame["type"] == "chat":
                chat_seen.append(frame["text"])
            elif frame["type"] not in ("moved", "finished"):
                others.append(frame)
            return frame["type"] in ("moved", "finished") and frame["ply"] == n

        return predicate

    try:
        for ply in range(MOVES):
            # Vertical stripes on the 20x20 board (columns alternate between the players): no capture.
            mover, other = (ws_a, ws_b) if ply % 2 == 0 else (ws_b, ws_a)
            await asyncio.sleep(THINK)
            await mover.send(json.dumps({"type": "move", "ply": ply, "action": ply}))
            for ws in (other, mover):
                try:
                    await until(ws, moved_or_chat(ply + 1), FRAME_WAIT)
                except TimeoutError:
                    lost.append((ply + 1, "bob" if ws is ws_b else "alice"))
            if lost:
                break  # the rest would only wait FRAME_WAIT each
            if ply == 30:  # a chat burst: the 5 lines the limit accepts reach the opponent
                for i in range(6):
                    await ws_a.send(json.dumps({"type": "chat", "room": "players", "text": f"linia {i}"}))
            if ply == 50:  # a direct challenge: its notice reaches alice's site socket on the other daphne
                await site_c.send(json.dumps({"type": "challenge", "to": "alice", "variant": "cztery-w-rzedzie"}))
                notice = await until(site_a, lambda f: f["type"] == "challenge_received", FRAME_WAIT)
                assert notice["from"] == "charlie"
            if ply == 70:  # charlie logs out: his match socket is closed with 4401
                await asyncio.to_thread(site.call, "user_log_out", user_id=data["charlie"]["id"])
                assert await asyncio.wait_for(charlie_closed, FRAME_WAIT) == 4401
        assert sorted(chat_seen) == sorted(
            [f"linia {i}" for i in range(5)] * 2
        )  # alice's own and bob's copies  # came between the moves, every accepted line
        left = FLOOD_SECONDS - (time.monotonic() - started)
        if left > 0:
            await asyncio.sleep(left)
    finally:
        stop.set()
        drain.cancel()
        await asyncio.gather(*loops, drain, return_exceptions=True)
    assert lost == [], f"moved frames not received within {FRAME_WAIT} s: {lost}; also heard {others[-5:]}"
    assert counts["state"] >= LOOPS, counts  # the flood really ran (and the budget let some through)
    assert counts["closed 4429"] > 0, counts  # ... and its excess was refused with 4429
    # Presence across daphnes: alice's lobby (daphne 2) hears bob come online on daphne 1.
    await site_a.send(json.dumps({"type": "watch_online"}))
    await until(site_a, lambda f: f["type"] == "online", FRAME_WAIT)
    site_b = await open_site(urls[0], data["bob"])
    listed = await until(
        site_a, lambda f: f["type"] == "online" and "bob" in [p["name"] for p in f["players"]], FRAME_WAIT + 1
    )
    assert {"alice", "bob"} <= {p["name"] for p in listed["players"]}
    for ws in (ws_a, ws_b, site_a, site_b, site_c):
        await ws.close()


@pytest.fixture
def restarted_redis(redis_sock):
    """Restarts the site's Redis on its socket when called; the new server is stopped after the test."""
    started = []

    def restart_during(pause: float, during=None) -> None:
        import redis as redis_lib

        with contextlib.suppress(redis_lib.ConnectionError):  # it closes the connection as it goes
            redis_lib.Redis(unix_socket_path=str(redis_sock)).shutdown(nosave=True)
        for _ in range(50):
            if not devredis.answers(redis_sock):
                break
            time.sleep(0.1)
        if during is not None:
            during()
        time.sleep(pause)
        started.append(devredis.start(redis_sock))

    yield restart_during
    for proc in started:  # (clock_redis stops the first server; this test's own go here)
        live.stop_group(proc)


async def test_after_a_redis_restart_both_players_have_the_position_within_3_s(site, urls, restarted_redis):
    """A move played while Redis is down: its publish fails (the move is kept: the database is the
    truth); once Redis is back, each daphne's hub reconnects and resyncs its sockets."""
    data = await asyncio.to_thread(create_match, site, "kropki-10")
    ws_a = await open_ws(urls[0], data["match"], data["alice"])
    ws_b = await open_ws(urls[1], data["match"], data["bob"])
    await ws_a.send(json.dumps({"type": "move", "ply": 0, "action": 44}))
    await until(ws_b, lambda f: f["type"] == "moved" and f["ply"] == 1, 5)
    loop = asyncio.get_running_loop()

    def bob_moves_while_redis_is_down() -> None:
        asyncio.run_coroutine_threadsafe(ws_b.send(json.dumps({"type": "move", "ply": 1, "action": 45})), loop)
        time.sleep(0.5)  # the move is committed; its frame has nowhere to go

    await asyncio.to_thread(restarted_redis, 1.0, bob_moves_while_redis_is_down)
    back = time.monotonic()
    for ws in (ws_a, ws_b):
        frame = await until(ws, lambda f: f.get("ply") == 2 and f["type"] in ("moved", "state"), 10)
        assert frame["ply"] == 2
    assert time.monotonic() - back <= 3.0
    for ws in (ws_a, ws_b):
        await ws.close()
