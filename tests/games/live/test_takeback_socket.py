"""Takeback over the match socket (docs/protocol.md "Takeback"): the frames both players and a
spectator hear, the refusals as error codes that change nothing, and the lower ply after it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Match
from tests.helpers import play_moves
from tests.sockets import db_picture, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def _frame(ws) -> dict:
    return await ws.receive_json_from(timeout=5)


async def test_asked_refused_asked_again_and_granted_over_the_socket(make_match, alice, bob):
    match = await database_sync_to_async(lambda: play_moves(make_match("cztery-w-rzedzie"), [3, 2, 4]))()
    ws_a, ws_b, ws_c = await open_socket(match.pk, alice), await open_socket(match.pk, bob), await open_socket(match.pk)
    await ws_a.send_json_to({"type": "takeback"})
    for ws in (ws_a, ws_b, ws_c):
        frame = await _frame(ws)
        assert frame["type"] == "takeback_offered" and frame["by"] == 1 and frame["ply"] == 3
        assert frame["match"]["takeback_offer"] == 1 and frame["match"]["takebacks"] == [1, 0]
    await ws_b.send_json_to({"type": "takeback_answer", "accept": False})
    for ws in (ws_a, ws_b, ws_c):
        frame = await _frame(ws)
        assert frame["type"] == "takeback_declined" and frame["by"] == 2 and frame["match"]["takeback_offer"] is None
    # a refused answer to no ask: an error code, and nothing changed
    before = await database_sync_to_async(db_picture)(match.pk)
    await ws_b.send_json_to({"type": "takeback_answer", "accept": True})
    error = await _frame(ws_b)
    assert error["type"] == "error" and error["code"] == "no_takeback_offer" and error["message"]
    assert (await _frame(ws_b))["type"] == "state"
    assert await database_sync_to_async(db_picture)(match.pk) == before

    await ws_a.send_json_to({"type": "takeback"})
    for ws in (ws_a, ws_b, ws_c):
        assert (await _frame(ws))["type"] == "takeback_offered"
    await ws_b.send_json_to({"type": "takeback_answer", "accept": True})
    for ws in (ws_a, ws_b, ws_c):
        frame = await _frame(ws)
        assert frame["type"] == "taken_back" and frame["ply"] == 2 and frame["by"] == 1 and frame["undone"] == 1
        assert frame["match"]["to_move"] == 1 and frame["match"]["takebacks_done"] == 1
        assert frame["match"]["deadline"]
    # a sync after it gives the state at the lower ply
    await ws_c.send_json_to({"type": "sync"})
    state = await _frame(ws_c)
    assert state["type"] == "state" and state["ply"] == 2 and len(state["snapshot"]["moves"]) == 2
    stored = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert stored.history == [3, 2] and stored.ply == 2
    for ws in (ws_a, ws_b, ws_c):
        await ws.disconnect()


async def test_a_rated_game_refuses_with_a_code_and_changes_nothing(make_match, alice):
    match = await database_sync_to_async(lambda: play_moves(make_match("cztery-w-rzedzie", rated=True), [3, 2]))()
    ws = await open_socket(match.pk, alice)
    before = await database_sync_to_async(db_picture)(match.pk)
    await ws.send_json_to({"type": "takeback"})
    error = await _frame(ws)
    assert error["type"] == "error" and error["code"] == "takeback_not_allowed"
    assert "rankingowych" in error["message"]
    assert (await _frame(ws))["type"] == "state"
    assert await database_sync_to_async(db_picture)(match.pk) == before
    await ws.disconnect()
