"""A Swiss tournament over the site socket (issue 38): any visitor's page watching it
(``watch_swiss``, anonymous watcher sockets too) hears its ``swiss`` frame after a join and a
pairing; a private one needs its key; wrong-typed fields are ``bad_frame``; a player's socket
opened after the pairing learns where the game is, and hears its end."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games.play import match_resign
from games.site_desk import SiteDesk
from games.tournaments.swiss.models import SwissBoard, SwissTournament
from games.tournaments.swiss.services import swiss_join, swiss_tick
from tests.games.live.test_site_consumer import connect, error, frame_of, site_socket
from tests.helpers import C4, play_moves

pytestmark = pytest.mark.django_db(transaction=True)


def _swiss(public: bool = True) -> SwissTournament:
    return SwissTournament.objects.create(
        name="Szwajcar",
        variant=C4,
        rounds=3,
        starts_at=timezone.now() - timedelta(seconds=1),
        pause_seconds=10,
        rated=False,
        public=public,
    )


async def watcher() -> WebsocketCommunicator:
    ws = await connect()
    assert (await ws.receive_json_from(timeout=5)) == {"type": "hello", "user": None}
    return ws


async def test_an_anonymous_watcher_hears_a_join_and_a_pairing(alice, bob):
    t = await database_sync_to_async(_swiss)()
    ws = await watcher()
    await ws.send_json_to({"type": "watch_swiss", "id": t.pk})
    first = await frame_of(ws, "swiss")
    assert (first["id"], first["status"], first["standings"]) == (t.pk, "upcoming", [])
    await database_sync_to_async(swiss_join)(tournament_id=t.pk, user=alice)
    joined = await frame_of(ws, "swiss")
    assert [line["name"] for line in joined["standings"]] == ["alice"]
    await database_sync_to_async(swiss_join)(tournament_id=t.pk, user=bob)
    assert len((await frame_of(ws, "swiss"))["standings"]) == 2
    await database_sync_to_async(swiss_tick)()
    paired = await frame_of(ws, "swiss")
    assert paired["status"] == "running" and paired["round"] == 1
    (board,) = paired["boards"]
    assert {board["pink"], board["blue"]} == {"alice", "bob"} and board["result"] is None
    await ws.disconnect()


async def test_a_frame_heard_while_the_state_is_read_is_followed_by_a_newer_read(alice, monkeypatch):
    """A page draws the last frame it gets. A join committed while the watch's read runs: its
    frame comes first, and the read (from before the join) must not be the last word: the
    socket reads once more (CI: a visitor's standings stayed empty)."""
    t = await database_sync_to_async(_swiss)()
    reads: list[Any] = []
    read = SiteDesk.swiss

    def slow_read(desk, user_id, content):
        frame = read(desk, user_id, content)
        reads.append(frame)
        if len(reads) == 2:  # the read after following: the join and its frame land meanwhile
            swiss_join(tournament_id=t.pk, user=alice)
            time.sleep(0.5)
        return frame

    monkeypatch.setattr(SiteDesk, "swiss", slow_read)
    ws = await watcher()
    await ws.send_json_to({"type": "watch_swiss", "id": t.pk})
    frames = [await frame_of(ws, "swiss"), await frame_of(ws, "swiss")]
    assert [[line["name"] for line in f["standings"]] for f in frames] == [["alice"], ["alice"]]
    assert [len(r["standings"]) for r in reads] == [0, 0, 1]
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()


async def test_a_player_hears_the_pairing_on_any_page_and_on_connect_and_the_end(alice, bob):
    t = await database_sync_to_async(_swiss)()
    await database_sync_to_async(swiss_join)(tournament_id=t.pk, user=alice)
    await database_sync_to_async(swiss_join)(tournament_id=t.pk, user=bob)
    ws_a = await site_socket(alice)  # a page of the site, not watching the tournament
    await database_sync_to_async(swiss_tick)()
    paired = await frame_of(ws_a, "swiss_paired")
    board = await database_sync_to_async(SwissBoard.objects.get)(tournament=t)
    assert paired == {
        "type": "swiss_paired",
        "id": t.pk,
        "name": "Szwajcar",
        "round": 1,
        "match": board.match_id,
        "url": f"/partia/{board.match_id}/",
    }
    ws_b = await site_socket(bob)  # opened after the pairing: told on connect
    current = await frame_of(ws_b, "swiss_paired")
    assert current == {**paired, "current": True, "ply": 0}
    match = await database_sync_to_async(lambda: board.match)()
    await database_sync_to_async(play_moves)(match, [6, 6, 5, 5])
    await database_sync_to_async(match_resign)(match_id=match.pk, user_id=bob.pk)
    over = await frame_of(ws_a, "swiss_game_over")
    assert over == {"type": "swiss_game_over", "id": t.pk, "match": match.pk, "url": f"/turnieje/szwajcarski/{t.pk}/"}
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_a_private_swiss_needs_its_key_or_a_part_in_it(alice, bob):
    t = await database_sync_to_async(_swiss)(public=False)
    await database_sync_to_async(swiss_join)(tournament_id=t.pk, user=alice)
    ws = await watcher()
    await ws.send_json_to({"type": "watch_swiss", "id": t.pk})
    await error(ws, "tournament_not_found")
    await ws.send_json_to({"type": "watch_swiss", "id": t.pk, "key": "not-the-key"})
    await error(ws, "tournament_not_found")
    await ws.send_json_to({"type": "watch_swiss", "id": t.pk, "key": str(t.token)})
    assert (await frame_of(ws, "swiss"))["id"] == t.pk
    await ws.disconnect()
    ws_b = await site_socket(bob)
    await ws_b.send_json_to({"type": "watch_swiss", "id": t.pk})
    await error(ws_b, "tournament_not_found")
    await ws_b.disconnect()
    ws_a = await site_socket(alice)  # a player in it
    await ws_a.send_json_to({"type": "watch_swiss", "id": t.pk})
    assert (await frame_of(ws_a, "swiss"))["id"] == t.pk
    await ws_a.disconnect()


async def test_wrong_typed_fields_are_bad_frames(alice):
    t = await database_sync_to_async(_swiss)()
    for user in (alice, None):
        ws = await site_socket(alice) if user else await watcher()
        for frame in (
            {"type": "watch_swiss", "id": str(t.pk)},
            {"type": "watch_swiss", "id": True},
            {"type": "watch_swiss", "id": 1.5},
            {"type": "watch_swiss"},
            {"type": "watch_swiss", "id": t.pk, "key": 5},
        ):
            await ws.send_json_to(frame)
            await error(ws, "bad_frame")
        await ws.send_json_to({"type": "watch_swiss", "id": 999_999_999})
        await error(ws, "tournament_not_found")
        await ws.disconnect()
