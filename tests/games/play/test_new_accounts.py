"""Issue 24 items 3 and 9: sign-up floods, what a brand-new account may not do, rating farming.

Free accounts multiplied every per-account limit (25 accounts in 23 s from one address), and
five rated wins against throw-away accounts took a rating from 1500 to 2033."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import PairFlag, User
from games import play
from games.models import Match
from games.play import chat, matchmaking, trust
from games.play.challenges import challenge_direct_create
from kropki_site.lib.refusals import Refusal
from ratings.models import Rating, RatingChange
from tests.conftest import PASSWORD
from tests.factories import PINK_WINS
from tests.helpers import C4, play_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_accounts_gated(settings):
    settings.NEW_ACCOUNT_MINUTES = 60
    settings.NEW_ACCOUNT_GAMES = 3


def age(user, minutes: int) -> None:
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(minutes=minutes))


def refused(code, fn, **kwargs):
    with pytest.raises(Refusal) as info:
        fn(**kwargs)
    assert info.value.code == code, info.value
    return info.value


def win(match):
    """Pink wins a Cztery w rzędzie match (column 0 against column 1)."""
    play_moves(match, PINK_WINS)
    assert match.status == Match.Status.FINISHED


def sign_up(client, name, ip):
    return client.post(
        reverse("signup"),
        {"username": name, "email": f"{name}@example.com", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=ip,
    )


# -- item 3: sign-up is throttled per address ----------------------------------------------------


def test_twenty_five_sign_ups_from_one_address_make_at_most_the_limit(settings):
    settings.SIGNUPS_PER_IP = 3
    statuses = [sign_up(Client(), f"konto{i}", "203.0.113.5").status_code for i in range(25)]
    assert statuses[:3] == [302] * 3 and set(statuses[3:]) == {429}
    assert User.objects.count() == 3
    page = sign_up(Client(), "konto-x", "203.0.113.5").content.decode()
    assert "Z Twojej sieci założono w ostatniej godzinie wiele kont" in page
    assert sign_up(Client(), "inny", "198.51.100.7").status_code == 302  # another address is not counted


def test_an_invalid_form_does_not_spend_the_addresss_sign_ups(settings):
    settings.SIGNUPS_PER_IP = 1
    bad = Client().post(
        reverse("signup"), {"username": "x", "password1": "a", "password2": "b"}, REMOTE_ADDR="203.0.113.5"
    )
    assert bad.status_code == 200
    assert sign_up(Client(), "dobre", "203.0.113.5").status_code == 302


# -- item 3 and 9: what a brand-new account may not do --------------------------------------------


def test_a_brand_new_account_is_refused_rated_play_reports_and_strangers(
    new_accounts_gated, alice, bob, charlie, make_match
):
    age(bob, 24 * 60)
    with translation.override("pl"):
        error = refused("account_too_new", play.challenge_create, user_id=alice.pk, variant=C4, rated=True)
    assert "60 min" in error.message and "3 ukończonych" in error.message
    refused("account_too_new", matchmaking.seek_create, user=alice, variants=[C4])
    refused("account_too_new", challenge_direct_create, user_id=alice.pk, target_name="bob", variant=C4, rated=False)
    match = make_match(C4)
    refused("account_too_new", chat.report_create, reporter_id=alice.pk, match_id=match.pk, reported_id=bob.pk)
    rated = play.challenge_create(user_id=bob.pk, variant=C4, rated=True)
    refused("account_too_new", play.challenge_accept, token=rated.token, user_id=charlie.pk)
    # Unrated play is open: a link challenge, the computer.
    casual = play.challenge_create(user_id=alice.pk, variant=C4, rated=False)
    assert play.challenge_accept(token=casual.token, user_id=charlie.pk).rated is False


def test_five_rated_wins_against_throwaway_accounts_farm_nothing(new_accounts_gated, alice, make_user):
    age(alice, 24 * 60)
    challenge_links = [play.challenge_create(user_id=alice.pk, variant=C4, rated=True) for _ in range(3)]
    for i, challenge in enumerate(challenge_links):
        throwaway = make_user(f"throwaway{i}")
        refused("account_too_new", play.challenge_accept, token=challenge.token, user_id=throwaway.pk)
    assert not RatingChange.objects.exists()


def test_an_account_is_established_by_age_or_by_finished_games(new_accounts_gated, alice, bob, make_match):
    age(alice, 61)
    assert trust.minutes_left(User.objects.get(pk=alice.pk)) == 0
    assert trust.minutes_left(bob) in (59, 60)
    for _ in range(3):
        win(make_match(C4, rated=False, pink=bob, blue=alice))
    assert trust.minutes_left(User.objects.get(pk=bob.pk)) == 0
    play.challenge_create(user_id=bob.pk, variant=C4, rated=True)


def test_a_new_account_may_challenge_a_player_it_has_played(new_accounts_gated, alice, bob, make_match):
    age(bob, 24 * 60)
    win(make_match(C4, rated=False))
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=False)
    refused("account_too_new", challenge_direct_create, user_id=alice.pk, target_name="bob", variant=C4, rated=True)


# -- item 9: a pair's repeated rated games, a shared address ----------------------------------------


def test_a_pairs_rated_games_beyond_the_days_few_do_not_move_ratings(alice, bob, make_match, settings):
    settings.RATED_GAMES_PER_PAIR_PER_DAY = 3
    for _ in range(5):
        win(make_match(C4, rated=True))
    assert RatingChange.objects.filter(user=alice).count() == 3
    assert Rating.objects.get(user=alice, variant=C4).games == 3
    # ...a day later they count again
    RatingChange.objects.update(created_at=timezone.now() - timedelta(hours=25))
    win(make_match(C4, rated=True))
    assert RatingChange.objects.filter(user=alice).count() == 4


def test_a_pair_that_logged_in_from_one_address_is_flagged_for_staff(alice, bob, charlie, make_match, admin_client):
    for user in (alice, bob):
        Client().post(reverse("login"), {"username": user.username, "password": PASSWORD}, REMOTE_ADDR="192.0.2.8")
    Client().post(reverse("login"), {"username": "charlie", "password": PASSWORD}, REMOTE_ADDR="198.51.100.3")
    win(make_match(C4, rated=True))
    win(make_match(C4, rated=True, pink=alice, blue=charlie))
    flags = list(PairFlag.objects.values_list("user_a", "user_b", "reason", "games"))
    assert flags == [(alice.pk, bob.pk, "shared_address", 1)]
    page = admin_client.get(reverse("admin:accounts_pairflag_changelist")).content.decode()
    assert "alice" in page and "bob" in page
