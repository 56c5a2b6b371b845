"""docs/reliability.md rows 6 and 7 on a rated match: kill -9 the only Celery worker
(so beat's one-second sweeps pile up in Redis with nobody to run them), then
make every way of finishing happen again. tests/live_play/test_clock_live.py
shows the timing part on an unrated match; this adds "nothing rated twice":

- the sweep_turns loop ends the match within deadline + 10 s (no worker alive);
- a new worker starts; a clock task (``sweep_expired_turns``) is sent again and
  the new worker runs it, beat's sweeps run, the loser resigns and claims, the
  timeout and the sweep run by hand: none of it changes the result;
- exactly one RatingChange per player, and each player's Rating counts one game.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from tests import live

from .conftest import (
    Player,
    assert_clients_match_db,
    assert_moves_consistent,
    assert_nothing_overdue,
    deadline_ts,
    play,
)

pytestmark = pytest.mark.slow


async def test_worker_kill_9_then_nothing_rated_twice(fault_site):
    fs = fault_site
    url = await asyncio.to_thread(fs.start_daphne)
    worker = await asyncio.to_thread(fs.site.start_worker)
    await asyncio.to_thread(fs.site.start_beat)
    await asyncio.to_thread(fs.start_sweeper)
    data = await asyncio.to_thread(fs.create_match, "cztery-w-rzedzie", True)
    a = await Player(url, data["match"], data["alice"], "alice").start()
    b = await Player(url, data["match"], data["bob"], "bob").start()
    for mover, watcher in ((a, b), (b, a), (a, b), (b, a)):
        await play(mover, watcher, 3)  # two moves each: the result counts and is rated; alice to move, she will not
    deadline = deadline_ts(a.snapshot)
    await asyncio.sleep(0.3)
    fs.kill(worker)  # kill -9 the worker and its pool: from now on only the sweep_turns loop can end it

    for p in (a, b):
        await p.wait(lambda q: q.snapshot["status"] != "active", deadline + 12 - time.time(), "the end")
    db = await asyncio.to_thread(fs.db_state, data["match"])
    assert db["status"] == "finished" and db["end_reason"] == "timeout" and db["winner"] == 2
    assert deadline_ts({"deadline": db["finished_at"]}) <= deadline + 10
    assert len(db["rating_changes"]) == 2 and sorted(s for _u, s in db["rating_changes"]) == [1, 2]
    deltas = [f["rating_deltas"] for f in a.frames if f.get("type") == "finished"]
    assert deltas and deltas[0] and set(deltas[0]) == {"1", "2"}

    # every path to the end, again: a new worker (a sweep sent again, beat's sweeps), the players, the sweep
    worker2 = await asyncio.to_thread(fs.site.start_worker, "default,clock,bots", "worker-2")
    ended = await asyncio.to_thread(fs.call, "match_ended_again", match_id=data["match"], ply=db["ply"])
    again, sent = ended["again"], ended["sent"]
    assert again == [False, False, 0]
    await a.send({"type": "resign"})
    await b.send({"type": "claim_timeout"})
    await a.wait(lambda q: any(e["code"] == "match_not_active" for e in q.errors), 10, "resign refused")
    await b.wait(lambda q: any(e["code"] == "turn_not_expired" for e in q.errors), 10, "claim refused")
    # the new worker ran the sweep sent again, which found nothing to end, and beat's sweeps
    await asyncio.to_thread(live.wait_for_log, worker2, f"sweep_expired_turns[{sent}] succeeded", 10)
    await asyncio.sleep(3)
    log = worker2.log.read_text()
    assert re.search(re.escape(f"sweep_expired_turns[{sent}] succeeded in ") + r"[0-9.e-]+s: 0\b", log)
    assert set(re.findall(r"sweep_expired_turns\[([0-9a-f-]+)\] received", log)) - {sent}, "beat's sweeps did not run"
    assert "Traceback" not in log

    after = await asyncio.to_thread(fs.db_state, data["match"])
    assert after["rating_changes"] == db["rating_changes"]
    assert after["games"] == {str(data["alice"]["id"]): 1, str(data["bob"]["id"]): 1}
    assert (after["status"], after["winner"], after["finished_at"]) == (db["status"], db["winner"], db["finished_at"])
    assert_moves_consistent(after, a, b)
    assert_clients_match_db(after, a, b)
    assert_nothing_overdue(after)
    for p in (a, b):
        await p.close()
