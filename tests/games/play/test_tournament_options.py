"""A player-made tournament's games with their own settings (SPEC.md "Kropki: options":
"challenges, player-made tournaments and the computer"): an arena's and a Swiss's settings
are chosen by their forms, kept on the tournament, given to every game it pairs, named on
its page; a rated tournament with settings is refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match
from games.tournaments.models import Tournament
from games.tournaments.services import tournament_join, tournaments_pair
from games.tournaments.swiss.models import SwissBoard, SwissTournament
from games.tournaments.swiss.services import swiss_join, swiss_tick

pytestmark = pytest.mark.django_db

KROPKI_OPTIONS = {"variant": "kropki-10", "kropki-board": "20x20", "kropki-margin": "15", "kropki-territory": "on"}
PARAMS = {"width": 20, "height": 20, "margin": 15, "territory": True}


def test_an_arena_made_with_settings_pairs_games_with_them(client, alice, bob):
    client.force_login(alice)
    form = client.get(reverse("tournaments"), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'data-game-options="kropki"' in form and 'data-game="kropki"' in form
    made = client.post(
        reverse("tournament_new"),
        {**KROPKI_OPTIONS, "name": "Baseny", "start": "5", "minutes": "60", "move_seconds": "60", "public": "1"},
    )
    assert made.status_code == 302
    t = Tournament.objects.get(name="Baseny")
    assert t.params == PARAMS and not t.rated
    page = client.get(made["Location"]).content.decode()  # alice reads Polish
    assert "Plansza: 20×20" in page and "Puste pętle na końcu: liczone (baseny)" in page
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    [match] = tournaments_pair(now=t.starts_at)
    match = Match.objects.get(pk=match.pk)
    assert match.params == PARAMS and match.tournament_id == t.pk and not match.rated
    assert match.game().end_action == 20 * 20


def test_a_rated_arena_with_settings_is_refused_and_nothing_is_made(client, alice):
    client.force_login(alice)
    answer = client.post(
        reverse("tournament_new"),
        {**KROPKI_OPTIONS, "name": "Nie", "start": "5", "minutes": "60", "move_seconds": "60", "rated": "1"},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "options_are_casual"
    assert not Tournament.objects.exists()


def test_a_swiss_made_with_settings_pairs_games_with_them(client, alice, bob):
    client.force_login(alice)
    made = client.post(
        reverse("swiss_new"),
        {
            **KROPKI_OPTIONS,
            "name": "Szwajcar",
            "rounds": "3",
            "start": "5",
            "move_seconds": "60",
            "pause_seconds": "30",
        },
    )
    assert made.status_code == 302
    t = SwissTournament.objects.get(name="Szwajcar")
    assert t.params == PARAMS
    assert "Wygrana przewagą: przewaga 15" in client.get(made["Location"], HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    swiss_join(tournament_id=t.pk, user=alice)
    swiss_join(tournament_id=t.pk, user=bob)
    swiss_tick(now=t.starts_at)
    [board] = SwissBoard.objects.filter(tournament=t, round=1)
    assert board.match is not None and board.match.params == PARAMS
