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
from games.errors import MatchError
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
    settings.MATCH_STARTS_PER_MINUTE = 100
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


def test_neighbours_on_one_address_cannot_abort_each_others_games(settings):
    # Issue 24, item 1: guest A plays; new guests on A's address start games up to the
    # address's cap. A's game (and every other) stays active; the one over the cap is refused.
    settings.COMPUTER_MATCHES_PER_USER = 3
    settings.COMPUTER_MATCHES_PER_GUEST_IP = 8
    a = post(Client(REMOTE_ADDR="203.0.113.7"), colour="pink")
    started = [post(Client(REMOTE_ADDR="203.0.113.7"), colour="pink") for _ in range(7)]
    refused = Client(REMOTE_ADDR="203.0.113.7", HTTP_ACCEPT_LANGUAGE="pl").post(
        reverse("play_computer"), {**FLOOD, "colour": "pink"}
    )
    assert refused.status_code == 429
    body = refused.content.decode()
    assert 'data-code="computer_address_busy"' in body and "Gra nie została rozpoczęta" in body
    english = Client(REMOTE_ADDR="203.0.113.7", HTTP_ACCEPT_LANGUAGE="en").post(
        reverse("play_computer"), {**FLOOD, "colour": "pink"}
    )
    assert english.status_code == 429 and "Many games against the computer are already being played" in (
        english.content.decode()
    )
    assert set(Match.objects.filter(status="active").values_list("pk", flat=True)) == {a.pk, *(m.pk for m in started)}
    services.match_play(match_id=a.pk, user_id=a.pink_id, ply=0, action=3)  # A plays on
    # another network is not affected
    post(Client(REMOTE_ADDR="198.51.100.1"))


def test_thirty_people_behind_one_address_each_start_a_game():
    # The defaults: 30 browsers (cookies) on one address each start a computer game, nobody aborted.
    made = [post(Client(REMOTE_ADDR="203.0.113.9"), colour="pink") for _ in range(30)]
    assert Match.objects.filter(pk__in=[m.pk for m in made], status="active").count() == 30


def test_a_guest_starting_forty_games_in_seconds_is_refused_with_a_clear_page(settings):
    # Issue 24, item 16: the 7th start within a minute is refused (per person), its own
    # games untouched; and an address's many guests together are held to their own rate.
    settings.MATCH_STARTS_PER_MINUTE = 6
    browser = Client(HTTP_ACCEPT_LANGUAGE="pl")
    codes = [browser.post(reverse("play_computer"), {**FLOOD, "colour": "pink"}).status_code for _ in range(40)]
    assert codes == [302] * 6 + [429] * 34
    assert Match.objects.filter(status="active").count() == 3  # its own newest three (its own cap)
    response = browser.post(reverse("play_computer"), {**FLOOD, "colour": "pink"})
    assert 'data-code="starting_too_often"' in response.content.decode()
    assert "Zaczynasz gry zbyt szybko" in response.content.decode()
    settings.MATCH_STARTS_PER_MINUTE = 0
    english = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="198.51.100.3").post(reverse("play_computer"), FLOOD)
    assert english.status_code == 429 and "You are starting games too quickly" in english.content.decode()
    settings.MATCH_STARTS_PER_MINUTE = 6
    settings.MATCH_STARTS_PER_ADDRESS_MINUTE = 3
    others = [Client(REMOTE_ADDR="203.0.113.44").post(reverse("play_computer"), FLOOD).status_code for _ in range(5)]
    assert others == [302] * 3 + [429] * 2


def test_a_rematch_with_the_computer_is_counted_too(alice, settings):
    settings.MATCH_STARTS_PER_MINUTE = 2
    first = services.computer_match_start(user_id=alice.pk, variant="cztery-w-rzedzie", level="latwy", colour="pink")
    services.match_resign(match_id=first.pk, user_id=alice.pk)
    services.match_offer_rematch(match_id=first.pk, user_id=alice.pk)
    second = Match.objects.latest("pk")
    services.match_resign(match_id=second.pk, user_id=alice.pk)
    with pytest.raises(MatchError) as refused:
        services.match_offer_rematch(match_id=second.pk, user_id=alice.pk)
    assert refused.value.code == "starting_too_often"


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
