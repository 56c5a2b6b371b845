"""docs/reliability.md row 9: daphne restarts mid-match (SIGTERM, and kill -9).

Two players and a spectator are connected, moves are made, one more move is
sent and daphne dies at once (that move may or may not have committed: the
database decides), daphne starts again on the same port. The clients reconnect
on their own (as match.js: backoff + sync) and draw exactly the server's state;
the next move works; every move acknowledged before is stored, and nothing
else is. The clock is long here (30 s): the restart must not cost a move on time.
"""

from __future__ import annotations

import asyncio
import signal

import pytest

from tests import live

from .conftest import Player, assert_clients_match_db, assert_moves_consistent, play

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "kill-9"])
async def test_daphne_restart_mid_match(fault_site_factory, sig):
    fs = fault_site_factory(MOVE_SECONDS="30")
    url = await asyncio.to_thread(fs.start_daphne)
    await asyncio.to_thread(fs.start_sweeper)
    data = await asyncio.to_thread(fs.create_match, "kropki-10")
    a = await Player(url, data["match"], data["alice"], "alice").start()
    b = await Player(url, data["match"], data["bob"], "bob").start()
    s = await Player(url, data["match"], None, "spectator").start()
    await play(a, b, 0)
    await play(b, a, 50)
    await play(a, b, 1)
    await play(b, a, 51)

    # alice sends a move and daphne goes down right away
    await a.move(2)
    old = fs.daphne
    await asyncio.to_thread(live.stop_group, old.popen, 10, sig)
    fs.forget(old)
    for p in (a, b, s):
        await p.wait(lambda q: q.ws is None or q.closes, 10, "the close")
    await asyncio.to_thread(fs.start_daphne, "daphne-2")

    db = await asyncio.to_thread(fs.db_state, data["match"])
    assert db["ply"] in (4, 5), db["moves"]  # the in-flight move either committed or not
    for p in (a, b, s):
        await p.wait(lambda q: q.connects >= 2 and q.last_ply == db["ply"], 20, f"resync to ply {db['ply']}")
    assert_clients_match_db(db, a, b, s)
    assert_moves_consistent(db, a, b)

    # play on: whoever is to move moves, everybody sees it
    if db["ply"] == 4:
        await play(a, b, 2)
    await play(b, a, 52)
    await s.wait(lambda q: q.last_ply == 6, 10, "ply 6")
    db = await asyncio.to_thread(fs.db_state, data["match"])
    assert db["ply"] == 6 and db["status"] == "active"
    assert_clients_match_db(db, a, b, s)
    assert_moves_consistent(db, a, b)
    # nothing stored that nobody played: every move is one a player sent at that position
    sent = {(ply + 1, action) for p in (a, b) for ply, action in p.sent}
    assert {(m[0], m[2]) for m in db["moves"]} <= sent
    for p in (a, b, s):
        await p.close()
