"""Wording a player read wrong (issue 25 item 13), on the pages themselves."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import play as services
from tests.helpers import play

pytestmark = pytest.mark.django_db


def get(client, url, lang="pl"):
    client.cookies["kropki_language"] = lang
    return client.get(url).content.decode()


def test_sign_up_has_our_own_help_texts_not_djangos(client):
    pl = get(client, reverse("signup"))
    assert "Wymagana. 150 lub mniej znaków" not in pl and "twoich" not in pl
    assert "Do 150 znaków: litery (także polskie), cyfry oraz @ . + - _." in pl
    assert "Co najmniej 8 znaków, nie same cyfry" in pl and "Wpisz to samo hasło jeszcze raz" in pl
    en = get(client, reverse("signup"), "en")
    assert "Required. 150 characters or fewer" not in en
    assert "Up to 150 characters: letters (Polish ones too)" in en


def test_password_change_help_text_is_ours(client, alice):
    client.force_login(alice)
    html = get(client, reverse("password_change"))
    assert "Co najmniej 8 znaków" in html and "twoich" not in html


def test_last_seen_a_moment_ago_not_zero_minutes(client, alice):
    User.objects.filter(pk=alice.pk).update(last_seen=timezone.now() - datetime.timedelta(seconds=20))
    html = get(client, reverse("profile", args=["alice"]))
    assert "na stronie przed chwilą" in html and "0 minut" not in html
    assert "last seen a moment ago" in get(client, reverse("profile", args=["alice"]), "en")
    User.objects.filter(pk=alice.pk).update(last_seen=timezone.now() - datetime.timedelta(minutes=5))
    assert "ostatnio na stronie 5\xa0minut temu" in get(client, reverse("profile", args=["alice"]))


def test_an_empty_online_list_says_nobody_to_a_visitor_and_nobody_else_to_a_member(client, alice):
    html = get(client, reverse("lobby"))
    assert "Nikt nie jest teraz online." in html and "Nikogo więcej" not in html
    client.force_login(alice)
    assert "Nikogo więcej nie ma teraz online." in get(client, reverse("lobby"))


def test_the_record_links_sgf_in_words(client, make_match, alice, bob):
    match = make_match("kropki-10")
    play(match, alice, 0)
    services.match_resign(match_id=match.pk, user_id=bob.pk)
    html = get(client, reverse("record", args=[match.pk]))
    assert "Plik SGF dla programów do gry w kropki" in html and "GM[40]" not in html
    assert "SGF file for Dots programs" in get(client, reverse("record", args=[match.pk]), "en")


def test_favicon_is_served_and_linked(client):
    """Issue 25 item 14: /favicon.ico was a 404 on every page."""
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert response["Content-Type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    assert '<link rel="icon" href="/favicon.ico"' in get(client, reverse("home"))


def test_the_faq_offers_an_account_only_to_visitors_and_guests(client, alice):
    assert 'data-testid="faq-signup"' in get(client, reverse("faq"))
    client.force_login(alice)
    html = get(client, reverse("faq"))
    assert 'data-testid="faq-signup"' not in html and "Załóż konto" not in html.split("<main", 1)[1]


def test_settings_checkboxes_come_before_their_labels(client, alice):
    client.force_login(alice)
    html = get(client, reverse("account_settings"))
    assert '<div class="field field-check">' in html
    box = html.index('id="id_invisible"')
    label = html.index('<label for="id_invisible">Tryb niewidoczności</label>')
    assert box < label


def test_the_profile_record_link_does_not_break(client, make_match, alice, bob):
    match = make_match()
    services.match_resign(match_id=match.pk, user_id=bob.pk)
    assert 'class="nowrap" data-testid="record-link">Zapis</a>' in get(client, reverse("profile", args=["alice"]))
