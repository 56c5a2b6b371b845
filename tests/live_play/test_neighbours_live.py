"""Issue 24, item 1, live: neighbours on one address cannot abort each other's games.

Real daphne, Redis and a Celery worker in production mode, ``BEHIND_PROXY=1``
so every visitor below comes from the same address (``X-Forwarded-For``): a
school or a cafe. Guest A starts a computer game and keeps its socket open;
30 more people on A's address (new guests, each a browser of its own) start a
game each: every one starts (the guest quota and the address's cap hold 30
people). Then one of them starts games until the address's cap: the one over
it is refused with a clear 429 page, and A's game is untouched: A's next move
is accepted and the computer answers. Before the fix the 7th new game aborted
A's (``match_not_active`` on A's move) and the 11th new guest got a 429.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.parse
import urllib.request

import pytest
import websockets
from websockets.typing import Origin

from bench.abuse import Browser
from tests import live

pytestmark = pytest.mark.slow

ADDRESS = "10.77.0.1"
GAME = {"variant": "cztery-w-rzedzie", "level": "latwy", "colour": "pink"}


@pytest.fixture(scope="module")
def school():
    # The guest quota at its default (tests/live.py raises it for the browser tests);
    # the address's cap below the default (60) to reach it in a few requests.
    with live.own_site(
        "school",
        BEHIND_PROXY="1",
        GUESTS_PER_IP="60",
        COMPUTER_MATCHES_PER_GUEST_IP="40",
        MATCH_STARTS_PER_ADDRESS_MINUTE="60",
    ) as site:
        _proc, url = site.start_daphne()
        site.start_worker(queues="default,bots", name="worker", concurrency=1)
        yield url


async def _frame(ws, predicate, timeout: float = 15.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic())))
        if predicate(frame):
            return frame


async def _move_and_answer(browser: Browser, match_id: int) -> list[dict]:
    host = urllib.parse.urlparse(browser.base_url).netloc
    async with websockets.connect(
        f"ws://{host}/ws/match/{match_id}/",
        origin=Origin(f"http://{host}"),
        additional_headers=[("Cookie", f"sessionid={browser.cookie('sessionid')}"), ("X-Forwarded-For", ADDRESS)],
        open_timeout=10,
    ) as ws:
        await _frame(ws, lambda f: f["type"] == "state")
        await ws.send(json.dumps({"type": "move", "ply": 0, "action": 3}))
        mine = await _frame(ws, lambda f: f["type"] in ("moved", "error"))
        if mine["type"] == "error":
            return [mine]
        return [mine, await _frame(ws, lambda f: f["type"] == "moved" and f["ply"] == 2)]


def test_neighbours_starting_games_on_one_address_never_abort_anothers_game(school):
    a = Browser(school, ADDRESS)
    status, a_match = a.start_computer_match(**GAME)
    assert status == 302 and a_match
    neighbours = [Browser(school, ADDRESS) for _ in range(30)]
    statuses = [b.start_computer_match(**GAME)[0] for b in neighbours]
    assert statuses == [302] * 30  # 30 people behind one address each play
    # one neighbour (and then others) start more, until the address's cap (40): refused, not aborting
    extra = [b.start_computer_match(**GAME)[0] for b in neighbours[:6] for _ in range(2)]
    assert extra.count(302) == 40 - 31 and extra[-1] == 429
    refused = neighbours[10]  # one game of its own: a new one would add to the address
    refused.prime()
    body = urllib.parse.urlencode({**GAME, "csrfmiddlewaretoken": refused.cookie("csrftoken") or ""}).encode()
    request = urllib.request.Request(school + "/graj/komputer/", data=body, method="POST")
    request.add_header("Referer", school + "/graj/komputer/")
    request.add_header("Accept-Language", "pl")
    code, _headers, page = refused._open(request)
    assert code == 429 and 'data-code="computer_address_busy"' in page and "Gra nie została rozpoczęta" in page
    frames = asyncio.run(_move_and_answer(a, a_match))
    assert [f["type"] for f in frames] == ["moved", "moved"], frames  # A plays on, the computer answers
