"""Playing the computer: guests, the computer's turn, never rated, kept after sign-up."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games import play as services
from games.catalogue import variant_keys
from games.models import Match, Move
from games.play.computer import match_bot_turn
from kropki_site.lib.refusals import Refusal

pytestmark = pytest.mark.django_db


def start(client, **data):
    payload = {"variant": "cztery-w-rzedzie", "level": "latwy", "colour": "pink", **data}
    response = client.post(reverse("play_computer"), payload)
    assert response.status_code == 302
    return Match.objects.latest("pk")


def test_the_page_offers_every_game_and_level(client):
    response = client.get(reverse("play_computer"))
    assert response.status_code == 200
    body = response.content.decode()
    for value in (*variant_keys(), "latwy", "sredni", "trudny"):
        assert f'value="{value}"' in body


def test_a_visitor_without_account_gets_a_guest_and_a_match(client):
    match = start(client)
    guest = User.objects.get(pk=match.pink_id)
    assert guest.is_guest and not guest.has_usable_password()
    assert match.blue_id is None and match.bot_level == "latwy" and match.bot_side == 2
    assert not match.rated
    # the same browser keeps the same guest
    second = start(client)
    assert second.pink_id == guest.pk


def test_bad_choices_are_refused_with_a_form_error(client):
    response = client.post(reverse("play_computer"), {"variant": "chess", "level": "latwy", "colour": "pink"})
    assert response.status_code == 400
    assert Match.objects.count() == 0 and User.objects.count() == 0


def test_the_computer_answers_a_move_and_only_the_human_has_a_clock(client):
    match = start(client)
    assert match.turn_deadline is not None  # the human moves first
    services.match_play(match_id=match.pk, user_id=match.pink_id, ply=0, action=3)
    match.refresh_from_db()
    assert match.to_move == 2 and match.turn_deadline is None
    assert match_bot_turn(match_id=match.pk, ply=1)
    match.refresh_from_db()
    assert match.ply == 2 and match.to_move == 1 and match.turn_deadline is not None
    assert Move.objects.get(match=match, ply=2).player == 2


def test_a_late_or_repeated_computer_task_does_nothing(client):
    match = start(client, colour="blue")
    assert match.bot_side == 1 and match.to_move == 1
    assert match_bot_turn(match_id=match.pk, ply=0)
    assert not match_bot_turn(match_id=match.pk, ply=0)
    match.refresh_from_db()
    assert match.ply == 1


@pytest.mark.parametrize("variant", variant_keys())
def test_the_computer_plays_every_game(client, variant):
    match = start(client, variant=variant, colour="blue", level="sredni")
    assert match_bot_turn(match_id=match.pk, ply=0)
    match.refresh_from_db()
    assert match.ply == 1


def test_no_draw_agreement_with_the_computer(client):
    match = start(client)
    with pytest.raises(Refusal) as exc:
        services.match_offer_draw(match_id=match.pk, user_id=match.pink_id)
    assert exc.value.code == "draw_unavailable"


def test_signing_up_keeps_the_matches_played_as_a_guest(client):
    match = start(client)
    guest_id = match.pink_id
    response = client.post(
        reverse("signup"),
        {
            "username": "Zosia",
            "email": "zosia@example.com",
            "password1": "kropka-Trudna-2024",
            "password2": "kropka-Trudna-2024",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="Zosia")
    assert user.pk == guest_id and not user.is_guest and user.check_password("kropka-Trudna-2024")
    assert Match.objects.filter(pink_id=user.pk).count() == 1


def test_a_guest_is_sent_to_sign_up_for_ranked_play_and_challenges(client, alice):
    start(client)
    guest = User.objects.get(is_guest=True)
    response = client.post(reverse("queue_join"), {"variant": "cztery-w-rzedzie"})
    assert response.status_code == 302 and response["Location"] == reverse("signup")
    from games.models import Seek

    assert not Seek.objects.filter(user=guest).exists()
    with pytest.raises(Refusal) as exc:
        services.challenge_create(user_id=guest.pk, variant="cztery-w-rzedzie", rated=True)
    assert exc.value.code == "account_required"
    challenge = services.challenge_create(user_id=alice.pk, variant="cztery-w-rzedzie", rated=True)
    with pytest.raises(Refusal) as exc:
        services.challenge_accept(token=challenge.token, user_id=guest.pk)
    assert exc.value.code == "account_required"
