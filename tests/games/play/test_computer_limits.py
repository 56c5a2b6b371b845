"""Issue 12, item 1: one visitor cannot stall the computer for everyone.

- a player keeps at most COMPUTER_MATCHES_PER_USER unfinished computer matches:
  a new one abandons (aborts) the oldest; guests made from one IP share
  COMPUTER_MATCHES_PER_GUEST_IP;
- the computer thinks about one move per human at a time (a Redis lock across
  the worker processes): a second one for the same player raises PlayerBusy
  (the task re-sends itself), another player's move goes ahead.

The live flood (real daphne and Celery) is tests/live_play/test_computer_flood.py.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import play as services
from games.models import Match
from games.play.computer import THINKING, PlayerBusy, match_bot_turn
from kropki_site import limits

pytestmark = pytest.mark.django_db

FLOOD = {"variant": "kropki-10", "level": "trudny", "colour": "blue"}


def post(client, **data):
    response = client.post(reverse("play_computer"), {**FLOOD, **data})
    assert response.status_code == 302
    return Match.objects.latest("pk")


def test_a_guest_keeps_only_the_newest_three_unfinished_computer_matches(client, settings):
    settings.COMPUTER_MATCHES_PER_USER = 3
    made = [post(client) for _ in range(8)]
    guest = made[0].pink_id or made[0].blue_id
    active = Match.objects.filter(status="active", blue_id=guest)
    assert sorted(active.values_list("pk", flat=True)) == [m.pk for m in made[-3:]]
    for match in made[:-3]:
        match.refresh_from_db()
        assert match.status == "aborted" and match.end_reason == "aborted" and match.winner is None
        assert match.finished_at is not None
        # the computer's task queued for it finds it over and thinks about nothing
        assert match_bot_turn(match_id=match.pk, ply=0) is False


def test_an_account_has_the_same_cap_and_a_rematch_counts(alice, settings):
    settings.COMPUTER_MATCHES_PER_USER = 2
    first = services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=None, bot_level="latwy")
    services.match_resign(match_id=first.pk, user_id=alice.pk)
    services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=None, bot_level="latwy")
    services.match_offer_rematch(match_id=first.pk, user_id=alice.pk)  # against the computer: starts at once
    services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=None, bot_level="latwy")
    assert Match.objects.filter(status="active").count() == 2
    first.refresh_from_db()
    assert first.status == "finished"  # a finished match is never touched


def test_guests_from_one_ip_share_a_cap(settings):
    settings.COMPUTER_MATCHES_PER_USER = 3
    settings.COMPUTER_MATCHES_PER_GUEST_IP = 4
    for _ in range(3):  # three browsers (cookies) on one IP, two matches each
        browser = Client(REMOTE_ADDR="203.0.113.7")
        post(browser)
        post(browser)
    assert Match.objects.filter(status="active").count() == 4
    other = Client(REMOTE_ADDR="198.51.100.1")  # another network is not affected
    post(other)
    assert Match.objects.filter(status="active").count() == 5


def test_one_move_at_a_time_per_player_others_go_ahead(client, alice):
    flooder = post(client, variant="cztery-w-rzedzie", level="latwy")
    honest = services.match_create(variant="cztery-w-rzedzie", pink_id=None, blue_id=alice.pk, bot_level="latwy")
    human = flooder.blue_id
    token = limits.lock_acquire(THINKING, human, ttl=30)  # a move for this guest is being computed
    assert token
    try:
        with pytest.raises(PlayerBusy):
            match_bot_turn(match_id=flooder.pk, ply=0)
        assert match_bot_turn(match_id=honest.pk, ply=0) is True
    finally:
        limits.lock_release(THINKING, human, token)
    assert match_bot_turn(match_id=flooder.pk, ply=0) is True
    # the lock is released after the move: the next one is not refused
    assert limits.lock_acquire(THINKING, human, ttl=1) is not None
