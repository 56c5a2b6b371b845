"""docs/reliability.md row 6 with a real broker: the clock's task delivered again,
late, and by two workers at once.

The clock is beat's ``sweep_expired_turns`` (every second, two clock workers
here), the only clock task there is. On top of beat's the test publishes two
more sweeps, each held until the turn's deadline + grace. A visibility timeout
shorter than that wait makes Redis hand both messages out again and again
("again, and again in a loop", Celery's Redis notes). Every copy runs; exactly
one run of all of them ends the match, the others find nothing to do, and the
rated result is applied once.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from games import tasknames

from .conftest import (
    Player,
    assert_clients_match_db,
    assert_nothing_overdue,
    deadline_ts,
    play,
)

pytestmark = pytest.mark.slow

MOVE_SECONDS = 8  # the held messages wait ~6 s after being sent: several visibility timeouts


def runs(logs: list[str], task: str) -> tuple[list[str], list[str]]:
    """Ids of every delivery of ``task`` (one per "received"), and the results its runs returned."""
    text = "\n".join(logs)
    name = re.escape(task)
    received = re.findall(name + r"\[([0-9a-f-]+)\] received", text)
    results = re.findall(name + r"\[[0-9a-f-]+\] succeeded in [0-9.e-]+s: (\w+)", text)
    return received, results


async def test_a_redelivered_clock_task_ends_the_match_once_and_rates_it_once(fault_site_factory):
    fs = fault_site_factory(MOVE_SECONDS=str(MOVE_SECONDS), CELERY_VISIBILITY_TIMEOUT="2")
    url = await asyncio.to_thread(fs.start_daphne)
    workers = [await asyncio.to_thread(fs.site.start_worker, "clock", f"clock-{i}") for i in (1, 2)]
    await asyncio.to_thread(fs.site.start_beat)
    data = await asyncio.to_thread(fs.create_match, "cztery-w-rzedzie", True)
    a = await Player(url, data["match"], data["alice"], "alice").start()
    b = await Player(url, data["match"], data["bob"], "bob").start()
    for column in (3, 4):  # two moves each: the game counts and is rated (docs/fairplay.md)
        await play(a, b, column)
        await play(b, a, column)
    # alice to move, and she will not
    deadline = deadline_ts(a.snapshot)
    held = (await asyncio.to_thread(fs.call, "clock_sweeps_held", match_id=data["match"]))["held"]
    assert time.time() < deadline - 2, "the held messages were sent too late to be redelivered"

    for p in (a, b):
        await p.wait(lambda q: q.snapshot["status"] != "active", deadline + 12 - time.time(), "the end")
    await asyncio.sleep(4)  # let the other copies of the held messages run too
    logs = [w.log.read_text() for w in workers]
    sweeps, sweep_results = runs(logs, tasknames.SWEEP_EXPIRED_TURNS)
    for held_id in held:
        assert sweeps.count(held_id) > 1, f"a held sweep was not redelivered: {sweeps.count(held_id)} deliveries"
    assert len(set(sweeps) - set(held)) > 5, "beat's one-second sweeps did not run"
    # one run of them all ended the match: a sweep that returned 1
    ended = sum(int(r) for r in sweep_results)
    assert ended == 1, sweep_results
    assert all("Traceback" not in log for log in logs)

    db = await asyncio.to_thread(fs.db_state, data["match"])
    assert (db["status"], db["end_reason"], db["winner"]) == ("finished", "timeout", 2)
    # within deadline + grace (1 s) + one sweep interval (1 s), plus 2 s for a loaded machine
    assert deadline_ts({"deadline": db["finished_at"]}) <= deadline + 4
    assert sorted(side for _user, side in db["rating_changes"]) == [1, 2]
    assert db["games"] == {str(data["alice"]["id"]): 1, str(data["bob"]["id"]): 1}
    assert_clients_match_db(db, a, b)
    assert_nothing_overdue(db)
    for p in (a, b):
        await p.close()
