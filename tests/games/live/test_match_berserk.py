"""Berserk over the match socket (docs/protocol.md, docs/tournaments.md): the player's page
asks on the socket it plays on; both players hear the halved clock; the refusals' codes."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Match
from games.tournaments.models import Tournament
from games.tournaments.services import tournament_join, tournaments_pair
from tests.games.live.test_match_consumer import expect_error
from tests.helpers import C4
from tests.sockets import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def _arena_game(alice, bob) -> Match:
    now = timezone.now()
    t = Tournament.objects.create(
        name="Arena",
        variant=C4,
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=30),
        minutes=31,
        move_seconds=30,
        status=Tournament.Status.RUNNING,
    )
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    (match,) = tournaments_pair()
    return match


async def next_of(ws, kind: str) -> dict:
    while True:
        frame = await ws.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame


def seconds_left(frame: dict) -> float:
    return (datetime.fromisoformat(frame["match"]["deadline"]) - timezone.now()).total_seconds()


async def test_berserk_over_the_match_socket_halves_the_clock_both_players_see(alice, bob, charlie):
    match = await database_sync_to_async(_arena_game)(alice, bob)
    pink, blue = (alice, bob) if match.pink_id == alice.pk else (bob, alice)
    ws_p, ws_b = await open_socket(match.pk, pink), await open_socket(match.pk, blue)
    assert seconds_left({"match": ws_p.first_state["snapshot"]}) > 25
    # Pink, to move, goes berserk: both pages hear the clock, pink's turn now ends within 15 s.
    await ws_p.send_json_to({"type": "berserk"})
    for ws in (ws_p, ws_b):
        frame = await next_of(ws, "clock")
        assert frame["berserk"] == 1 and frame["ply"] == 0
        assert 10 < seconds_left(frame) <= 15
    await database_sync_to_async(match.refresh_from_db)()
    assert match.pink_berserk and not match.blue_berserk
    # Once only: refused with its code and the state, and nothing changes.
    await ws_p.send_json_to({"type": "berserk"})
    await expect_error(ws_p, "berserk_twice", 0)
    # After one's first move, too late.
    await ws_p.send_json_to({"type": "move", "ply": 0, "action": 3})
    for ws in (ws_p, ws_b):
        moved = await next_of(ws, "moved")
        assert seconds_left(moved) > 25  # blue's turn: the arena's whole 30 s
    await ws_b.send_json_to({"type": "move", "ply": 1, "action": 3})
    for ws in (ws_p, ws_b):
        moved = await next_of(ws, "moved")
        assert moved["ply"] == 2 and 10 < seconds_left(moved) <= 15  # pink's every turn: half of it
    await ws_b.send_json_to({"type": "berserk"})
    await expect_error(ws_b, "berserk_too_late", 2)
    # A spectator is not a player (told without a state frame).
    ws_c = await open_socket(match.pk, charlie)
    await ws_c.send_json_to({"type": "berserk"})
    await expect_error(ws_c, "not_a_player", 2)
    await database_sync_to_async(match.refresh_from_db)()
    assert match.pink_berserk and not match.blue_berserk
    # The game over: not active.
    await ws_b.send_json_to({"type": "resign"})
    await next_of(ws_p, "finished")
    await next_of(ws_b, "finished")
    await ws_p.send_json_to({"type": "berserk"})
    await expect_error(ws_p, "match_not_active", 2)
    for ws in (ws_p, ws_b, ws_c):
        await ws.disconnect()


async def test_berserk_outside_an_arena_is_refused(make_match, alice):
    match = await database_sync_to_async(make_match)()
    ws = await open_socket(match.pk, alice)
    await ws.send_json_to({"type": "berserk"})
    await expect_error(ws, "berserk_not_tournament", 0)
    await database_sync_to_async(match.refresh_from_db)()
    assert not match.pink_berserk and not match.blue_berserk
    await ws.disconnect()
