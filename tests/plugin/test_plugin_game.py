"""A game plugs in through the catalogue alone.

Kółko i krzyżyk (tests/plugin/tictactoe/: engine, board, computer, rules
content and its catalogue entry) is registered from this test and nothing
else in the project knows it: it is offered in the lobby and the leaderboards,
has a rules page with an engine-checked diagram, is challenged and accepted,
played over the real socket stack (ASGI app, session auth, Redis channel
layer), ended by the clock, and has a record page and a JSON export.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import catalogue, play
from games.catalogue import register, unregister
from games.models import Challenge, Match
from tests.plugin.tictactoe.spec import SPEC
from tests.sockets import open_socket

pytestmark = pytest.mark.django_db(transaction=True)

VARIANT = "kolko-i-krzyzyk"
TEMPLATES = Path(__file__).resolve().parent / "templates"


@pytest.fixture
def tictactoe(settings):
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES]}]
    register(SPEC)
    yield SPEC
    unregister(SPEC.slug)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_game_is_offered_everywhere_a_game_is(tictactoe, alice):
    client = logged_in(alice)
    assert "Kółko i krzyżyk" in client.get(reverse("lobby")).content.decode()
    home = client.get(reverse("home")).content.decode()
    assert "Kółko i krzyżyk" in home and "board-tictactoe" in home  # its card, with the diagram's picture
    assert client.get(reverse("ranking_variant", args=[VARIANT])).status_code == 200
    rules = client.get(reverse("rules", args=["kolko-i-krzyzyk"]))
    assert rules.status_code == 200 and "board-tictactoe" in rules.content.decode()
    assert VARIANT in dict(catalogue.variant_choices())


def test_unregistered_it_is_gone(alice):
    client = logged_in(alice)
    assert "Kółko i krzyżyk" not in client.get(reverse("lobby")).content.decode()
    assert client.get(reverse("rules", args=["kolko-i-krzyzyk"])).status_code == 404


async def _moved(ws, ply: int) -> dict:
    while True:
        frame = await ws.receive_json_from(timeout=5)
        if frame.get("ply") == ply and frame["type"] in ("moved", "finished"):
            return frame


async def test_challenge_socket_play_record_and_export(tictactoe, alice, bob):
    from channels.db import database_sync_to_async

    # a link challenge to this game, accepted by bob: the match page draws its board
    a, b = await database_sync_to_async(logged_in)(alice), await database_sync_to_async(logged_in)(bob)
    created = await database_sync_to_async(a.post)(reverse("challenge_new"), {"variant": VARIANT, "mode": "casual"})
    assert created.status_code == 302
    challenge = await database_sync_to_async(Challenge.objects.get)(creator=alice)
    await database_sync_to_async(b.post)(reverse("challenge_accept", args=[challenge.token]))
    match = await database_sync_to_async(Match.objects.get)(variant=VARIANT)
    page = (await database_sync_to_async(a.get)(reverse("match", args=[match.pk]))).content.decode()
    assert "board-tictactoe" in page

    # the players' sockets: X (pink) wins on the diagonal a1, b2, c3
    pink, blue = (alice, bob) if match.pink_id == alice.pk else (bob, alice)
    ws_pink, ws_blue = await open_socket(match.pk, pink), await open_socket(match.pk, blue)
    assert ws_pink.first_state["snapshot"]["game"] == "tictactoe" and ws_pink.first_state["you"] == 1
    await ws_blue.send_json_to({"type": "move", "ply": 0, "action": 0})
    error = await ws_blue.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "not_your_turn"
    for ply, (ws, action) in enumerate([(ws_pink, 0), (ws_blue, 1), (ws_pink, 4), (ws_blue, 2)], start=1):
        await ws.send_json_to({"type": "move", "ply": ply - 1, "action": action})
        frame = await _moved(ws_blue if ws is ws_pink else ws_pink, ply)
        assert frame["type"] == "moved" and frame["action"] == action
    await ws_pink.send_json_to({"type": "move", "ply": 4, "action": 4})  # b2 is taken: the game's own error
    error = await ws_pink.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "cell_taken"
    assert error["message"] == "To pole jest już zajęte."
    await ws_pink.send_json_to({"type": "move", "ply": 4, "action": 8})
    finished = await _moved(ws_blue, 5)
    assert finished["type"] == "finished" and finished["match"]["winner"] == 1
    assert finished["match"]["end_reason"] == "three_in_a_row"
    await ws_pink.disconnect()
    await ws_blue.disconnect()

    # the board after a gap, the record page and the export
    board = await database_sync_to_async(a.get)(reverse("match_board", args=[match.pk, 3]) + "?live=0&lang=pl")
    assert board.status_code == 200 and "board-tictactoe" in board.content.decode()
    record = (await database_sync_to_async(a.get)(reverse("record", args=[match.pk]))).content.decode()
    assert "trzy w linii" in record and "c3" in record
    exported = await database_sync_to_async(a.get)(reverse("export_json", args=[match.pk]))
    data = json.loads(exported.content)
    assert data["game"] == "tictactoe" and data["moves"] == ["a1", "b1", "b2", "c1", "c3"]
    assert (await database_sync_to_async(a.get)(reverse("export_sgf", args=[match.pk]))).status_code == 404


def test_the_clock_plays_its_end_action_as_for_kropki(tictactoe, alice, bob):
    """A game with an end action: a player whose time runs out has it played for them,
    and the other plays on alone; the second time-out ends the game (both ended: a draw)."""
    match = play.match_create(variant=VARIANT, pink_id=alice.pk, blue_id=bob.pk)
    play.match_play(match_id=match.pk, user_id=alice.pk, ply=0, action=4)
    play.match_play(match_id=match.pk, user_id=bob.pk, ply=1, action=0)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(minutes=1))
    assert play.sweep_expired() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.history == [4, 0, 9] and match.to_move == 2
    play.match_play(match_id=match.pk, user_id=bob.pk, ply=3, action=1)  # bob moves again, alone
    match.refresh_from_db()
    assert match.to_move == 2
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(minutes=1))
    assert play.sweep_expired() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner is None and match.end_reason == "both_ended"


def test_the_match_page_asks_the_spec_not_the_slug(tictactoe, alice, bob):
    """The end button, the score and the endings' notices come from the game's spec and
    engine: the plug-in has an end action and no score; Cztery w rzędzie neither."""
    client = logged_in(alice)
    match = play.match_create(variant=VARIANT, pink_id=alice.pk, blue_id=bob.pk)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-testid="btn-end"' in page
    assert 'data-testid="score-1"' not in page
    found = re.search(r'<script id="match-strings" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    strings = json.loads(found[1])
    assert strings["end_notices"] == {"full_board": "Plansza jest pełna i nikt nie ułożył trzech w linii: remis."}
    other = play.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=bob.pk)
    page = client.get(reverse("match", args=[other.pk])).content.decode()
    assert 'data-testid="btn-end"' not in page and 'data-testid="score-1"' not in page
    kropki = play.match_create(variant=catalogue.game_spec("kropki").variants[0].key, pink_id=alice.pk, blue_id=bob.pk)
    page = client.get(reverse("match", args=[kropki.pk])).content.decode()
    assert 'data-testid="btn-end"' in page and 'data-testid="score-1"' in page


async def test_the_end_action_over_the_socket(tictactoe, alice, bob):
    from channels.db import database_sync_to_async

    match = await database_sync_to_async(play.match_create)(variant=VARIANT, pink_id=alice.pk, blue_id=bob.pk)
    ws_pink, ws_blue = await open_socket(match.pk, alice), await open_socket(match.pk, bob)
    await ws_pink.send_json_to({"type": "end", "ply": 0})
    frame = await _moved(ws_blue, 1)
    assert frame["action"] == 9 and frame["match"]["to_move"] == 2
    await ws_blue.send_json_to({"type": "move", "ply": 1, "action": 4})
    frame = await _moved(ws_pink, 2)
    assert frame["match"]["to_move"] == 2  # pink has ended: blue plays on alone
    await ws_pink.disconnect()
    await ws_blue.disconnect()
