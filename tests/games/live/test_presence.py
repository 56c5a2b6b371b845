"""Spectators are counted across processes (Redis), and forgotten on disconnect."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import play as services
from games.live import presence
from kropki_site.asgi import application

ORIGIN = [(b"origin", b"http://127.0.0.1")]


@pytest.mark.django_db(transaction=True)
async def test_an_anonymous_viewer_counts_as_a_spectator_until_it_leaves(alice, bob):
    match = await database_sync_to_async(services.match_create)(
        variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=bob.pk
    )
    before = await database_sync_to_async(presence.spectator_count)(match.pk)
    viewer = WebsocketCommunicator(application, f"/ws/match/{match.pk}/", headers=ORIGIN)
    connected, _ = await viewer.connect()
    assert connected
    frame = await viewer.receive_json_from(timeout=5)
    assert frame["type"] == "state" and frame["you"] is None
    assert await database_sync_to_async(presence.spectator_count)(match.pk) == before + 1
    await viewer.disconnect()
    assert await database_sync_to_async(presence.spectator_count)(match.pk) == before
