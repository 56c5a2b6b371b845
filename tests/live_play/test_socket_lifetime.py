"""Sockets that live long, read slowly or send too much, on a live site (real daphne
processes and Redis; docs/reliability.md rows 13, 15 and the daphne half of 21).

The site runs with ``CHANNEL_GROUP_EXPIRY=3`` and ``CHANNEL_CAPACITY=2`` (settings read
them from the environment; production keeps 86400 and 200).

- row 13: channels_redis forgets a group member ``group_expiry`` seconds after it joined,
  silently. A raw channel added to the match group is indeed forgotten after 5 s, while
  the match sockets (``MatchConsumer`` re-joins every quarter of ``group_expiry``) still
  get the next move.
- row 15: a daphne process that stops reading (SIGSTOP) while six moves are played
  overflows its capacity of 2: the sender logs "channels over capacity", nothing crashes,
  the game goes on; when it reads again its client gets the two queued frames, then the
  next move shows the gap, and the ``sync`` it sends brings the authoritative state.
- row 21: daphne itself closes a socket (1009) whose frame or message is over 64 KiB
  (``--websocket-max-frame-size`` / ``--websocket-max-message-size``, as scripts/run sets
  them); 3 KiB reaches the consumer, which answers ``frame_too_large``; the server serves on.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import time

import pytest
import websockets
from channels_redis.core import RedisChannelLayer

from tests import live

from .conftest import create_match
from .test_clock_live import moved, open_ws, play, until

pytestmark = pytest.mark.slow

GROUP_EXPIRY = 3
CAPACITY = 2


@pytest.fixture(scope="module")
def site(clock_workdir, clock_redis):
    site = live.make_live_site(
        clock_workdir, clock_redis, CHANNEL_GROUP_EXPIRY=str(GROUP_EXPIRY), CHANNEL_CAPACITY=str(CAPACITY)
    )
    yield site
    site.stop_all()
    live.drop_live_database(site.env["DATABASE_URL"])


@pytest.fixture(scope="module")
def daphne(site) -> tuple[live.Proc, str]:
    return site.start_daphne(name="daphne-1")


@pytest.fixture(scope="module")
def url(daphne) -> str:
    return daphne[1]


async def test_row_13_sockets_outlive_group_expiry(site, url):
    data = await asyncio.to_thread(create_match, site, "cztery-w-rzedzie")
    ws_a = await open_ws(url, data["match"], data["alice"])
    ws_b = await open_ws(url, data["match"], data["bob"])
    ws_s = await open_ws(url, data["match"], None)
    layer = RedisChannelLayer(hosts=[{"address": site.env["REDIS_URL"], "socket_timeout": None}],
                              group_expiry=GROUP_EXPIRY)
    raw = await layer.new_channel()
    await layer.group_add(f"match-{data['match']}", raw)  # a member that never re-joins
    try:
        await asyncio.sleep(GROUP_EXPIRY + 2)  # every join of the connect is now expired
        frame = await play(ws_a, ws_b, 0, 3)
        assert frame["ply"] == 1 and frame["match"]["to_move"] == 2
        assert (await until(ws_s, moved(1), 5))["by"] == 1
        with pytest.raises(asyncio.TimeoutError):  # the trap is real at this setting
            await asyncio.wait_for(layer.receive(raw), 1.5)
    finally:
        for ws in (ws_a, ws_b, ws_s):
            await ws.close()
        await layer.group_discard(f"match-{data['match']}", raw)
        await layer.close_pools()


def signal_group(proc: live.Proc, sig: int) -> None:
    os.killpg(proc.popen.pid, sig)


async def test_row_15_a_process_over_capacity_drops_logs_and_its_client_resyncs(site, daphne, url):
    slow_daphne, slow_url = await asyncio.to_thread(site.start_daphne, None, "daphne-slow")
    data = await asyncio.to_thread(create_match, site, "kropki-i-kwadraty")
    ws_a = await open_ws(url, data["match"], data["alice"])
    ws_b = await open_ws(url, data["match"], data["bob"])
    ws_slow = await open_ws(slow_url, data["match"], None)  # a spectator on the process that stalls
    signal_group(slow_daphne, signal.SIGSTOP)
    try:
        # Kropki i kwadraty: segments 0, 1, 2, ... along the bottom never close a box,
        # so the turn alternates
        for ply in range(6):
            who, other = (ws_a, ws_b) if ply % 2 == 0 else (ws_b, ws_a)
            await play(who, other, ply, ply)
    finally:
        signal_group(slow_daphne, signal.SIGCONT)
    await asyncio.to_thread(live.wait_for_log, daphne[0], f"over capacity in group match-{data['match']}", 10)
    # the stalled process had room for two frames (plus the one its pending read had
    # already taken off Redis): they come, in order, then nothing
    seen = []
    while True:
        try:
            frame = json.loads(await asyncio.wait_for(ws_slow.recv(), 1.5 if seen else 10))
        except asyncio.TimeoutError:
            break
        seen.append(frame["ply"])
    assert seen == list(range(1, len(seen) + 1)) and CAPACITY <= len(seen) <= CAPACITY + 1, seen
    last_ply = seen[-1]
    # the next move shows the gap; the client (as match.js does) asks for the state
    frame = await play(ws_a, ws_b, 6, 6)
    gap = json.loads(await asyncio.wait_for(ws_slow.recv(), 10))
    assert gap["type"] == "moved" and gap["ply"] == 7 > last_ply + 1
    await ws_slow.send(json.dumps({"type": "sync"}))
    state = await until(ws_slow, lambda f: f["type"] == "state", 10)
    assert state["ply"] == 7 and state["snapshot"]["version"] == frame["match"]["version"]
    assert len(state["snapshot"]["moves"]) == 7 and state["snapshot"]["view"]["drawn"][:7] == [1, 2, 1, 2, 1, 2, 1]
    # nothing crashed: both processes serve, the game goes on
    for proc in (daphne[0], slow_daphne):
        assert proc.popen.poll() is None
    for base in (url, slow_url):
        assert (await asyncio.to_thread(live.site_healthz, base))["http_status"] == 200
    await play(ws_b, ws_a, 7, 7)
    assert (await until(ws_slow, moved(8), 10))["match"]["to_move"] == 1
    for ws in (ws_a, ws_b, ws_slow):
        await ws.close()


def test_scripts_run_sets_daphnes_limits_as_the_live_tests_do():
    line = live.run_programs()["web"]
    assert "/daphne " in line
    for flag in ("--websocket-max-message-size", "--websocket-max-frame-size"):
        assert re.search(re.escape(flag) + r"\s+(\d+)", line).group(1) == str(live.WS_MAX_BYTES)
    assert live.WS_MAX_BYTES == 65536


async def closed_by_daphne(ws, timeout: float = 10) -> int | None:
    """Read until the socket closes; the close code daphne sent."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
    except websockets.ConnectionClosed:
        pass
    return ws.close_code


