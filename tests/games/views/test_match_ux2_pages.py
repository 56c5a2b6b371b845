"""The match page's words and settings, round two (issue 25, items 2-6, 10, 11): each
game's knowledge from its catalogue entry, in Polish and in English."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import play as games_play
from games.catalogue import game_spec
from games.catalogue import variant as get_variant
from games.display.snapshot import match_snapshot, move_words
from games.pilkarzyki import board as pilkarzyki_board
from games.selectors.match import snapshot_rows
from tests import factories, helpers

pytestmark = pytest.mark.django_db


def _json(html: str, name: str) -> dict:
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S)
    assert found, name
    return json.loads(found.group(1))


def _page(client, user, match, lang: str = "pl") -> str:
    client.force_login(user)
    client.cookies["kropki_language"] = lang
    user.language = lang
    user.save(update_fields=["language"])
    return client.get(reverse("match", args=[match.pk])).content.decode()


def test_pilkarzyki_moves_are_words_of_the_page_language():
    game = get_variant("pilkarzyki").game()
    with translation.override("pl"):
        assert move_words(game, [0, 3, 6, 7], {}) == ["góra", "dół-prawo", "lewo", "góra-lewo"]
    with translation.override("en"):
        assert move_words(game, [0, 3, 6, 7], {}) == ["N", "SE", "W", "NW"]
    # other games keep their coordinates
    with translation.override("pl"):
        assert move_words(get_variant("kropki-10").game(), [44], {}) == ["e5"]


def test_the_snapshot_says_who_made_each_move_a_bounce_included(make_match, alice, bob):
    match = make_match("pilkarzyki")
    state = get_variant("pilkarzyki").game().new_initial_state()
    expected = []
    for action in (0, 3, 6):  # the third kick bounces: pink kicks again
        expected.append(state.current_player())
        helpers.play(match, alice if state.current_player() == 1 else bob, action)
        state.apply_action(action)
    action = state.legal_actions()[0]
    expected.append(state.current_player())
    helpers.play(match, alice, action)
    match.refresh_from_db()
    assert expected == [1, 2, 1, 1]
    assert match_snapshot(match, snapshot_rows(match))["movers"] == expected


def test_the_page_words_the_bounce_and_the_live_moves_in_each_language(client, make_match, alice):
    match = make_match("pilkarzyki")
    strings = _json(_page(client, alice, match, "pl"), "match-strings")
    assert strings["again_you"].startswith("Odbicie!")
    assert strings["again_other"] == "Odbicie! %(name)s kopie jeszcze raz."
    assert strings["notation"]["NE"] == "góra-prawo"
    strings = _json(_page(client, alice, match, "en"), "match-strings")
    assert strings["again_other"] == "Bounce! %(name)s kicks again."
    assert strings["notation"]["NE"] == "NE"
    # Kropki i kwadraty keeps its own words; Kropki has none (its lone player is told otherwise)
    dab = _json(_page(client, alice, make_match("kropki-i-kwadraty"), "pl"), "match-strings")
    assert dab["again_you"] == "Dodatkowy ruch! Kwadrat zamknięty: grasz jeszcze raz."
    assert _json(_page(client, alice, make_match("kropki-10"), "pl"), "match-strings")["again_you"] == ""


@pytest.mark.parametrize(
    ("variant", "scored"),
    [
        ("kropki-10", True),
        ("kropki-i-kwadraty", True),
        ("cztery-w-rzedzie", False),
        ("pilkarzyki", False),
    ],
)
def test_score_cards_only_for_games_with_a_score(client, make_match, alice, variant, scored):
    html = _page(client, alice, make_match(variant))
    assert ('data-testid="score-1"' in html) is scored
    assert game_spec(get_variant(variant).game_slug).scored is scored


def test_the_page_says_which_goal_is_yours(client, make_match, alice, bob, charlie):
    match = make_match("pilkarzyki")
    html = _page(client, alice, match, "pl")
    assert "Atakujesz górną bramkę (w Twoim kolorze), bronisz dolnej." in html
    html = _page(client, bob, match, "en")
    assert "You attack the bottom goal (tinted in your colour) and defend the top one." in html
    assert 'data-testid="player-note"' not in _page(client, charlie, match, "pl")  # a spectator
    assert 'data-testid="player-note"' not in _page(client, alice, make_match("kropki-10"), "pl")


def test_a_cztery_w_rzedzie_record_has_no_column_of_zero_points(client, make_match, alice, bob):
    match = make_match("cztery-w-rzedzie")
    helpers.play_moves(match, factories.PINK_WINS)
    client.cookies["kropki_language"] = "pl"
    html = client.get(reverse("record", args=[match.pk])).content.decode()
    assert "Wygrywają różowe" in html and ">Punkty<" not in html
    kropki = make_match("kropki-10")
    helpers.play(kropki, alice, 44)
    helpers.play(kropki, bob, 45)
    games_play.match_resign(match_id=kropki.pk, user_id=bob.pk)  # a finished record
    assert ">Punkty<" in client.get(reverse("record", args=[kropki.pk])).content.decode()


def test_end_and_error_words_in_both_languages(client, make_match, alice):
    match = make_match("kropki-10")
    for lang, words in {
        "pl": {
            "ended_you_play_on": "%(name)s: koniec gry; możesz grać dalej w pojedynkę.",
            "you_ended_computer": "Gra zakończona przez Ciebie; komputer gra teraz dalej w pojedynkę, aż też zakończy.",
            "new_tab": "(otwiera się w nowej karcie)",
            "not_your_turn": "Teraz ruch przeciwnika.",
            "low_time": "Zostało %(s)s s na Twój ruch.",
        },
        "en": {
            "ended_you_play_on": "%(name)s has ended the game; you may play on alone.",
            "you_ended_computer": "You have ended the game; the computer now plays on alone until it ends too.",
            "new_tab": "(opens in a new tab)",
            "not_your_turn": "It is your opponent's turn.",
            "low_time": "%(s)s seconds left for your move.",
        },
    }.items():
        html = _page(client, alice, match, lang)
        strings = _json(html, "match-strings")
        for key, text in words.items():
            assert strings[key] == text, (lang, key)
        assert "drugi gracz" not in strings["ended_you_play_on"]
        assert re.search(r'id="rules-link"[^>]*target="_blank"[^>]*rel="noopener"', html)
        assert f'<span class="visually-hidden"> {words["new_tab"]}</span>' in html


def test_the_page_hands_the_players_settings_to_the_script(client, make_match, alice):
    alice.low_time_seconds, alice.tap_confirm, alice.notify_sound = 15, "on", False
    alice.save()
    page = _json(_page(client, alice, make_match("kropki-20")), "match-page")
    assert page["settings"] == {"low_time": 15, "sound": False, "tap_confirm": "on", "remember_locally": False}
    assert page["tap_confirm"] is True  # Kropki's small targets (its catalogue entry)
    assert _json(_page(client, alice, make_match("cztery-w-rzedzie")), "match-page")["tap_confirm"] is False


def test_settings_store_the_low_time_warning_and_tap_to_confirm(client, alice):
    client.force_login(alice)
    form = client.get(reverse("account_settings")).content.decode()
    assert 'name="low_time_seconds"' in form and 'value="10"' in form and 'name="tap_confirm"' in form
    response = client.post(
        reverse("account_settings"), {"language": "pl", "low_time_seconds": "5", "tap_confirm": "off"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.low_time_seconds, alice.tap_confirm) == (5, "off")
    # a field left out keeps its value
    client.post(reverse("account_settings"), {"language": "pl"})
    alice.refresh_from_db()
    assert (alice.low_time_seconds, alice.tap_confirm) == (5, "off")


@pytest.mark.parametrize(("lang", "message"), [("pl", "mniejsza lub równa 59"), ("en", "less than or equal to 59")])
def test_settings_refuse_a_warning_past_a_minute_in_the_visitors_language(client, alice, lang, message):
    alice.language = lang
    alice.save(update_fields=["language"])
    client.force_login(alice)
    response = client.post(
        reverse("account_settings"), {"language": lang, "low_time_seconds": "60", "tap_confirm": "sometimes"}
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert message in str(errors["low_time_seconds"]) and "tap_confirm" in errors
    alice.refresh_from_db()
    assert (alice.low_time_seconds, alice.tap_confirm) == (User.LOW_TIME_DEFAULT, "auto")


def test_pilkarzyki_top_row_digits_are_laid_out_as_the_keypad():
    keys = pilkarzyki_board.KEYS
    for digit in "12346789":
        assert keys[f"Digit{digit}"] == keys[f"Numpad{digit}"]
    assert (keys["Digit8"], keys["Digit9"], keys["Digit6"], keys["Digit2"]) == (0, 1, 2, 4)
    for lang, words in (("pl", "cyfry w górnym rzędzie"), ("en", "the top row's digits")):
        with open(f"templates/games/rules/pilkarzyki.{lang}.html", encoding="utf-8") as f:
            assert words in f.read()
