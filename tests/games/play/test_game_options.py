"""A casual game's own settings (SPEC.md "Kropki: options"): chosen in a challenge by link, a
direct challenge and on the computer page, kept on the challenge and the match
(``Match.params``), played by the engine they make, refused in a rated game, and named by
the challenge page, the match page, the record and its exports."""

from __future__ import annotations

import json

import pytest

from games import catalogue
from games.kropki.engine import Kropki
from games.models import Challenge, Match
from games.play import challenges
from games.play.creating import match_create
from games.play.moves import match_play
from games.selectors.state import match_state
from kropki_site.lib.refusals import Refusal

pytestmark = pytest.mark.django_db

BIG_MARGIN = {"kropki-board": "40x40", "kropki-start": "cross", "kropki-margin": "1"}


def test_the_game_types_own_settings_are_no_options():
    assert catalogue.game_params("kropki-10", {}) == {}
    assert catalogue.game_params("kropki-10", {"kropki-board": "10x10", "kropki-margin": ""}) == {}
    assert catalogue.game_params("kropki-39x32-cross", {"kropki-start": "cross"}) == {}
    assert catalogue.game_params("cztery-w-rzedzie", {"kropki-margin": "15"}) == {}  # another game's fields


def test_options_make_the_whole_parameters():
    params = catalogue.game_params("kropki-10", BIG_MARGIN | {"kropki-penalty": "on", "kropki-territory": "on"})
    assert params == {"width": 40, "height": 40, "start": "cross", "margin": 1, "penalty": True, "territory": True}
    assert catalogue.game_params("kropki-39x32-cross", {"kropki-start": "empty"}) == {"width": 39, "height": 32}


@pytest.mark.parametrize(
    "chosen", [{"kropki-margin": "2"}, {"kropki-board": "41x41"}, {"kropki-start": "x"}, {"kropki-penalty": True}]
)
def test_a_value_no_choice_has_is_refused(chosen):
    with pytest.raises(Refusal) as refused:
        catalogue.game_params("kropki-10", chosen)
    assert refused.value.code == "bad_options"


def test_a_rated_challenge_with_options_is_refused(alice, bob):
    with pytest.raises(Refusal) as refused:
        challenges.challenge_create(user_id=alice.pk, variant="kropki-10", rated=True, options={"kropki-margin": "15"})
    assert refused.value.code == "options_are_casual"
    assert not Challenge.objects.exists()
    with pytest.raises(Refusal) as refused:
        match_create(variant="kropki-10", pink_id=alice.pk, blue_id=bob.pk, rated=True, params={"margin": 1})
    assert refused.value.code == "options_are_casual"
    assert not Match.objects.exists()