async def test_row_21_daphne_refuses_frames_and_messages_over_64_kib(site, url):
    data = await asyncio.to_thread(create_match, site, "cztery-w-rzedzie")
    big_move = json.dumps({"type": "move", "ply": 0, "action": 3, "pad": "x" * 1024 * 1024})
    # one 1 MiB frame, one 100 KiB frame (under daphne's default 1 MiB: our limit acts),
    # and an 80 KiB message in 4 KiB fragments (the message limit, not the frame limit)
    for payload in (big_move, "x" * 100 * 1024, ["y" * 4096] * 20):
        ws = await open_ws(url, data["match"], data["alice"])
        await ws.send(payload)
        # daphne (autobahn) fails the connection: a 1009 "message too big" close, or just
        # the TCP drop (1006) when the client is still sending; our consumer never closes
        # for size (it answers frame_too_large, below)
        assert await closed_by_daphne(ws) in (1006, 1009)
    # 3 KiB and 60 KiB reach the consumer: frame_too_large, the socket stays usable
    ws = await open_ws(url, data["match"], data["alice"])
    for size in (3 * 1024, 60 * 1024):
        await ws.send(json.dumps({"type": "move", "ply": 0, "action": 3, "pad": "x" * size}))
        error = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert error["type"] == "error" and error["code"] == "frame_too_large"
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "state"
    # the server is unharmed and nothing was played
    ws_b = await open_ws(url, data["match"], data["bob"])
    frame = await play(ws, ws_b, 0, 3)
    assert frame["action"] == 3 and frame["ply"] == 1 and frame["notation"] == "4"
    assert (await asyncio.to_thread(live.site_healthz, url))["http_status"] == 200
    for sock in (ws, ws_b):
        await sock.close()
