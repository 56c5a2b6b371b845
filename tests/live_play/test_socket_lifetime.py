"""Sockets that live long, read slowly or send too much, on a live site (real daphne
processes and Redis; docs/reliability.md rows 13, 15 and the daphne half of 21).

- row 13: a socket idle longer than channels_redis' ``group_expiry`` used to hear nothing
  more; frames now come over Redis pub/sub (games/live/hub.py), whose subscriptions last as
  long as the connection: after an idle spell both players and a spectator get the move.
- row 15: a daphne process that stops reading (SIGSTOP) while six moves are played loses
  nothing: Redis keeps the messages for its subscriber (within ``client-output-buffer-limit
  pubsub``; over it Redis drops the connection, the hub reconnects and resyncs, test_hub.py).
  When it reads again its client gets all six frames in order; nothing crashed.
- row 21: daphne itself closes a socket (1009) whose frame or message is over 64 KiB
  (``--websocket-max-frame-size`` / ``--websocket-max-message-size``, as scripts/run sets
  them); 3 KiB reaches the consumer, which answers ``frame_too_large``; the server serves on.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import signal
import socket
import sys
import time
from urllib.parse import urlparse

import pytest
import redis as redis_lib
import websockets
from django.test import override_settings

from games.live import hub
from tests import live

from .conftest import create_match
from .test_clock_live import moved, open_ws, play, until

pytestmark = pytest.mark.slow

IDLE_SECONDS = 5
MAX_UNSENT = 256 * 1024


@pytest.fixture(scope="module")
def site(clock_workdir, clock_redis):
    site = live.make_live_site(clock_workdir, clock_redis, WS_MAX_UNSENT_BYTES=str(MAX_UNSENT))
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
    try:
        await asyncio.sleep(IDLE_SECONDS)  # longer than the old group_expiry of this test
        frame = await play(ws_a, ws_b, 0, 3)
        assert frame["ply"] == 1 and frame["match"]["to_move"] == 2
        assert (await until(ws_s, moved(1), 5))["by"] == 1
    finally:
        for ws in (ws_a, ws_b, ws_s):
            await ws.close()


def signal_group(proc: live.Proc, sig: int) -> None:
    os.killpg(proc.popen.pid, sig)


async def test_row_15_a_process_that_stops_reading_loses_nothing(site, daphne, url):
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
    seen: list[int] = []
    while len(seen) < 6:
        frame = json.loads(await asyncio.wait_for(ws_slow.recv(), 10))
        if frame["type"] == "moved":
            seen.append(frame["ply"])
    assert seen == [1, 2, 3, 4, 5, 6]
    # nothing crashed: both processes serve, the game goes on
    for proc in (daphne[0], slow_daphne):
        assert proc.popen.poll() is None
    for base in (url, slow_url):
        assert (await asyncio.to_thread(live.site_healthz, base))["http_status"] == 200
    await play(ws_a, ws_b, 6, 6)
    assert (await until(ws_slow, moved(7), 10))["match"]["to_move"] == 2
    for ws in (ws_a, ws_b, ws_slow):
        await ws.close()


def raw_socket_that_never_reads(base_url: str, path: str, receive_buffer: int | None = 4096) -> socket.socket:
    """A WebSocket opened by hand (with a tiny receive buffer unless ``receive_buffer`` is None:
    the kernel's own), whose owner will read nothing."""
    host, port = urlparse(base_url).hostname, urlparse(base_url).port
    sock = socket.socket()
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(10)
    sock.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def read_until_closed(sock: socket.socket, limit: int, seconds: float = 20.0) -> tuple[int, bool]:
    """Read everything now; (bytes read, whether the server closed it) - stops at ``limit`` bytes
    or after ``seconds`` (a connection kept open by keep-alive lines is then not closed)."""
    total = 0
    deadline = time.monotonic() + seconds
    try:
        while total < limit:
            left = deadline - time.monotonic()
            if left <= 0:
                return total, False
            sock.settimeout(min(10.0, left))
            chunk = sock.recv(65536)
            if not chunk:
                return total, True
            total += len(chunk)
    except (TimeoutError, ConnectionError):
        return total, isinstance(sys.exc_info()[1], ConnectionError)
    return total, False


async def test_row_21_a_socket_that_never_reads_is_closed(site, url):
    """issue 24, item 21: nothing closed a socket that never reads; daphne buffered its frames
    without bound. 8 MB of frames for a spectator that reads nothing: it is closed once
    WS_MAX_UNSENT_BYTES are waiting for it, and it never gets the rest."""
    data = await asyncio.to_thread(create_match, site, "cztery-w-rzedzie")
    sock = await asyncio.to_thread(raw_socket_that_never_reads, url, f"/ws/match/{data['match']}/")
    reader = await open_ws(url, data["match"], None)  # a spectator who reads: unharmed
    with override_settings(REDIS_URL=site.env["REDIS_URL"], LIVE_PREFIX=""):
        topic = hub.prefix() + f"match:{data['match']}"
    publisher = redis_lib.Redis.from_url(site.env["REDIS_URL"])
    frame = json.dumps({"type": "noise", "pad": "x" * 60000})
    for _ in range(8 * 1024 * 1024 // len(frame)):
        publisher.publish(topic, frame)
        await reader.recv()
    await asyncio.sleep(2)  # the close handshake times out (the client reads nothing): dropped
    total, closed = await asyncio.to_thread(read_until_closed, sock, 8 * 1024 * 1024)
    assert closed and total < 4 * 1024 * 1024, (total, closed)
    await reader.send(json.dumps({"type": "sync"}))
    assert (await until(reader, lambda f: f["type"] == "state", 10))["ply"] == 0
    await reader.close()


def kernel_queues(server_port: int, client_port: int) -> tuple[int, int] | None:
    """(the server's send queue, the client's receive queue) in bytes of one loopback TCP
    connection, from /proc/net/tcp (Send-Q and Recv-Q of ``ss``); None once the server's end is gone."""
    send_q, recv_q, found = 0, 0, False
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError), open(path) as table:
            for line in table.readlines()[1:]:
                fields = line.split()
                local, remote = (int(address.rsplit(":", 1)[1], 16) for address in fields[1:3])
                tx_queue, rx_queue = (int(value, 16) for value in fields[4].split(":"))
                if (local, remote) == (server_port, client_port) and fields[3] == "01":  # ESTABLISHED
                    send_q, found = tx_queue, True
                elif (local, remote) == (client_port, server_port):
                    recv_q = rx_queue
    return (send_q, recv_q) if found else None


async def test_issue_37_a_socket_that_never_reads_is_dropped_with_bounded_kernel_queues(site, url):
    """issue 37, item 10 (e): a socket that never reads kept ~7 MB in the kernel's queues after
    30 s (the server's send buffer autotuned up to tcp_wmem's 4 MiB, the close waiting behind
    it). With the kernel's own receive buffer on the client, 8 MB of frames pushed through the
    hub: the server's send queue stays under 256 kB (daphne's sockets have a 64 KiB send buffer,
    kropki_site/serve.py), the socket is dropped once WS_MAX_UNSENT_BYTES wait in daphne, and a
    reading spectator of the same match is unharmed."""
    data = await asyncio.to_thread(create_match, site, "cztery-w-rzedzie")
    path = f"/ws/match/{data['match']}/"
    sock = await asyncio.to_thread(raw_socket_that_never_reads, url, path, None)
    server_port, client_port = urlparse(url).port or 80, sock.getsockname()[1]
    reader = await open_ws(url, data["match"], None)
    with override_settings(REDIS_URL=site.env["REDIS_URL"], LIVE_PREFIX=""):
        topic = hub.prefix() + f"match:{data['match']}"
    publisher = redis_lib.Redis.from_url(site.env["REDIS_URL"])
    frame = json.dumps({"type": "noise", "pad": "x" * 60000})
    most_sent_q, most_both, dropped_after = 0, 0, None
    started = time.monotonic()
    for count in range(1, 8 * 1024 * 1024 // len(frame) + 1):
        publisher.publish(topic, frame)
        await reader.recv()
        queues = kernel_queues(server_port, client_port)
        if queues is None:
            dropped_after = dropped_after or count * len(frame)
            continue
        most_sent_q, most_both = max(most_sent_q, queues[0]), max(most_both, sum(queues))
    total, closed = await asyncio.to_thread(read_until_closed, sock, 64 * 1024 * 1024)
    figure = (
        f"pushed {count * len(frame)} B in {time.monotonic() - started:.1f} s; server send queue at most "
        f"{most_sent_q} B, both kernel queues at most {most_both} B; dropped after {dropped_after} B pushed; "
        f"{total} B had left daphne for the client"
    )
    print(figure)
    assert closed and dropped_after is not None, figure
    assert most_sent_q < 256 * 1024 and total < 1024 * 1024, figure
    await reader.send(json.dumps({"type": "sync"}))
    assert (await until(reader, lambda f: f["type"] == "state", 10))["ply"] == 0
    await reader.close()


def test_scripts_run_sets_daphnes_limits_as_the_live_tests_do():
    line = live.run_programs()["web"]
    assert "-m kropki_site.serve " in line  # daphne, its access log redacted (issue 37, item 11 b)
    for flag in ("--websocket-max-message-size", "--websocket-max-frame-size"):
        found = re.search(re.escape(flag) + r"\s+(\d+)", line)
        assert found is not None
        assert found.group(1) == str(live.WS_MAX_BYTES)
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
        # daphne (autobahn) fails the connection: a 1009 "message too big" close, or just
        # the TCP drop (1006) when the client is still sending, which the client may
        # hear as a reset in the middle of its send; our consumer never closes for size
        # (it answers frame_too_large, below)
        with contextlib.suppress(ConnectionResetError, websockets.ConnectionClosed):
            await ws.send(payload)
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
