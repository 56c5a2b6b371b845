"""docs/reliability.md row 11 on the server side: a client that missed an event sees the gap
on the next frame, asks ``sync``, and gets the full state, equal to the database's.

The lost event is dropped on its way to Redis (``realtime.publish``), as a publish while
Redis is away would lose it (tests/games/live/test_hub.py: the hub's own repair).
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation

from games.display import frames
from games.live import hub
from games.live import transport as realtime
from games.models import Match
from games.selectors import match as match_reads
from tests.helpers import play
from tests.sockets import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def fresh_state_frame(match_id: int) -> dict:
    """The ``state`` frame from a fresh read of the match, as the desk builds it for a visitor (the
    site's language: this thread may keep a language an earlier test activated in it)."""
    match = match_reads.committed_match(match_id)
    assert match is not None
    with translation.override(settings.LANGUAGE_CODE):
        return frames.state_frame(match, match_reads.snapshot_rows(match))


def comparable(snapshot: dict) -> dict:
    return {k: v for k, v in snapshot.items() if k not in ("server_now", "deadline")}


async def test_a_missed_event_shows_as_a_gap_and_sync_brings_the_full_state(make_match, alice, bob, monkeypatch):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk)  # a spectator
    assert ws.first_state["ply"] == 0
    real_publish = hub.publish  # transport publishes with hub's publish
    dropped: list[str] = []

    def lossy_publish(topic, text):
        if topic == realtime.match_topic(match.pk) and not dropped:
            dropped.append(text)  # the first move's frame is lost
            return False
        return real_publish(topic, text)

    monkeypatch.setattr(realtime, "publish", lossy_publish)
    await database_sync_to_async(play)(match, alice, 3)
    await database_sync_to_async(play)(match, bob, 4)
    assert len(dropped) == 1
    frame = await ws.receive_json_from(timeout=5)
    last = ws.first_state["ply"]
    assert frame["type"] == "moved" and frame["ply"] == 2 > last + 1  # the gap
    await ws.send_json_to({"type": "sync"})
    state = await ws.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["ply"] == 2 and state["you"] is None
    db_frame = await database_sync_to_async(fresh_state_frame)(match.pk)
    assert comparable(state["snapshot"]) == comparable(db_frame["snapshot"])
    assert state["snapshot"]["version"] == frame["match"]["version"]
    assert len(state["snapshot"]["moves"]) == 2
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()


async def test_sync_answers_the_full_state_at_any_moment_and_changes_nothing(make_match, alice, bob):
    match = await database_sync_to_async(make_match)("kropki-i-kwadraty")
    ws = await open_socket(match.pk, alice)
    await database_sync_to_async(play)(match, alice, 0)
    moved = await ws.receive_json_from(timeout=5)
    assert moved["type"] == "moved" and moved["ply"] == 1
    await ws.send_json_to({"type": "sync"})
    first = await ws.receive_json_from(timeout=5)
    assert first["snapshot"]["view"]["drawn"][0] == 1 and first["snapshot"]["moves"] == [moved["notation"]]
    for _ in range(3):  # repeated syncs: the same state every time, the match untouched
        await ws.send_json_to({"type": "sync"})
        state = await ws.receive_json_from(timeout=5)
        assert state["type"] == "state" and state["ply"] == 1 and state["you"] == 1
        assert comparable(state["snapshot"]) == comparable(first["snapshot"])
        assert state["snapshot"]["version"] == moved["match"]["version"]
    row = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert row.ply == 1
    await ws.disconnect()
