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

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from accounts.guests import guest_create
from games import play
User = get_user_model()
out = {}
def session(user):
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value
alice = User.objects.create_user(username="alice", email="alice@example.com", password="kropka-Trudna-2024")
bob = User.objects.create_user(username="bob", email="bob@example.com", password="kropka-Trudna-2024")
guest = guest_create()
out["cookie_name"] = settings.SESSION_COOKIE_NAME
out["alice"], out["bob"], out["guest"] = session(alice), session(bob), session(guest)
out["match"] = play.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=bob.pk).pk
ended = play.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=bob.pk)
play.match_resign(match_id=ended.pk, user_id=bob.pk)
out["ended"] = ended.pk
out["computer"] = play.computer_match_start(variant="cztery-w-rzedzie", user_id=guest.pk, level="latwy",
                                            colour="pink").pk
print("JSON:" + json.dumps(out))
"""

COUNT = "from games.models import ChatMessage; print('COUNT:', ChatMessage.objects.count())"


@pytest.fixture(scope="module")
def chat_site():
    # CHAT_CLOSE_MINUTES=0: the resigned match's chat is closed at once.
    with live.own_site("chat-abuse", CHAT_CLOSE_MINUTES="0") as site:
        result = site.manage("shell", "-c", SETUP)
        data = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("JSON:"))[5:])
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
    result = site.manage("shell", "-c", COUNT)
    return int(next(line for line in result.stdout.splitlines() if line.startswith("COUNT:")).split()[1])


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
