"""The services the socket's desk and the API share: ``matches_create_many`` (an arena's wave
makes its games with it and their sockets hear ``created``), ``match_end`` (Kropki's
"zakończ", the end action looked up under the lock) and ``match_draw`` (offer, or accept the
opponent's standing offer, decided under the lock)."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from games import play as services
from games.live import hub
from games.models import Match
from games.play.creating import matches_create_many
from kropki_site.lib.refusals import Refusal
from tests.helpers import C4, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    """The frames published to every match's topic while the test runs (the real Redis)."""
    pubsub = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    pubsub.psubscribe(hub.prefix() + "match:*")
    assert pubsub.get_message(timeout=1)["type"] == "psubscribe"

    def frames(count: int) -> list[tuple[str, dict]]:
        got: list[tuple[str, dict]] = []
        deadline = time.monotonic() + 3
        while len(got) < count and time.monotonic() < deadline:
            message = pubsub.get_message(timeout=0.2)
            if message and message["type"] == "pmessage":
                topic = message["channel"].decode().removeprefix(hub.prefix())
                got.append((topic, json.loads(message["data"])))
        return got

    yield frames
    pubsub.close()


def test_many_matches_start_at_once_as_one_would_and_their_sockets_hear_created(
    make_user, heard, settings, django_capture_on_commit_callbacks
):
    users = [make_user(f"p{i}") for i in range(6)]
    pairs = [(users[0].pk, users[1].pk), (users[3].pk, users[2].pk), (users[4].pk, users[5].pk)]
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        made = matches_create_many(variant=C4, pairs=pairs, rated=True, move_seconds=20, now=now)
    assert [(m.pink_id, m.blue_id) for m in made] == pairs
    for match in made:
        stored = Match.objects.get(pk=match.pk)
        assert (stored.pink_id, stored.blue_id, stored.rated, stored.move_seconds) == (
            match.pink_id,
            match.blue_id,
            True,
            20,
        )
        assert stored.is_active and stored.ply == 0 and stored.to_move == 1
        assert stored.turn_deadline == now + timedelta(seconds=20)
    frames = heard(len(made))
    assert sorted(topic for topic, _ in frames) == sorted(f"match:{m.pk}" for m in made)
    assert {frame["type"] for _, frame in frames} == {"created"}
    assert all(frame["ply"] == 0 and frame["match"]["status"] == "active" for _, frame in frames)
    # The new matches play like any other.
    play(Match.objects.get(pk=made[1].pk), users[3], 3)


def test_a_player_cannot_be_in_two_of_the_new_matches(alice, bob, charlie):
    with pytest.raises(ValueError):
        matches_create_many(variant=C4, pairs=[(alice.pk, bob.pk), (charlie.pk, alice.pk)], now=timezone.now())
    assert not Match.objects.exists()


def test_nothing_is_heard_when_the_transaction_rolls_back(alice, bob, heard):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        matches_create_many(variant=C4, pairs=[(alice.pk, bob.pk)], now=timezone.now())
        raise RuntimeError
    assert heard(1) == [] and not Match.objects.exists()


def test_match_end_plays_kropkis_end_and_is_unknown_elsewhere(make_match, alice, bob, charlie):
    kropki = make_match("kropki-10")
    play(kropki, alice, 44)
    with pytest.raises(Refusal) as exc:
        services.match_end(match_id=kropki.pk, user_id=charlie.pk, ply=1)
    assert exc.value.code == "not_a_player"
    result = services.match_end(match_id=kropki.pk, user_id=bob.pk, ply=1)
    assert not result.duplicate and result.match.history[-1] == 100  # 10 x 10: the end is action 100
    assert services.match_end(match_id=kropki.pk, user_id=bob.pk, ply=1).duplicate  # a resend
    c4 = make_match()
    with pytest.raises(Refusal) as exc:
        services.match_end(match_id=c4.pk, user_id=alice.pk, ply=0)
    assert exc.value.code == "unknown_action"
    c4.refresh_from_db()
    assert c4.ply == 0


def test_match_draw_offers_then_the_other_players_draw_accepts(make_match, alice, bob):
    match = make_match()
    assert services.match_draw(match_id=match.pk, user_id=alice.pk) == "offered"
    with pytest.raises(Refusal) as exc:  # one's own offer stands: not twice
        services.match_draw(match_id=match.pk, user_id=alice.pk)
    assert exc.value.code == "draw_already_offered"
    assert services.match_draw(match_id=match.pk, user_id=bob.pk) == "accepted"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner is None and match.end_reason == "agreement"
    with pytest.raises(Refusal) as exc:
        services.match_draw(match_id=match.pk, user_id=alice.pk)
    assert exc.value.code == "match_not_active"
