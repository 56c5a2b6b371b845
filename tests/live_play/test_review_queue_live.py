"""Issue 37, item 2, on the real stack: the computer's review queue cannot be flooded.

A live site (daphne, Redis, the ``analysis`` queue's own worker, one process as
scripts/supervisord.conf runs it; NEW_ACCOUNT_MINUTES=60). Three fresh accounts ask the
review of their matches through the record page's form, then an honest account (two days
old) asks for its own. The fresh accounts are refused (``account_too_new``: nothing is
queued), so the honest review starts at once: it waits at most about its own run time
(the worker's queue is also fair: games/review/selectors.fair_order, tests/games/test_analysis.py).
The figure (wait and run time) is printed and recorded in docs/reliability.md.
"""

from __future__ import annotations

import time

import pytest

from tests import live

pytestmark = pytest.mark.slow
PLIES = 30  # a Kropki game of 30 random moves: a review of a few seconds


@pytest.fixture(scope="module")
def review_site():
    with live.own_site("reviewq", BEHIND_PROXY="1", NEW_ACCOUNT_MINUTES="60") as site:
        _proc, url = site.start_daphne()
        site.start_worker(queues="analysis", name="analysis-worker", concurrency=1)
        yield site, url


def test_an_honest_review_waits_at_most_its_own_run_time_behind_a_flood_of_fresh_accounts(review_site):
    site, url = review_site
    people = site.call("review_flood_setup", plies=PLIES)
    for number, name in enumerate(("nowy1", "nowy2", "nowy3")):
        who = people[name]
        page = live.ask_review(url, who["match"], who["cookie_name"], who["cookie"], f"10.37.0.{number + 1}")
        assert "Your account is new: the computer" in page
    honest = people["uczciwa"]
    asked = time.time()
    live.ask_review(url, honest["match"], honest["cookie_name"], honest["cookie"], "10.37.0.9")
    deadline = time.monotonic() + 120
    timing = site.call("review_timing", match_id=honest["match"])
    while timing["status"] != "done" and time.monotonic() < deadline:
        time.sleep(0.2)
        timing = site.call("review_timing", match_id=honest["match"])
    assert timing["status"] == "done", timing
    wait = timing["started"] - timing["requested"]
    run = timing["finished"] - timing["started"]
    print(f"honest review: waited {wait:.2f} s, ran {run:.2f} s, asked to done {timing['finished'] - asked:.2f} s")
    for name in ("nowy1", "nowy2", "nowy3"):  # nothing of theirs was queued or run
        assert site.call("analyses_count", match_id=people[name]["match"])["analyses"] == 0
    assert wait <= max(run, 1.0) + 1.0, timing