def test_a_challenge_by_link_carries_its_options_to_the_match(client, alice, bob):
    client.force_login(alice)
    form = client.get("/wyzwanie/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'data-game-options="kropki"' in form and 'name="kropki-margin"' in form
    assert 'data-game="kropki"' in form
    made = client.post("/wyzwanie/", {"variant": "kropki-10", "mode": "casual", "kind": "link", **BIG_MARGIN})
    assert made.status_code == 302
    challenge = Challenge.objects.get()
    assert challenge.params == {"width": 40, "height": 40, "start": "cross", "margin": 1}
    page = client.get(made.url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Plansza: 40×40" in page and "Wygrana przewagą: przewaga 1" in page
    client.force_login(bob)
    accepted = client.post(f"{made.url}przyjmij/")
    assert accepted.status_code == 302
    match = Match.objects.get()
    assert match.params == challenge.params and not match.rated
    game = match_state(match).game
    assert isinstance(game, Kropki) and (game.width, game.height, game.margin) == (40, 40, 1)
    far = 39 * 40 + 39  # the last point of the 40×40 board: off a 10×10 one
    match_play(match_id=match.pk, user_id=match.pink_id, ply=0, action=far)
    match.refresh_from_db()
    assert match.history == [far]
    assert "Plansza: 40×40" in client.get(f"/partia/{match.pk}/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()


def test_a_rated_challenge_by_link_with_options_says_why_not(client, alice):
    client.force_login(alice)
    page = client.post(
        "/wyzwanie/",
        {"variant": "kropki-10", "mode": "rated", "kind": "link", "kropki-penalty": "on"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert page.status_code == 400
    assert "casual" in page.content.decode() and not Challenge.objects.exists()
    # the form keeps what was chosen
    assert '<option value="on" selected>' in page.content.decode()


def test_a_direct_challenge_names_its_options_to_both(alice, bob):
    challenge = challenges.challenge_direct_create(
        user_id=alice.pk, target_name="bob", variant="kropki-20", rated=False, options={"kropki-territory": "on"}
    )
    assert challenge.params == {"width": 20, "height": 20, "territory": True}
    assert challenges.options_text(challenge, "en") == "Empty rings at the end: scored (territory)"
    assert challenges.options_text(challenge, "pl") == "Puste pętle na końcu: liczone (baseny)"
    match = challenges.challenge_direct_answer(challenge_id=challenge.pk, user_id=bob.pk, accept=True)
    assert match is not None and match.params == challenge.params


def _play_margin_game(match: Match) -> None:
    """Pink closes a diamond around blue e5 (e4 f5 e6 d5): one dot, the margin of 1."""
    game = match.game()
    pink = ["e4", "f5", "e6", "d5"]
    blue = ["e5", "a1", "a2"]
    ply = 0
    for i, move in enumerate(pink):
        for side, name in ((match.pink_id, move), (match.blue_id, blue[i] if i < len(blue) else None)):
            if name is None:
                continue
            match_play(match_id=match.pk, user_id=side, ply=ply, action=game.string_to_action(name))
            ply += 1


def test_a_margin_game_ends_on_the_margin_and_its_record_and_exports_say_so(client, alice, bob):
    match = match_create(
        variant="kropki-10", pink_id=alice.pk, blue_id=bob.pk, params={"width": 10, "height": 10, "margin": 1}
    )
    _play_margin_game(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert (match.winner, match.end_reason, match.pink_score, match.blue_score) == (1, "margin", 1, 0)
    record = client.get(f"/partia/{match.pk}/zapis/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Win by a margin: a lead of 1" in record
    assert "the lead reached the agreed margin" in record
    data = json.loads(client.get(f"/partia/{match.pk}/eksport.json").content)
    assert data["params"]["margin"] == 1
    sgf = client.get(f"/partia/{match.pk}/eksport.sgf").content.decode()
    assert "RU[margin:1]" in sgf


def test_the_penalty_can_leave_a_score_below_zero(alice, bob):
    match = match_create(
        variant="kropki-10", pink_id=alice.pk, blue_id=bob.pk, params={"width": 10, "height": 10, "penalty": True}
    )
    game = match.game()
    ring = ["d5", "d6", "d7", "d8", "e9", "f9", "g9", "h9", "i8", "i7", "i6", "i5", "h4", "g4", "f4", "e4"]
    blue = ["f6", "g7", *ring]
    pink = ["e5", *[f"{c}{r}" for r in (1, 2) for c in "abcdefghij"][: len(blue) - 1]]
    ply = 0
    for p, b in zip(pink, blue, strict=True):
        for side, name in ((match.pink_id, p), (match.blue_id, b)):
            match_play(match_id=match.pk, user_id=side, ply=ply, action=game.string_to_action(name))
            ply += 1
    match.refresh_from_db()
    assert (match.pink_score, match.blue_score) == (0, -1)


def test_the_computer_page_offers_and_keeps_the_options(client):
    page = client.get("/graj/komputer/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'data-game-options="kropki"' in page and 'data-game="kropki"' in page
    started = client.post(
        "/graj/komputer/",
        {
            "variant": "kropki-10",
            "level": "latwy",
            "colour": "pink",
            "kropki-start": "two_crosses",
            "kropki-margin": "15",
        },
    )
    assert started.status_code == 302
    match = Match.objects.get()
    assert match.params == {"width": 10, "height": 10, "start": "two_crosses", "margin": 15}
    assert len(match_state(match).view()["dots"]) == 8
    refused = client.post(
        "/graj/komputer/", {"variant": "kropki-10", "level": "latwy", "colour": "pink", "kropki-margin": "7"}
    )
    assert refused.status_code == 400 and Match.objects.count() == 1


def test_a_rematch_and_new_game_keep_the_settings(client, alice, bob):
    from games.play.offers import match_offer_rematch
    from games.views.match import _next_game

    params = {"width": 10, "height": 10, "margin": 1}
    match = match_create(variant="kropki-10", pink_id=alice.pk, blue_id=bob.pk, params=params)
    _play_margin_game(match)
    match_offer_rematch(match_id=match.pk, user_id=alice.pk)
    match = match_offer_rematch(match_id=match.pk, user_id=bob.pk)
    assert match.rematch is not None and match.rematch.params == params
    assert (match.rematch.pink_id, match.rematch.blue_id) == (bob.pk, alice.pk)
    again = _next_game(match, 1)
    assert again is not None and again["fields"] == {"variant": "kropki-10", "mode": "casual", "kropki-margin": "1"}
    client.force_login(alice)
    assert client.post(again["url"], again["fields"]).status_code == 302
    assert Challenge.objects.get(creator=alice).params == params


def test_an_open_challenge_with_options_says_them_in_the_lobby(client, alice):
    challenges.challenge_create(
        user_id=alice.pk, variant="kropki-20", rated=False, listed=True, options={"kropki-start": "cross"}
    )
    lobby = client.get("/graj/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Starting position: from a cross" in lobby
