"""RELIABILITY.md row 6 with a real broker: a visibility timeout shorter than
the alarm's countdown makes Redis hand the same ``expire_turn`` message out
again and again ("again, and again in a loop", Celery's Redis notes). Every
copy runs at its ETA; exactly one of them ends the match, the others find
nothing to do, and the rated result is applied once.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from .conftest import Player, assert_clients_match_db, assert_nothing_overdue, deadline_ts, play

pytestmark = pytest.mark.slow

MOVE_SECONDS = 8  # the alarm waits ~9 s: several visibility timeouts


def runs_of_alarm(logs: list[str]) -> tuple[set[str], list[str], int]:
    """Task ids of the expire_turn alarms, the results their runs returned, and how many deliveries."""
    text = "\n".join(logs)
    received = re.findall(r"Task games\.tasks\.expire_turn\[([0-9a-f-]+)\] received", text)
    results = re.findall(r"Task games\.tasks\.expire_turn\[[0-9a-f-]+\] succeeded in [0-9.e-]+s: (True|False)", text)
    return set(received), results, len(received)


async def test_a_redelivered_alarm_ends_the_match_once_and_rates_it_once(fault_site_factory):
    fs = fault_site_factory(MOVE_SECONDS=str(MOVE_SECONDS), CELERY_VISIBILITY_TIMEOUT="2")
    url = await asyncio.to_thread(fs.start_daphne)
    workers = [await asyncio.to_thread(fs.site.start_worker, "clock", f"clock-{i}") for i in (1, 2)]
    data = await asyncio.to_thread(fs.create_match, "cztery-w-rzedzie", True)
    a = await Player(url, data["match"], data["alice"], "alice").start()
    b = await Player(url, data["match"], data["bob"], "bob").start()
    await play(a, b, 3)
    await play(b, a, 3)  # rated from here on; alice to move, and she will not
    deadline = deadline_ts(a.snapshot)

    for p in (a, b):
        await p.wait(lambda q: q.snapshot["status"] != "active", deadline + 12 - time.time(), "the end")
    await asyncio.sleep(4)  # let the other copies of the alarm run at their ETA too
    logs = [w.log.read_text() for w in workers]
    ids, results, deliveries = runs_of_alarm(logs)
    # the alarms of ply 0..2 are one message each; the last one was handed out again
    assert deliveries > len(ids), f"no redelivery seen: {deliveries} deliveries of {len(ids)} alarms"
    assert results.count("True") == 1, results
    assert all("Traceback" not in log for log in logs)

    db = await asyncio.to_thread(fs.db_state, data["match"])
    assert (db["status"], db["end_reason"], db["winner"]) == ("finished", "timeout", 2)
    assert sorted(side for _user, side in db["rating_changes"]) == [1, 2]
    assert db["games"] == {str(data["alice"]["id"]): 1, str(data["bob"]["id"]): 1}
    assert_clients_match_db(db, a, b)
    assert_nothing_overdue(db)
    for p in (a, b):
        await p.close()
