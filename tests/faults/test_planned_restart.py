"""Planned restart (docs/deploy.md, "Planned restart"; docs/reliability.md row 9's policy):
drain -> stop everything with SIGTERM -> (deploy) -> migrate -> extend_deadlines
-> start. The mover has about 3 s left when the site goes down, the site stays
down longer than that (plus the grace), and after the restart the mover can
still move: no timeout, and the opponent's socket sees the move."""

from __future__ import annotations

import asyncio
import time

import pytest

from .conftest import (
    GRACE_SECONDS,
    Player,
    assert_clients_match_db,
    assert_moves_consistent,
    deadline_ts,
    play,
)

pytestmark = pytest.mark.slow

MOVE = 12  # seconds per move here: the drain command's start-up and the stop eat into it (8 was too few on a loaded machine)


async def test_planned_restart_loses_nobody_on_time(fault_site_factory):
    fs = fault_site_factory(MOVE_SECONDS=str(MOVE))
    url = await asyncio.to_thread(fs.start_daphne)
    await asyncio.to_thread(fs.site.start_worker)
    await asyncio.to_thread(fs.site.start_beat)
    await asyncio.to_thread(fs.start_sweeper)
    data = await asyncio.to_thread(fs.create_match, "kropki-10")
    a = await Player(url, data["match"], data["alice"], "alice").start()
    b = await Player(url, data["match"], data["bob"], "bob").start()
    await play(a, b, 0)
    await play(b, a, 50)
    await play(a, b, 1)
    await play(b, a, 51)  # alice (pink) to move, MOVE s from now
    old_deadline = deadline_ts(a.snapshot)

    # 1. drain, 2. stop everything (SIGTERM: warm shutdown) while alice still has time
    await asyncio.to_thread(fs.site.manage, "drain")
    stopping = time.monotonic()
    await asyncio.gather(*(asyncio.to_thread(fs.stop, proc) for proc in list(fs.site.procs)))
    stop_took = time.monotonic() - stopping
    left_at_stop = old_deadline - time.time()
    assert left_at_stop > 0, (
        f"the site went down after alice's deadline (stopping took {stop_took:.1f} s): the test proves nothing"
    )

    # 3. the site stays down past alice's deadline + grace (the deploy)
    await asyncio.sleep(max(0.0, old_deadline + GRACE_SECONDS + 2 - time.time()))
    # 4. migrate, 5. extend the deadlines by the downtime, 6. start
    await asyncio.to_thread(fs.site.manage, "migrate", "--noinput")
    out = (await asyncio.to_thread(fs.site.manage, "extend_deadlines")).stdout
    assert "extended 1 match(es)" in out, out
    await asyncio.to_thread(fs.start_daphne)
    await asyncio.to_thread(fs.site.start_worker)
    await asyncio.to_thread(fs.site.start_beat)
    await asyncio.to_thread(fs.start_sweeper)
    assert time.time() > old_deadline + GRACE_SECONDS, "restarted before the old deadline passed"

    # the clients reconnect by themselves and see the new deadline
    for p in (a, b):
        await p.wait(
            lambda q: q.connects >= 2 and q.snapshot["deadline"] and deadline_ts(q.snapshot) > old_deadline,
            20,
            "reconnect with the extended deadline",
        )
    assert a.snapshot is not None
    assert a.snapshot["status"] == "active" and a.snapshot["to_move"] == 1
    # alice moves after her old deadline + grace: accepted, and bob sees it
    await play(a, b, 2)
    assert a.snapshot is not None and b.snapshot is not None
    assert b.snapshot["moves"][-1] == a.snapshot["moves"][-1] and b.snapshot["to_move"] == 2
    assert not [e for e in a.errors if e["code"] == "turn_expired"]

    db = await asyncio.to_thread(fs.db_state, data["match"])
    assert db["status"] == "active" and db["ply"] == 5
    assert not [m for m in db["moves"] if m[3]], "a move by timeout was stored"
    assert_moves_consistent(db, a, b)
    assert_clients_match_db(db, a, b)
    # the drain mark is gone: the ranked queue pairs again
    assert not (fs.workdir / "var" / "drain.json").exists()
    await a.close()
    await b.close()
