"""Issue 12 (sockets) through a real daphne with production flags (DEBUG=0): a `sync` flood's
amplification and daphne's CPU, unknown paths and matches closed with 4404, no /ws/ping/, the
per-user socket cap."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
import websockets
from websockets.typing import Origin

from tests import live

from .conftest import create_match

pytestmark = pytest.mark.slow

SOCKETS = 20
SYNCS_PER_SECOND = 8
SECONDS = 6


@pytest.fixture(scope="module")
def abuse_site():
    with live.own_site("abuse") as site:
        _proc, url = site.start_daphne()
        yield site, url


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def close_code(url: str, path: str, headers=()) -> int:
    host = urlparse(url).netloc
    async with websockets.connect(
        f"ws://{host}{path}", origin=Origin(f"http://{host}"), additional_headers=list(headers), open_timeout=10
    ) as ws:
        while True:
            try:
                await asyncio.wait_for(ws.recv(), 10)
            except websockets.ConnectionClosed as exc:
                assert exc.rcvd is not None, exc
                return exc.rcvd.code


@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/match/-1/", "/ws/match/987654/", "/ws/ping/"])
async def test_unknown_paths_and_matches_close_with_4404(abuse_site, path):
    # before: /ws/nothing/ and /ws/match/-1/ -> HTTP 500 (a traceback in daphne's log), an unknown
    # match -> HTTP 403, /ws/ping/ -> an open echo socket in production
    site, url = abuse_site
    assert await close_code(url, path) == 4404
    log = site.procs[0].log.read_text(errors="replace")
    assert "Traceback" not in log and "No route found" not in log


async def test_a_sync_flood_is_not_amplified(abuse_site):
    """20 anonymous sockets send `sync` at 8/s for 6 s (issue 12: x1,600 and 6.9 CPU-s in 12 s)."""
    site, url = abuse_site
    data = await asyncio.to_thread(create_match, site, "kropki-10")
    host = urlparse(url).netloc
    sockets = [
        await websockets.connect(
            f"ws://{host}/ws/match/{data['match']}/", origin=Origin(f"http://{host}"), open_timeout=10, max_size=None
        )
        for _ in range(SOCKETS)
    ]
    for ws in sockets:
        await asyncio.wait_for(ws.recv(), 10)  # the connect's state: not part of the flood
    sent = received = states = 0
    frame = json.dumps({"type": "sync"})

    async def reader(ws):
        nonlocal received, states
        try:
            async for text in ws:
                received += len(text.encode())
                states += '"type": "state"' in text[:20]
        except websockets.ConnectionClosed:
            pass

    async def flooder(ws):
        nonlocal sent
        for _ in range(SYNCS_PER_SECOND * SECONDS):
            await ws.send(frame)
            sent += len(frame)
            await asyncio.sleep(1 / SYNCS_PER_SECOND)

    daphne = site.procs[0].popen.pid
    cpu_before, started = cpu_seconds(daphne), time.monotonic()
    readers = [asyncio.create_task(reader(ws)) for ws in sockets]
    await asyncio.gather(*(flooder(ws) for ws in sockets))
    await asyncio.sleep(2.5)  # the coalesced states still on their way
    cpu, elapsed = cpu_seconds(daphne) - cpu_before, time.monotonic() - started
    for ws in sockets:
        await ws.close()
    for task in readers:
        task.cancel()
    ratio = received / sent
    print(
        f"\nsync flood through daphne: {SOCKETS} sockets, {sent} B sent, {received} B received (x{ratio:.1f}), "
        f"{states} states, daphne {cpu:.2f} CPU-s in {elapsed:.1f} s"
    )
    assert states <= SOCKETS * (3 + 1 + 0.5 * elapsed), states
    assert ratio <= 20, ratio  # before: ~x90 for this small match (a whole state per sync)


async def test_one_user_cannot_open_more_than_the_cap(abuse_site):
    site, url = abuse_site
    data = await asyncio.to_thread(create_match, site, "cztery-w-rzedzie")
    host = urlparse(url).netloc
    cookie = [("Cookie", f"{data['alice']['cookie_name']}={data['alice']['cookie']}")]
    path = f"/ws/match/{data['match']}/"
    opened = []
    for _ in range(10):  # WS_SOCKETS_PER_USER
        ws = await websockets.connect(
            f"ws://{host}{path}",
            origin=Origin(f"http://{host}"),
            additional_headers=cookie,
            open_timeout=10,
            max_size=None,
        )
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "state"
        opened.append(ws)
    assert await close_code(url, path, cookie) == 4429  # before: 150 sockets for one user accepted
    await opened.pop().close()
    await asyncio.sleep(0.5)
    ws = await websockets.connect(
        f"ws://{host}{path}", origin=Origin(f"http://{host}"), additional_headers=cookie, open_timeout=10, max_size=None
    )
    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "state"
    opened.append(ws)
    for ws in opened:
        await ws.close()
