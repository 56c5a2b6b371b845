"""Issue 39 on the real stack: the analysis board and an import obey the live-position guard.

Alice (pink) and Bob play a rated Cztery w rzędzie match over their match sockets. A visitor
without an account, from another address, copies its moves: the analysis board's evaluation of
the position standing in the rated match is refused, and so is the review of the same moves
imported (``position_in_rated_match``: the visitor, made a guest as they ask, gets the words and
nothing is queued). Once Alice has moved on, the same evaluation and the same review give their
values (the review runs on the ``analysis`` queue's own worker and shows on the record page); the
new position is refused in its turn, until the match has ended, and then it too has its values.

Real daphne, Redis and a Celery worker (``-Q default,analysis,board``), ``BEHIND_PROXY=1`` (each
visitor's address through ``X-Forwarded-For``); the rated clock is long so that it cannot end the
match meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.parse
import urllib.request

import pytest

from bench.abuse import Browser
from tests import live
from tests.helpers import C4
from tests.live_play.test_fairplay_guard_live import Socket

pytestmark = pytest.mark.slow

BOARD = "/analiza/cztery-w-rzedzie/"
COLUMNS = [0, 1, 2, 3, 4, 5, 6, 0, 1, 2]  # ten plies: past the exempt opening (8), no four
REFUSED = "stands in a rated game being played right now"


@pytest.fixture(scope="module")
def board_site():
    with live.own_site("guardboard", BEHIND_PROXY="1", MOVE_SECONDS="600") as site:
        _proc, url = site.start_daphne()
        site.start_worker(queues="default,analysis,board", name="worker", concurrency=1)
        yield site, url


class Visitor(Browser):
    """A visitor's browser without an account (the address through X-Forwarded-For)."""

    def get(self, path: str) -> tuple[int, str]:
        request = urllib.request.Request(self.base_url + path, headers={"Accept-Language": "en"})
        status, _headers, body = self._open(request)
        return status, body

    def post(self, path: str, fields: dict[str, str]) -> str:
        """POST a form (its CSRF token from the cookie) and follow the redirect: that page's text."""
        self.prime()
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.cookie("csrftoken") or ""}).encode()
        request = urllib.request.Request(self.base_url + path, data=body, method="POST")
        request.add_header("Accept-Language", "en")
        status, headers, text = self._open(request)
        assert status in (302, 400), (status, text[:500])
        return self.get(headers["Location"])[1] if status == 302 else text

    def evaluation(self, columns: list[int]) -> tuple[int, bool]:
        """The analysis board's "Ask the computer" at the position after ``columns``: (status, values
        shown), asked again, as the page does, while the analysis worker makes them."""
        deadline = time.monotonic() + 60
        while True:
            status, page = self.get(f"{BOARD}?ruchy={','.join(map(str, columns))}&ocena=1")
            if 'data-testid="board-thinking"' not in page:
                return status, 'data-testid="board-expected"' in page
            assert time.monotonic() < deadline, "no evaluation from the analysis worker within 60 s"
            time.sleep(0.3)

    def import_moves(self, columns: list[int]) -> int:
        """/import/ the moves as this site's JSON: the new record's match id."""
        page = self.post("/import/", {"text": json.dumps({"game": "connect4", "moves": [c + 1 for c in columns]})})
        found = re.search(r'data-match="(\d+)"', page)
        assert found, page[:2000]
        return int(found.group(1))


def review_done(site: live.LiveSite, match_id: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while site.call("review_timing", match_id=match_id)["status"] != "done":
        assert time.monotonic() < deadline, site.call("review_timing", match_id=match_id)
        time.sleep(0.3)


def test_no_values_for_a_live_rated_position_on_the_board_or_by_import_until_it_has_moved_on(board_site):
    site, url = board_site
    people = site.call("players_with_match", variant=C4, rated=True, names=["alice", "bob"])
    rated_id, cookie_name = people["match"], people["alice"]["cookie_name"]
    visitor = Visitor(url, "10.39.9.9")

    async def play(plies: list[tuple[int, int]]) -> None:
        async with (
            Socket(url, rated_id, people["alice"]["cookie"], "10.39.9.1", cookie_name) as alice,
            Socket(url, rated_id, people["bob"]["cookie"], "10.39.9.2", cookie_name) as bob,
        ):
            for ply, column in plies:
                mover = alice if ply % 2 == 0 else bob
                await mover.move(ply, column)
                assert await mover.moved(ply + 1, timeout=10) is not None

    asyncio.run(play(list(enumerate(COLUMNS))))

    # the position standing in the rated match: no evaluation, no review of its copy
    assert visitor.evaluation(COLUMNS) == (400, False)
    assert visitor.evaluation(COLUMNS[:-1]) == (200, True)  # a position it has left has its values
    copy = visitor.import_moves(COLUMNS)
    page = visitor.post(f"/partia/{copy}/analiza/", {})
    assert REFUSED in page and 'data-testid="analysis-summary"' not in page
    assert site.call("analyses_count", match_id=copy)["analyses"] == 0

    # Alice moves on: the copied position has its values; the new one stands in its turn
    asyncio.run(play([(len(COLUMNS), 3)]))
    now = [*COLUMNS, 3]
    assert visitor.evaluation(COLUMNS) == (200, True)
    assert visitor.evaluation(now) == (400, False)
    page = visitor.post(f"/partia/{copy}/analiza/", {})
    assert REFUSED not in page
    review_done(site, copy)
    _status, record = visitor.get(f"/partia/{copy}/zapis/")
    assert 'data-testid="analysis-summary"' in record and 'data-testid="analysis-curve"' in record

    # the same for the new position, until the rated match has ended
    latest = visitor.import_moves(now)
    assert REFUSED in visitor.post(f"/partia/{latest}/analiza/", {})
    site.call("guard_rated_resign", match_id=rated_id, user_id=people["bob"]["id"])
    assert visitor.evaluation(now) == (200, True)
    assert REFUSED not in visitor.post(f"/partia/{latest}/analiza/", {})
    review_done(site, latest)
    _status, record = visitor.get(f"/partia/{latest}/zapis/")
    assert 'data-testid="analysis-summary"' in record
