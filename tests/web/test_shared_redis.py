"""The process's shared Redis clients (kropki_site/lib/limits.shared_client): made once under a
lock. Made lazily without one, two threads' first requests made two clients; the one replaced
was collected while its thread still used it, and redis-py closed its connection under it
("Bad file descriptor"): a 500 among 8 threads' first board requests (CI, PostgreSQL)."""

from __future__ import annotations

import threading

from games.live import hub
from kropki_site.lib import limits


def test_many_threads_first_counting_at_once_all_get_an_answer_from_one_client():
    errors: list[BaseException] = []
    made: list[int] = []
    for attempt in range(100):
        limits._clients.clear()
        start = threading.Barrier(8)

        def count(attempt: int = attempt, start: threading.Barrier = start) -> None:
            try:
                start.wait()
                made.append(id(limits.client()))
                pipe = limits.client().pipeline()
                pipe.incr(limits.key("shared-test", attempt))
                pipe.execute()
            except BaseException as exc:  # any failure is the finding
                errors.append(exc)

        threads = [threading.Thread(target=count) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert len(set(made[-8:])) == 1  # one client for all eight
    assert errors == []


def test_each_set_of_options_has_its_own_client_and_keeps_it():
    assert limits.client() is limits.client()
    assert hub._client() is hub._client()
    assert hub._client() is not limits.client()  # the hub's has its own health checks
