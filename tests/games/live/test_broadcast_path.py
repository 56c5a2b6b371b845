"""The hot path of a move's broadcast (docs/performance.md "Live play"):

- the frame is built after commit from the match the transaction left, without
  a re-read, equals what a fresh read gives, and carries the move, not the board;
- the board's SVG is drawn once per (match, ply, language) and never served for another history;
- a move is one publish (tests/games/live/test_hub.py: what the hub does with it);
- the match consumer's database calls keep their thread's connection.
"""

from __future__ import annotations

import json

import pytest
from django.db import DEFAULT_DB_ALIAS, connections

from games import play as services
from games import selectors
from games.catalogue import variant as get_variant
from games.display import snapshot
from games.live import transport as realtime
from games.live.dbcall import db_call
from games.models import Match
from tests.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)


def without_clock_time(header: dict) -> dict:
    return {k: v for k, v in header.items() if k != "server_now"}


@pytest.mark.parametrize(
    "variant, actions",
    [
        ("cztery-w-rzedzie", [3, 4, 3, 4, 3, 4, 3]),  # the last move wins: "finished"
        ("kropki-10", [44, 45, 54]),
    ],
)
def test_the_frame_after_commit_equals_a_fresh_read(make_match, alice, bob, monkeypatch, variant, actions):
    """The frame is built from the committed match without a re-read: its header
    equals a fresh read's, and it carries the move, not the board."""
    match = make_match(variant)
    sent = []
    monkeypatch.setattr(realtime, "publish", lambda topic, text: sent.append((topic, text)))
    users = [alice, bob]
    for i, action in enumerate(actions):
        match.refresh_from_db()
        play(match, users[match.to_move - 1], action)
        to_match = [(topic, text) for topic, text in sent if not topic.startswith("api:")]
        assert len(to_match) == i + 1  # one publish a move (an ending also tells the players' API streams)
        topic, text = to_match[-1]
        frame = json.loads(text)
        assert topic == realtime.match_topic(match.pk) and frame["ply"] == i + 1
        fresh = Match.objects.get(pk=match.pk)
        assert without_clock_time(frame["match"]) == without_clock_time(
            json.loads(json.dumps(snapshot.match_header(fresh), default=str))
        )
        assert frame["action"] == action and frame["by"] == (i % 2) + 1 and "snapshot" not in frame
        assert len(text.encode()) < 1024
    assert frame["type"] == ("finished" if variant == "cztery-w-rzedzie" else "moved")
    ends = [topic for topic, _text in sent if topic.startswith("api:")]
    assert ends == ([f"api:{alice.pk}", f"api:{bob.pk}"] if variant == "cztery-w-rzedzie" else [])


def test_a_move_reads_the_match_once(make_match, alice, monkeypatch, django_assert_max_num_queries):
    """One read of the match (the locking one, with the players), the move row, the match row."""
    match = make_match("kropki-10")
    monkeypatch.setattr(realtime, "publish", lambda topic, text: None)
    selectors.match_state(match)  # warm the state cache, as in a running match
    with django_assert_max_num_queries(5) as ctx:  # SQLite also counts its BEGIN IMMEDIATE
        services.match_play(match_id=match.pk, user_id=alice.pk, ply=0, action=44)
    assert (
        sum("games_match" in q["sql"] and q["sql"].lstrip().upper().startswith("SELECT") for q in ctx.captured_queries)
        == 1
    )


def test_the_svg_cache_never_serves_another_history(make_match):
    match = make_match("kropki-10")
    game = get_variant(match.variant).game()
    one = game.state_from_history([44])
    other = game.state_from_history([45])
    svg_one = snapshot.board_svg(match, one, True, "pl")
    assert snapshot.board_svg(match, one, True, "pl") is svg_one  # drawn once
    # the same (id, ply) with another history (a reused id): drawn anew
    svg_other = snapshot.board_svg(match, other, True, "pl")
    assert svg_other != svg_one
    # the finished picture (not interactive) and another language are other entries
    assert snapshot.board_svg(match, other, False, "pl") != svg_other
    assert "dot a1" in snapshot.board_svg(match, other, True, "en") and "kropka a1" in svg_other


async def test_a_consumer_db_call_keeps_its_connection():
    def query():
        Match.objects.exists()
        return connections[DEFAULT_DB_ALIAS]  # this worker thread's wrapper

    wrapper = await db_call(query)()
    # after the call (and channels' close_old_connections): still open, not due to close
    assert wrapper.connection is not None and wrapper.close_at is None
