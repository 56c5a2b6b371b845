"""docs/reliability.md row 19: only a match's players act in it, each only for
themselves, only in the match their socket is for. No frame field names a
player or a match: the server takes both from the session and the URL."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games import play as services
from tests.factories import make_match
from tests.sockets import db_picture, open_socket, open_user_socket

pytestmark = pytest.mark.django_db(transaction=True)

ALL_COMMANDS = [
    {"type": "move", "ply": 0, "action": 3},
    {"type": "end", "ply": 0},
    {"type": "resign"},
    {"type": "draw_offer"},
    {"type": "draw_answer", "accept": True},
    {"type": "rematch_offer"},
    {"type": "rematch_decline"},
]


async def error_code(ws) -> str:
    """The refusal's code; a state frame follows, except for who may not act at all
    (a spectator or an anonymous socket: nothing to feed a flood with)."""
    frame = await ws.receive_json_from(timeout=5)
    assert frame["type"] == "error", frame
    if frame["code"] in ("not_a_player", "login_required"):
        assert await ws.receive_nothing(timeout=0.1)
    else:
        state = await ws.receive_json_from(timeout=5)
        assert state["type"] == "state"
    return frame["code"]


@pytest.mark.parametrize("frame", ALL_COMMANDS, ids=lambda f: f["type"])
@pytest.mark.parametrize("who", ["charlie", "anonymous"])
async def test_nobody_but_the_players_acts(alice, bob, charlie, who, frame):
    """A stranger or an anonymous visitor, even with a frame naming a player, changes nothing."""
    match = await database_sync_to_async(make_match)(alice, bob, variant="kropki-10")
    await database_sync_to_async(services.match_offer_draw)(match_id=match.pk, user_id=alice.pk)
    ws = await (open_user_socket(match.pk, charlie) if who == "charlie" else open_socket(match.pk))
    before = await database_sync_to_async(db_picture)(match.pk)
    for forged in ({}, {"player": 1}, {"player": 2}, {"user_id": alice.pk}, {"as": "bob", "side": 2}):
        await ws.send_json_to({**frame, **forged})
        assert await error_code(ws) == ("not_a_player" if who == "charlie" else "login_required")
    assert await database_sync_to_async(db_picture)(match.pk) == before
    await ws.disconnect()


async def test_a_frame_naming_the_other_player_does_nothing_special(alice, bob):
    match = await database_sync_to_async(make_match)(alice, bob)
    ws_bob = await open_user_socket(match.pk, bob)
    before = await database_sync_to_async(db_picture)(match.pk)
    # Alice (pink, player 1) is to move; Bob claims to be her in every way a frame could.
    for forged in (
        {"player": 1},
        {"by": 1},
        {"side": 1},
        {"user_id": alice.pk},
        {"username": "alice"},
        {"you": 1},
        {"player": 1, "user_id": alice.pk, "by": 1},
    ):
        await ws_bob.send_json_to({"type": "move", "ply": 0, "action": 3, **forged})
        assert await error_code(ws_bob) == "not_your_turn"
    assert await database_sync_to_async(db_picture)(match.pk) == before

    # Alice's move with "player": 2 is still Alice's move (player 1), and the turn passes to Bob.
    ws_alice = await open_user_socket(match.pk, alice)
    await ws_alice.send_json_to({"type": "move", "ply": 0, "action": 3, "player": 2, "user_id": bob.pk})
    moved = await ws_alice.receive_json_from(timeout=5)
    assert moved["type"] == "moved" and moved["by"] == 1 and moved["match"]["to_move"] == 2
    assert (await ws_bob.receive_json_from(timeout=5))["by"] == 1
    # Bob resigning "for alice" resigns Bob: Alice wins.
    await ws_bob.send_json_to({"type": "resign", "player": 1, "user_id": alice.pk})
    finished = await ws_bob.receive_json_from(timeout=5)
    assert finished["type"] == "finished" and finished["match"]["winner"] == 1
    for ws in (ws_alice, ws_bob):
        await ws.disconnect()


def mine_fields_winner(match, loser) -> int:
    return 1 if match.blue_id == loser.pk else 2


async def test_a_socket_acts_only_in_its_own_match(alice, bob, charlie):
    """A frame naming another match id acts in the socket's own match (the URL decides), never in the other."""
    mine = await database_sync_to_async(make_match)(alice, bob)
    other = await database_sync_to_async(make_match)(alice, charlie)
    ws = await open_user_socket(mine.pk, bob)  # Bob is not in `other`
    before_other = await database_sync_to_async(db_picture)(other.pk)
    await ws.send_json_to({"type": "resign", "match_id": other.pk, "match": other.pk, "id": other.pk})
    finished = await ws.receive_json_from(timeout=5)
    assert finished["type"] == "finished" and finished["match"]["status"] == "finished"
    mine_fields = dict((await database_sync_to_async(db_picture)(mine.pk))[0])
    assert mine_fields["status"] == "finished" and mine_fields["winner"] == mine_fields_winner(mine, bob)
    assert await database_sync_to_async(db_picture)(other.pk) == before_other
    await ws.disconnect()


async def test_a_spectator_gets_no_player_only_fields(alice, bob, charlie):
    match = await database_sync_to_async(make_match)(alice, bob)
    ws = await open_user_socket(match.pk, charlie)
    assert ws.first_state["you"] is None
    text = str(ws.first_state)
    assert "email" not in text and "password" not in text and "session" not in text
    await ws.disconnect()


def test_challenge_cancel_is_only_for_its_creator(alice, charlie):
    challenge = services.challenge_create(user_id=alice.pk, variant="cztery-w-rzedzie", rated=False)
    client = Client()
    client.force_login(charlie)
    client.post(reverse("challenge_cancel", args=[challenge.token]))
    challenge.refresh_from_db()
    assert challenge.status == challenge.Status.OPEN
