"""English pages name the games in English, dates are day-first (issue 25 item 9)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games import catalogue
from games.models import Match
from tests.factories import PINK_WINS, make_match
from tests.helpers import play_moves

pytestmark = pytest.mark.django_db

ENGLISH = {
    "kropki": "Dots",
    "cztery-w-rzedzie": "Four in a Row",
    "kropki-i-kwadraty": "Dots and Boxes",
    "pilkarzyki": "Paper Soccer",
}
POLISH = {
    "kropki": "Kropki",
    "cztery-w-rzedzie": "Cztery w rzędzie",
    "kropki-i-kwadraty": "Kropki i kwadraty",
    "pilkarzyki": "Piłkarzyki",
}


def get(client, url, lang):
    client.cookies["kropki_language"] = lang
    return client.get(url).content.decode()


@pytest.mark.parametrize("slug", sorted(ENGLISH))
def test_the_rules_page_title_is_english_with_the_polish_name_beside(client, slug):
    html = get(client, reverse("rules", args=[slug]), "en")
    assert f'<h1>{ENGLISH[slug]} <span class="native-name" lang="pl">({POLISH[slug]})</span></h1>' in html
    assert f"<title>Rules: {ENGLISH[slug]} · Kropki</title>" in html
    pl = get(client, reverse("rules", args=[slug]), "pl")
    assert f"<h1>{POLISH[slug]}</h1>" in pl and "native-name" not in pl


def test_english_pages_list_the_games_by_their_english_names(client):
    for name in ("home", "rules_index", "play_computer", "faq", "ranking"):
        html = get(client, reverse(name), "en")
        for polish in ("Cztery w rzędzie", "Kropki i kwadraty", "Piłkarzyki"):
            assert polish not in html, (name, polish)
    home = get(client, reverse("home"), "en")
    assert all(english in home for english in ENGLISH.values())
    assert "Dots 10×10, quick" in get(client, reverse("play_computer"), "en")
    pl = get(client, reverse("home"), "pl")
    assert all(polish in pl for polish in POLISH.values())


def test_variant_names_in_both_languages():
    from django.utils import translation

    with translation.override("en"):
        assert str(catalogue.variant_name("kropki-20")) == "Dots 20×20, large"
        assert str(catalogue.variant_name("pilkarzyki")) == "Paper Soccer"
    with translation.override("pl"):
        assert str(catalogue.variant_name("kropki-20")) == "Kropki 20×20, duża"
        assert str(catalogue.variant_name("cztery-w-rzedzie")) == "Cztery w rzędzie"


def test_no_variant_name_has_brackets_of_its_own():
    """A name is put in brackets or after " · " on the pages: its own brackets would nest
    (issue 41: "Dots 10×10, quick" as "Kropki 10×10, szybka")."""
    from django.utils import translation

    for language in ("en", "pl"):
        with translation.override(language):
            for key in catalogue.variant_keys():
                name = str(catalogue.variant_name(key))
                assert "(" not in name and ")" not in name, (language, name)


def test_dates_are_day_first_in_english_and_polish(client, alice, bob):
    match = make_match(alice, bob)
    play_moves(match, PINK_WINS)
    at = datetime.datetime(2026, 12, 1, 20, 16, tzinfo=datetime.UTC)  # 21:16 in Warsaw
    Match.objects.filter(pk=match.pk).update(finished_at=at, created_at=at)
    record = reverse("record", args=[match.pk])
    assert ">1 Dec 2026, 21:16</time>" in get(client, record, "en")
    assert ">1.12.2026, 21:16</time>" in get(client, record, "pl")
    profile = get(client, reverse("profile", args=["alice"]), "en")
    assert "1 Dec 2026, 21:16" in profile and "12/01/2026" not in profile
    joined = timezone.localtime(alice.date_joined)
    assert f"Playing since {joined.day} {joined:%b} {joined.year}" in profile


def test_the_cached_home_picture_is_named_in_its_own_language_whatever_is_active():
    """games/views/rules.py ``_home_picture`` is cached by (game, language): the title it draws
    is in that language even when first drawn while another one is active (issue 41)."""
    from django.utils import translation

    from games.views.rules import _home_picture

    _home_picture.cache_clear()
    try:
        with translation.override("pl"):
            english = _home_picture("pilkarzyki", "en")
        assert "Paper Soccer" in english and "Piłkarzyki" not in english
    finally:
        _home_picture.cache_clear()
