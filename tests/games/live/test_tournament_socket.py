"""An arena over the site socket: a page watching it hears the standings change, and a
player hears where their new game is."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.play import match_resign
from games.tournaments.models import Tournament
from games.tournaments.services import tournament_join, tournaments_pair
from tests.games.live.test_site_consumer import connect, error, frame_of, site_socket
from tests.helpers import C4, play_moves

pytestmark = pytest.mark.django_db(transaction=True)


def _arena(public: bool = True) -> Tournament:
    now = timezone.now()
    return Tournament.objects.create(
        name="Arena",
        variant=C4,
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=30),
        minutes=31,
        status=Tournament.Status.RUNNING,
        public=public,
    )


async def test_watching_an_arena_hears_pairing_and_points(alice, bob, charlie):
    t = await database_sync_to_async(_arena)()
    ws_a, ws_c = await site_socket(alice), await site_socket(charlie)
    await ws_c.send_json_to({"type": "watch_tournament", "id": t.pk})
    first = await frame_of(ws_c, "tournament")
    assert first["count"] == 0 and first["status"] == "running"
    await database_sync_to_async(tournament_join)(tournament_id=t.pk, user=alice)
    await database_sync_to_async(tournament_join)(tournament_id=t.pk, user=bob)
    (match,) = await database_sync_to_async(tournaments_pair)()
    paired = await frame_of(ws_a, "tournament_paired")
    assert paired["match"] == match.pk and paired["url"] == f"/partia/{match.pk}/"
    await database_sync_to_async(play_moves)(match, [6, 6, 5, 5])  # two moves each: the game counts
    await database_sync_to_async(match_resign)(match_id=match.pk, user_id=bob.pk)
    over = await frame_of(ws_a, "tournament_game_over")
    assert over["url"] == f"/turnieje/{t.pk}/"
    while True:
        frame = await frame_of(ws_c, "tournament")
        if frame["standings"] and frame["standings"][0][2] == 2:
            break
    assert frame["standings"][0][1] == "alice"
    for ws in (ws_a, ws_c):
        await ws.disconnect()


async def test_a_private_arena_needs_its_key(alice):
    t = await database_sync_to_async(_arena)(public=False)
    ws = await site_socket(alice)
    await ws.send_json_to({"type": "watch_tournament", "id": t.pk})
    await error(ws, "tournament_not_found")
    await ws.send_json_to({"type": "watch_tournament", "id": t.pk, "key": str(t.token)})
    assert (await frame_of(ws, "tournament"))["id"] == t.pk
    await ws.disconnect()


async def test_berserk_over_the_site_socket_once_and_before_ones_first_move(alice, bob):
    t = await database_sync_to_async(_arena)()
    await database_sync_to_async(tournament_join)(tournament_id=t.pk, user=alice)
    await database_sync_to_async(tournament_join)(tournament_id=t.pk, user=bob)
    (match,) = await database_sync_to_async(tournaments_pair)()
    ws = await site_socket(alice)
    await ws.send_json_to({"type": "tournament_berserk", "match": match.pk})
    await ws.send_json_to({"type": "tournament_berserk", "match": match.pk})
    await error(ws, "berserk_twice")
    await ws.send_json_to({"type": "tournament_berserk", "match": "x"})
    await error(ws, "bad_frame")  # issue 37, item 11 (d): a wrong type is a bad frame, not an unknown match
    await ws.send_json_to({"type": "tournament_berserk", "match": 999999})
    await error(ws, "not_found")
    await database_sync_to_async(match.refresh_from_db)()
    assert match.pink_berserk if match.pink_id == alice.pk else match.blue_berserk
    await ws.disconnect()


async def test_an_anonymous_visitor_watches_an_arena_live_but_not_a_private_one(alice, bob):
    """Issue 38: a visitor not logged in follows a public arena's standings frame by frame; a
    private one needs its key, as for anyone."""
    t = await database_sync_to_async(_arena)()
    hidden = await database_sync_to_async(_arena)(public=False)
    ws = await connect()
    assert (await ws.receive_json_from(timeout=5))["user"] is None
    await ws.send_json_to({"type": "watch_tournament", "id": hidden.pk})
    await error(ws, "tournament_not_found")
    await ws.send_json_to({"type": "watch_tournament", "id": t.pk})
    assert (await frame_of(ws, "tournament"))["count"] == 0
    await database_sync_to_async(tournament_join)(tournament_id=t.pk, user=alice)
    assert (await frame_of(ws, "tournament"))["count"] == 1
    await database_sync_to_async(tournament_join)(tournament_id=t.pk, user=bob)
    assert (await frame_of(ws, "tournament"))["count"] == 2
    await ws.disconnect()


async def test_wrong_typed_fields_are_bad_frames(alice):
    t = await database_sync_to_async(_arena)()
    for user in (alice, None):
        ws = await site_socket(alice) if user else await connect()
        if user is None:
            await ws.receive_json_from(timeout=5)
        for frame in (
            {"type": "watch_tournament", "id": str(t.pk)},
            {"type": "watch_tournament", "id": True},
            {"type": "watch_tournament", "id": 1.5},
            {"type": "watch_tournament", "id": t.pk, "key": 5},
        ):
            await ws.send_json_to(frame)
            await error(ws, "bad_frame")
        await ws.disconnect()


async def test_a_socket_opened_after_the_pairing_learns_where_the_game_is(alice, bob):
    """Issue 38: the wave's frame went to no socket (the page was reconnecting); the next socket
    hears a ``tournament_paired`` (``current``) on connect and a ``tournament_me`` on watching."""
    t = await database_sync_to_async(_arena)()
    await database_sync_to_async(tournament_join)(tournament_id=t.pk, user=alice)
    await database_sync_to_async(tournament_join)(tournament_id=t.pk, user=bob)
    (match,) = await database_sync_to_async(tournaments_pair)()
    ws = await site_socket(alice)
    current = await frame_of(ws, "tournament_paired")
    assert current["current"] is True and current["match"] == match.pk and current["ply"] == 0
    assert current["url"] == f"/partia/{match.pk}/" and current["name"] == "Arena"
    assert current["opponent"] == "bob"
    await ws.send_json_to({"type": "watch_tournament", "id": t.pk})
    await frame_of(ws, "tournament")
    me = await frame_of(ws, "tournament_me")
    assert me == {
        "type": "tournament_me",
        "id": t.pk,
        "paused": False,
        "match": match.pk,
        "url": current["url"],
        "ply": 0,
    }
    await ws.disconnect()
