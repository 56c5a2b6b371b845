"""After a match (winner by name, rating changes, record / new game / lobby) and
challenges opened by a visitor without an account (views; the live parts are in
tests/browser/test_after_match.py)."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import play as services
from games.models import Challenge
from ratings.models import RatingChange
from tests.conftest import PASSWORD
from tests.helpers import play

pytestmark = pytest.mark.django_db


def _snapshot(html: str) -> dict:
    found = re.search(r'<script id="match-snapshot" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found.group(1))


def _c4_pink_wins(match, pink, blue):
    for who, column in [(pink, 0), (blue, 1), (pink, 0), (blue, 1), (pink, 0), (blue, 1), (pink, 0)]:
        play(match, who, column)
    match.refresh_from_db()


def _after_match(html: str) -> str:
    found = re.search(r'<div class="after-match".*?\n  </div>\n', html, re.S)
    assert found, "the after-match block is on the page"
    return found.group(0)


def test_a_finished_rated_match_names_the_winner_and_both_rating_changes(client, make_match, alice, bob):
    match = make_match("cztery-w-rzedzie", rated=True)
    _c4_pink_wins(match, alice, bob)
    changes = {c.side: c for c in RatingChange.objects.filter(match_id=match.pk)}
    client.force_login(alice)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    snap = _snapshot(html)
    assert snap["rating_deltas"]["1"]["delta"] == changes[1].delta > 0
    assert snap["rating_deltas"]["2"]["delta"] == changes[2].delta < 0
    block = _after_match(html)
    assert "hidden" not in block.split(">", 1)[0]
    assert "Wygrywa: alice<" in block
    assert f"alice: +{changes[1].delta} (ranking {round(changes[1].rating_after)}" in block
    assert f"bob: \u2212{-changes[2].delta} (ranking {round(changes[2].rating_after)}" in block
    assert f'href="{reverse("record", args=[match.pk])}"' in block
    assert f'href="{reverse("lobby")}"' in block and "Do poczekalni" in block
    # "Nowa partia" after a rated match: back to the ranked queue of the same variant
    assert f'action="{reverse("queue_join")}"' in block
    assert 'name="variant" value="cztery-w-rzedzie"' in block and "Nowa partia" in block


def test_new_game_after_a_rated_match_puts_the_player_in_the_queue(client, make_match, alice, bob):
    match = make_match("cztery-w-rzedzie", rated=True)
    _c4_pink_wins(match, alice, bob)
    client.force_login(bob)
    response = client.post(reverse("queue_join"), {"variant": "cztery-w-rzedzie"})
    assert response["Location"] == reverse("queue")
    assert "Cztery w rzędzie" in client.get(reverse("queue")).content.decode()


def test_an_active_match_hides_the_after_match_block_and_a_spectator_gets_no_new_game(client, make_match):
    match = make_match("kropki-10", rated=True)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert _after_match(html).startswith('<div class="after-match" id="after-match" data-testid="after-match" hidden>')
    assert _snapshot(html)["rating_deltas"] is None
    assert 'data-testid="new-game"' not in html


def test_a_computer_match_offers_the_same_level_variant_and_colour_again(client, alice):
    match = services.match_create(variant="kropki-i-kwadraty", pink_id=None, blue_id=alice.pk, bot_level="trudny")
    services.match_resign(match_id=match.pk, user_id=alice.pk)
    client.force_login(alice)
    block = _after_match(client.get(reverse("match", args=[match.pk])).content.decode())
    assert f'action="{reverse("play_computer")}"' in block
    for name, value in (("variant", "kropki-i-kwadraty"), ("level", "trudny"), ("colour", "blue")):
        assert f'name="{name}" value="{value}"' in block
    assert 'data-testid="rating-deltas"' in block and "<li>" not in block  # never rated


def test_a_visitor_without_an_account_sees_who_challenges_them_and_to_what(client, alice):
    challenge = services.challenge_create(user_id=alice.pk, variant="kropki-20", rated=True)
    url = reverse("challenge", args=[challenge.token])
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "alice wyzywa Cię na partię." in html
    assert "Kropki 20×20" in html and "rankingowa" in html and "losowane przy przyjęciu wyzwania" in html
    assert f'href="{reverse("signup")}?next={quote(url, safe="")}"' in html
    assert f'href="{reverse("login")}?next={quote(url, safe="")}"' in html
    assert 'data-testid="challenge-accept"' not in html
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "alice challenges you to a match." in en and "rated" in en and "drawn at random" in en


def test_signing_up_from_a_challenge_comes_back_to_it(client, alice):
    challenge = services.challenge_create(user_id=alice.pk, variant="cztery-w-rzedzie", rated=False)
    url = reverse("challenge", args=[challenge.token])
    form = client.get(f"{reverse('signup')}?next={quote(url)}").content.decode()
    assert f'name="next" value="{url}"' in form
    response = client.post(
        reverse("signup"),
        {
            "username": "zosia",
            "email": "zosia@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": url,
        },
    )
    assert response.status_code == 302 and response["Location"] == url
    assert 'data-testid="challenge-accept"' in client.get(url).content.decode()


@pytest.mark.parametrize("bad", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"])
def test_signup_ignores_a_next_leading_off_the_site(client, bad):
    response = client.post(
        reverse("signup"),
        {
            "username": "zosia",
            "email": "zosia@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": bad,
        },
    )
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert get_user_model().objects.filter(username="zosia").exists()


def test_logging_in_from_a_challenge_comes_back_to_it(client, alice, bob):
    challenge = services.challenge_create(user_id=alice.pk, variant="cztery-w-rzedzie", rated=False)
    url = reverse("challenge", args=[challenge.token])
    page = client.get(f"{reverse('login')}?next={quote(url)}").content.decode()
    assert f"{reverse('signup')}?next={quote(url, safe='/')}" in page  # "Sign up" keeps the way back too
    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORD, "next": url})
    assert response["Location"] == url
    assert Challenge.objects.get().status == Challenge.Status.OPEN
