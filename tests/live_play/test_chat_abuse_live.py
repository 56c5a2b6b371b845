"""Issue 24 items 5, 6 and 17 through a real daphne with production flags (DEBUG=0): chat
frames on the match socket as an attacker sends them. A guest's line in its own computer game,
lines after the chat closed, zero-width-only lines, right-to-left overrides and stacked accents
are all refused with their code, the socket stays open, and nothing is stored."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import urlparse

import pytest
import websockets
from websockets.typing import Origin

from tests import live

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def chat_site():
    # CHAT_CLOSE_MINUTES=0: the resigned match's chat is closed at once.
    with live.own_site("chat-abuse", CHAT_CLOSE_MINUTES="0") as site:
        data = site.call("chat_abuse_setup")
        _proc, url = site.start_daphne()
        yield site, url, data


async def chat_codes(url: str, data: dict, who: str, match: int, texts: list[str]) -> list[str]:
    """Send each text as a players' chat line; the code of the chat error each one got."""
    host = urlparse(url).netloc
    headers = [("Cookie", f"{data['cookie_name']}={data[who]}")]
    codes = []
    async with websockets.connect(
        f"ws://{host}/ws/match/{match}/", origin=Origin(f"http://{host}"), additional_headers=headers, open_timeout=10
    ) as ws:
        for text in texts:
            await ws.send(json.dumps({"type": "chat", "room": "players", "text": text}))
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if frame.get("type") == "error" and frame.get("for") == "chat":
                    codes.append(frame["code"])
                    break
                assert frame.get("type") != "chat", frame  # nothing was published
            await asyncio.sleep(2.1)  # the socket's chat bucket refills (one line per 2 s)
        assert ws.state is websockets.protocol.State.OPEN
    return codes


def stored_lines(site) -> int:
    return site.call("chat_lines_count")["count"]


async def test_a_guest_writing_in_its_own_computer_game_is_refused_live(chat_site):
    site, url, data = chat_site
    assert await chat_codes(url, data, "guest", data["computer"], ["hej, czytajcie mnie"]) == ["chat_closed"]
    assert await asyncio.to_thread(stored_lines, site) == 0


async def test_invisible_reordering_and_stacked_lines_are_refused_live(chat_site):
    site, url, data = chat_site
    texts = ["\u200b\u200b\u200b", "a\u202eolleh", "Z" + "\u0301" * 20]
    assert await chat_codes(url, data, "alice", data["match"], texts) == ["chat_invisible", "chat_bidi", "chat_marks"]
    assert await asyncio.to_thread(stored_lines, site) == 0


async def test_lines_after_the_chat_closed_are_refused_live(chat_site):
    site, url, data = chat_site
    assert await chat_codes(url, data, "alice", data["ended"], ["jeszcze słowo"]) == ["chat_closed"]
    assert await asyncio.to_thread(stored_lines, site) == 0
