"""Issue 36, attack (a), on the real stack: the live-position guard holds the computer.

Alice (pink) and Bob play a rated Cztery w rzędzie match. A guest from another address
starts a match against trudny with the colours swapped (the computer plays Alice's pink)
and relays the moves both ways: the computer's into the rated match for Alice, Bob's answers
into the computer match. Through the exempt opening the computer answers as usual; once the
rated match stands on a position past it, the computer's move there does not come (its
socket hears ``computer_waits``) until Alice moves on her own, then it comes.

Real daphne, Redis and a Celery worker (``-Q default,bots``), ``BEHIND_PROXY=1`` (each
visitor's address through ``X-Forwarded-For``); the rated clock is long so it cannot end the
match meanwhile. Bob's answers are the engine's own (trudny, short budget) so that the
computer does not win inside the opening.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.parse
import urllib.request
from typing import Any

import pytest

from bench.abuse import Browser
from games.bots import choose_action
from games.catalogue import variant as variant_of
from tests import live
from tests.helpers import C4

pytestmark = pytest.mark.slow

OPENING = 8  # Cztery w rzędzie's exempt opening (games/connect4/spec.py)
HELD_FOR = 4.0  # seconds the test makes sure no computer move comes


@pytest.fixture(scope="module")
def guard_site():
    with live.own_site("guard", BEHIND_PROXY="1", MOVE_SECONDS="600") as site:
        _proc, url = site.start_daphne()
        site.start_worker(queues="default,bots", name="worker", concurrency=1)
        yield site, url


class Socket:
    """One visitor's socket of one match: sends moves, reads frames."""

    def __init__(self, url: str, match_id: int, cookie: str, address: str, cookie_name: str = "sessionid"):
        self.host = urllib.parse.urlparse(url).netloc
        self.match_id, self.cookie, self.address, self.cookie_name = match_id, cookie, address, cookie_name
        self.seen: list[dict[str, Any]] = []

    async def __aenter__(self) -> Socket:
        import websockets
        from websockets.typing import Origin

        self.ws = await websockets.connect(
            f"ws://{self.host}/ws/match/{self.match_id}/",
            origin=Origin(f"http://{self.host}"),
            additional_headers=[("Cookie", f"{self.cookie_name}={self.cookie}"), ("X-Forwarded-For", self.address)],
            open_timeout=30,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def move(self, ply: int, action: int) -> None:
        await self.ws.send(json.dumps({"type": "move", "ply": ply, "action": action}))

    async def moved(self, ply: int, timeout: float) -> dict[str, Any] | None:
        """The ``moved`` frame that makes position ``ply``; None if it has not come in ``timeout``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                frame = json.loads(await asyncio.wait_for(self.ws.recv(), left))
            except TimeoutError:
                return None
            self.seen.append(frame)
            if frame.get("type") == "error":
                raise AssertionError(f"match {self.match_id}: {frame}")
            if frame.get("type") == "finished":
                raise AssertionError(f"match {self.match_id} ended: {frame}")
            if frame.get("type") == "moved" and frame["ply"] == ply:
                return frame
        return None


def test_the_computer_does_not_answer_a_position_that_stands_in_a_rated_match(guard_site):
    site, url = guard_site
    people = site.call("players_with_match", variant=C4, rated=True)
    rated_id, cookie_name = people["match"], people["alice"]["cookie_name"]
    guest = Browser(url, "10.36.0.9")
    status, computer_id = guest.start_computer_match(variant=C4, level="trudny", colour="blue")
    assert status == 302 and computer_id is not None
    state = variant_of(C4).game().new_initial_state()

    async def attack() -> None:
        async with (
            Socket(url, rated_id, people["alice"]["cookie"], "10.36.0.1", cookie_name) as alice,
            Socket(url, rated_id, people["bob"]["cookie"], "10.36.0.2", cookie_name) as bob,
            Socket(url, computer_id, guest.cookie("sessionid") or "", guest.address) as computer,
        ):
            while len(state.history) <= OPENING:  # the computer (pink) to move, in the opening
                ply = len(state.history)
                frame = await computer.moved(ply + 1, timeout=30)
                assert frame is not None, f"no computer move at ply {ply} in the opening"
                await alice.move(ply, frame["action"])  # Alice plays the computer's move
                assert await alice.moved(ply + 1, timeout=10) is not None
                state.apply_action(frame["action"])
                answer = choose_action(state, "trudny", seed=1, budget_s=0.3)  # Bob answers
                await bob.move(ply + 1, answer)
                assert await bob.moved(ply + 2, timeout=10) is not None
                await computer.move(ply + 1, answer)  # the guest relays the answer
                assert await computer.moved(ply + 2, timeout=10) is not None
                state.apply_action(answer)
            ply = len(state.history)  # 10: past the opening, the rated match stands on it
            assert not state.is_terminal()
            assert await computer.moved(ply + 1, timeout=HELD_FOR) is None, "the computer answered a live position"
            assert any(f.get("type") == "computer_waits" and f.get("ply") == ply for f in computer.seen)
            # Alice moves on her own: the position no longer stands, the held move comes
            await alice.move(ply, choose_action(state, "latwy", seed=2))
            assert await alice.moved(ply + 1, timeout=10) is not None
            assert await computer.moved(ply + 1, timeout=20) is not None, "the held move never came"

    asyncio.run(attack())


def test_a_copy_of_a_live_rated_game_gets_no_review_until_the_rated_game_moves_on(guard_site):
    """Attack (b): two alts replay a live rated game in a casual match, resign it and ask for the
    computer's review while the rated game still stands there: refused, nothing stored; once the
    rated game has ended, the same request is taken."""
    site, url = guard_site
    setup = site.call("guard_copy_setup", plies=OPENING + 4)
    xena = setup["xena"]
    page = live.ask_review(url, setup["copy"], xena["cookie_name"], xena["cookie"], "10.36.0.20")
    assert "stands in a rated game being played right now" in page
    assert site.call("analyses_count", match_id=setup["copy"])["analyses"] == 0
    site.call("guard_rated_resign", match_id=setup["rated"], user_id=setup["rafal"])
    page = live.ask_review(url, setup["copy"], xena["cookie_name"], xena["cookie"], "10.36.0.20")
    assert "stands in a rated game being played right now" not in page
    assert site.call("analyses_count", match_id=setup["copy"])["analyses"] == 1
