"""A correspondence game on the whole stack (issue 40; docs/protocol.md "Correspondence"): real
daphne, Redis, a Celery worker and beat, and a real SMTP server (aiosmtpd, in this process) that
the site's mail sweep sends to. A rated game of Cztery w rzędzie, one day a move, played over
the match sockets; its two simulated days pass by moving the game's own clock (its deadline and
moments, ``correspondence_advance``), never by sleeping: beat tells each player to move (a
mail), reminds the player who lets a fifth of the day run, and its sweep ends the game on time,
rated in the correspondence pool."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest
from aiosmtpd.controller import Controller

from tests import live
from tests.live_play.test_tournament_live import connect
from tests.smtp import Inbox, body

pytestmark = pytest.mark.slow

POOL = "cztery-w-rzedzie-koresp"


def wait_mail(inbox: Inbox, to: str, text: str, timeout: float = 30) -> str:
    """The first mail to ``to`` containing ``text``, waiting up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with inbox.lock:
            for message in inbox.messages:
                if message["X-Envelope-To"] == to and text in body(message):
                    return body(message)
        time.sleep(0.2)
    seen = [(m["X-Envelope-To"], body(m)[:80]) for m in inbox.messages]
    raise AssertionError(f"no mail to {to} with {text!r} within {timeout} s; received: {seen}")


async def move(url: str, player: dict, match_id: int, column: int) -> None:
    """One move over the match socket, as the page sends it; returns once the server says it moved."""
    ws = await connect(url, f"/ws/match/{match_id}/", player)
    try:
        snap = json.loads(await asyncio.wait_for(ws.recv(), 10))["snapshot"]
        await ws.send(json.dumps({"type": "move", "ply": snap["ply"], "action": column}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert frame.get("type") != "error", frame
            if frame.get("ply") == snap["ply"] + 1:
                return
    finally:
        await ws.close()


def test_a_correspondence_game_over_two_simulated_days_on_the_real_stack():
    inbox = Inbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    env = {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "NOTIFY_MAIL_SECONDS": "1",
        "CORRESPONDENCE_TURN_SECONDS": "1",
        "CORRESPONDENCE_REMIND_SECONDS": "1",
    }
    try:
        with live.own_site("corr", **env) as site:
            _proc, url = site.start_daphne()
            site.start_worker(queues="default,clock,notify")
            site.start_beat()
            game = site.call("correspondence_pair", days=1)
            match_id, pink, blue = game["match"], game["pink"], game["blue"]

            # beat tells pink it is their move, by mail (nobody is on the site)
            wait_mail(inbox, pink["email"], "Twój ruch: Cztery w rzędzie")
            asyncio.run(move(url, pink, match_id, 3))
            wait_mail(inbox, blue["email"], f"Twój ruch: Cztery w rzędzie, partia z {pink['name']}.")
            asyncio.run(move(url, blue, match_id, 4))
            asyncio.run(move(url, pink, match_id, 3))
            asyncio.run(move(url, blue, match_id, 4))

            # twenty hours pass: a fifth of the day is left, pink hears it
            site.call("correspondence_advance", match_id=match_id, hours=20)
            wait_mail(inbox, pink["email"], "Zostaje mało czasu na Twój ruch: Cztery w rzędzie.")
            # five more: the day is over, beat's sweep takes the game on time
            site.call("correspondence_advance", match_id=match_id, hours=5)
            deadline = time.monotonic() + 30
            state = site.call("correspondence_state", match_id=match_id)
            while state["status"] == "active" and time.monotonic() < deadline:
                time.sleep(0.5)
                state = site.call("correspondence_state", match_id=match_id)
            assert (state["status"], state["winner"], state["reason"]) == ("finished", 2, "timeout")
            assert state["pool"] == POOL and state["changes"] == [POOL, POOL]
            kinds = {(who, kind) for who, kind, _mail in state["notifications"]}
            assert {(pink["id"], "corr_turn"), (blue["id"], "corr_turn"), (pink["id"], "corr_reminder")} <= kinds
    finally:
        smtp.stop()
