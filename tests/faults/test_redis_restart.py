"""docs/reliability.md row 8: Redis restarted without persistence mid-match.

The site runs as scripts/run runs it (daphne, Celery worker and beat, the
sweep_turns loop) on a Redis of its own, which is killed (kill -9) and started
again empty: beat's queued sweeps, the workers' connections and every channel
group are gone. Shown:

- match A, whose mover stops playing just before the crash, still ends on time
  (deadline + 10 s) and both players' pages show the result;
- the sockets stay open: daphne's hub (games/live/hub.py) reconnects to Redis,
  subscribes again and sends each match socket a fresh state (within 3 s of
  Redis' return); they draw the database's state;
- match B is played on after Redis is back: moves work and are broadcast;
- Celery recovers: with the sweep_turns loop stopped, a new match C's timeout
  is applied by the worker (beat's sweep) within deadline + 10 s.
  (The worker itself may exit on the lost connection, a kombu bug; it runs
  under a supervisor that restarts it, which the test plays.)
"""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.helpers import C4

from .conftest import (
    Player,
    assert_clients_match_db,
    assert_moves_consistent,
    assert_nothing_overdue,
    deadline_ts,
    play,
)

pytestmark = pytest.mark.slow


async def test_redis_restart_mid_match(fault_site_factory):
    # 8 s a move: two matches are set up one after the other on a loaded machine
    fs = fault_site_factory(MOVE_SECONDS="8")
    url = await asyncio.to_thread(fs.start_daphne)
    worker = await asyncio.to_thread(fs.site.start_worker)
    await asyncio.to_thread(fs.site.start_beat)
    sweeper = await asyncio.to_thread(fs.start_sweeper)
    match_a = await asyncio.to_thread(fs.create_match, C4)
    match_b = await asyncio.to_thread(fs.create_match, "kropki-10")
    a1 = await Player(url, match_a["match"], match_a["alice"], "A-alice").start()
    a2 = await Player(url, match_a["match"], match_a["bob"], "A-bob").start()
    b1 = await Player(url, match_b["match"], match_b["alice"], "B-alice").start()
    b2 = await Player(url, match_b["match"], match_b["bob"], "B-bob").start()

    await play(b1, b2, 0)
    await play(b2, b1, 50)
    await play(a1, a2, 0)
    await play(a2, a1, 1)  # A: alice to move; she will not
    a_deadline = deadline_ts(a1.snapshot)

    def states(p: Player) -> int:
        return sum(1 for f in p.frames if f.get("type") == "state")

    before = {p.name: states(p) for p in (a1, a2, b1, b2)}
    fs.redis.kill()  # beat's messages, the workers' connections, all subscriptions: gone
    await asyncio.sleep(1.0)
    await asyncio.to_thread(fs.redis.start)

    # Every page is repaired by a state the server sends (or by a reconnect, which sends one too)
    for p in (a1, a2, b1, b2):
        await p.wait(lambda q: q.ws is not None and states(q) > before[q.name], 3, "a state after Redis is back")
    await play(b1, b2, 1, timeout=15)
    await play(b2, b1, 51)
    db_b = await asyncio.to_thread(fs.db_state, match_b["match"])
    assert db_b["status"] == "active" and db_b["ply"] == 4
    assert_clients_match_db(db_b, b1, b2)
    assert_moves_consistent(db_b, b1, b2)
    for p in (b1, b2):
        await p.close()

    # A ended on time, and both of A's pages show it
    for p in (a1, a2):
        await p.wait(lambda q: q.snapshot["status"] != "active", a_deadline + 12 - time.time(), "A's end")
    db_a = await asyncio.to_thread(fs.db_state, match_a["match"])
    assert db_a["status"] == "finished" and db_a["end_reason"] == "timeout" and db_a["winner"] == 2
    ended = deadline_ts({"deadline": db_a["finished_at"]})
    assert ended <= a_deadline + 10, f"A ended {ended - a_deadline:.1f} s after its deadline"
    assert_clients_match_db(db_a, a1, a2)
    assert_moves_consistent(db_a, a1, a2)
    for p in (a1, a2):
        await p.close()

    # Celery is back: with the broker-less sweeper stopped, a timeout is Celery's job.
    # kombu 5.7 may exit the worker on the lost connection ("Unrecoverable error:
    # AttributeError ... 'hostname'" while restoring its unacked messages); production
    # runs it under systemd with Restart=always (docs/deploy.md), so restart it as systemd would.
    if worker.popen.poll() is not None:
        fs.forget(worker)
        print(f"worker exited ({worker.popen.returncode}) on the Redis restart; restarted as a supervisor would")
        await asyncio.to_thread(fs.site.start_worker, "default,clock,bots", "worker-2")
    await asyncio.to_thread(fs.stop, sweeper)
    match_c = await asyncio.to_thread(fs.create_match, C4)
    c1 = await Player(url, match_c["match"], match_c["alice"], "C-alice").start()
    c2 = await Player(url, match_c["match"], match_c["bob"], "C-bob").start()
    await play(c1, c2, 3)
    await play(c2, c1, 3)  # alice to move; she will not
    c_deadline = deadline_ts(c1.snapshot)
    for p in (c1, c2):
        await p.wait(lambda q: q.snapshot["status"] != "active", c_deadline + 12 - time.time(), "C's end by Celery")
    db_c = await asyncio.to_thread(fs.db_state, match_c["match"])
    assert db_c["status"] == "finished" and db_c["end_reason"] == "timeout"
    assert deadline_ts({"deadline": db_c["finished_at"]}) <= c_deadline + 10
    assert_clients_match_db(db_c, c1, c2)
    assert_nothing_overdue(db_c)
    for p in (c1, c2):
        await p.close()
