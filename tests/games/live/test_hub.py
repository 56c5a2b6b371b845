"""The hub (games/live/hub.py) on the real Redis of the run: one publish a frame, fan-out to
every local socket of a topic, no frame lost to sockets coming and going, repair after the
connection to Redis breaks; the logout that sticks; handshakes on a budget."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.live import hub, transport
from kropki_site.asgi import application
from tests.helpers import cut_hub_connection, play
from tests.sockets import ORIGIN, logged_in_client, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


class Publishes:
    """Counts the publishes on this process's live channels (a pattern subscription: the other
    pytest-xdist processes publish on the same Redis server, under prefixes of their own)."""

    def __init__(self) -> None:
        self.pubsub = hub._client().pubsub()
        self.pubsub.psubscribe(hub.prefix() + "*")
        assert self.pubsub.get_message(timeout=2)["type"] == "psubscribe"

    def count(self, settle: float = 0.3) -> int:
        heard = 0
        while (message := self.pubsub.get_message(timeout=settle)) is not None:
            heard += message["type"] == "pmessage" and not message["channel"].startswith(
                hub.prefix().encode() + b"hub:"
            )
        return heard

    def close(self) -> None:
        self.pubsub.close()


async def test_a_move_is_one_publish_heard_by_every_socket_once(make_match, alice, bob):
    match = await database_sync_to_async(make_match)("kropki-10")
    sockets = [await open_socket(match.pk, alice), await open_socket(match.pk, bob), await open_socket(match.pk)]
    publishes = Publishes()
    await database_sync_to_async(play)(match, alice, 44)
    assert publishes.count() == 1  # one Redis round trip for the broadcast, whatever the viewers
    publishes.close()
    for ws in sockets:
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "moved" and frame["ply"] == 1
        assert await ws.receive_nothing(timeout=0.2)  # once
        await ws.disconnect()


async def test_frames_are_never_lost_while_other_sockets_churn(make_match, alice, bob):
    """django/channels#1683: with channels_redis' core layer, sockets closing at the wrong moment
    dropped frames meant for others. 60 moves while 8 loops open and close sockets of the match."""
    match = await database_sync_to_async(make_match)("kropki-10")
    watcher = await open_socket(match.pk)
    stop = asyncio.Event()

    async def churn() -> None:
        while not stop.is_set():
            ws = await open_socket(match.pk)
            await ws.disconnect()

    loops = [asyncio.create_task(churn()) for _ in range(8)]
    try:
        users = [alice, bob]
        for n in range(60):
            await database_sync_to_async(play)(match, users[n % 2], n)
            frame = await watcher.receive_json_from(timeout=5)
            assert frame["type"] == "moved" and frame["ply"] == n + 1
    finally:
        stop.set()
        await asyncio.gather(*loops, return_exceptions=True)
    await watcher.disconnect()


async def test_after_the_connection_to_redis_breaks_every_socket_gets_the_position(make_match, alice, bob):
    """A frame published while the hub is cut off is repaired: the hub reconnects, subscribes
    again and each match socket is sent a fresh state (here within 3 s), then hears frames again."""
    match = await database_sync_to_async(make_match)("kropki-10")
    ws = await open_socket(match.pk, bob)
    the_hub = hub.hub()
    reconnects = the_hub.reconnects
    assert cut_hub_connection() == 1  # this process's hub: the other test processes share the Redis
    await database_sync_to_async(play)(match, alice, 44)  # published while the hub may be away
    loop = asyncio.get_running_loop()
    start, state = loop.time(), None
    while state is None and loop.time() - start < 3:
        frame = await ws.receive_json_from(timeout=3)
        if frame["type"] == "state" and frame["ply"] == 1:
            state = frame
    assert state is not None and the_hub.reconnects == reconnects + 1
    await database_sync_to_async(play)(match, bob, 45)
    frame = await ws.receive_json_from(timeout=5)
    while frame["type"] == "state":
        frame = await ws.receive_json_from(timeout=5)
    assert frame["type"] == "moved" and frame["ply"] == 2
    await ws.disconnect()


async def test_a_logged_out_socket_cannot_act_even_if_its_close_was_lost(make_match, alice, bob, monkeypatch):
    """The 4401 close is one more frame and can be lost: each command checks the session too."""
    match = await database_sync_to_async(make_match)("kropki-10")
    client = await database_sync_to_async(logged_in_client)(alice)
    ws = await open_socket(match.pk, cookie=session_cookie(client))
    monkeypatch.setattr(transport, "publish", lambda topic, text: False)  # the close message is lost
    await database_sync_to_async(client.post)("/konto/wyloguj/")
    await ws.send_json_to({"type": "move", "ply": 0, "action": 44})
    assert (await ws.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4401}
    row = await database_sync_to_async(type(match).objects.get)(pk=match.pk)
    assert row.ply == 0


async def test_a_password_change_elsewhere_stops_a_socket_whose_close_was_lost(make_match, alice, monkeypatch):
    match = await database_sync_to_async(make_match)("kropki-10")
    ws = await open_socket(match.pk, alice)
    monkeypatch.setattr(transport, "publish", lambda topic, text: False)

    def change_password():
        alice.set_password("a brand new password 42")
        alice.save()

    await database_sync_to_async(change_password)()
    await ws.send_json_to({"type": "move", "ply": 0, "action": 44})
    assert (await ws.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4401}


async def anonymous_handshake() -> tuple[WebsocketCommunicator, dict]:
    ws = WebsocketCommunicator(application, "/ws/match/999999/", headers=[ORIGIN])
    connected, _ = await ws.connect(timeout=5)
    assert connected
    return ws, await ws.receive_output(timeout=8)


async def test_handshakes_over_the_budget_are_held_then_closed_with_4429(settings, alice):
    settings.WS_CONNECTS_PER_ANONYMOUS_IP_BURST = 3
    settings.WS_CONNECTS_PER_ANONYMOUS_IP_RATE = 0.5
    for _ in range(3):  # within the burst: served (this match does not exist: 4404)
        ws, first = await anonymous_handshake()
        assert first == {"type": "websocket.close", "code": 4404}
    loop = asyncio.get_running_loop()
    start = loop.time()
    ws, first = await anonymous_handshake()
    assert first["type"] == "websocket.close" and first["code"] == 4429
    assert loop.time() - start >= 0.9  # held: a loop that reconnects at once is slowed down
    # A logged-in user has a budget of their own (not the address's anonymous one).
    client = await database_sync_to_async(logged_in_client)(alice)
    ws = WebsocketCommunicator(application, "/ws/match/999999/", headers=[ORIGIN, (b"cookie", session_cookie(client))])
    assert (await ws.connect(timeout=5))[0]
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


def test_topics_are_apart_per_redis_database(settings):
    """Pub/sub channels ignore the database number: the prefix carries it (CI's db 3 and a
    developer's db 0 on one server never hear each other)."""
    settings.LIVE_PREFIX = ""
    settings.REDIS_URL = "redis://127.0.0.1:6379/3"
    three = hub.prefix()
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert three == "kropki:live:3:" and hub.prefix() == "kropki:live:0:"
