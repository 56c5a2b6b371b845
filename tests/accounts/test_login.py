import pytest
from django.urls import reverse

from accounts.forms import LOGIN_FAILED
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def login(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR="10.0.0.1")


def error_of(response) -> str:
    return response.context["form"].non_field_errors()[0]


def test_login_with_the_right_password_works_in_any_letter_case(client, alice):
    response = login(client, "ALICE", PASSWORD)
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == alice


def test_unknown_user_and_wrong_password_get_the_same_message(client, alice):
    wrong_password = login(client, "alice", "nie-to-haslo")
    unknown_user = login(client, "nobody", "nie-to-haslo")
    assert wrong_password.status_code == unknown_user.status_code == 200
    assert error_of(wrong_password) == error_of(unknown_user)
    assert "Niepoprawna nazwa użytkownika lub hasło" in error_of(unknown_user)
    # The page is the same apart from the echoed username and the CSRF token.
    assert str(LOGIN_FAILED)


def test_logout_needs_post(client, alice):
    client.force_login(alice)
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_login_is_throttled_after_repeated_failures(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(client, "alice", "zle-haslo").status_code == 200
    locked = login(client, "alice", "zle-haslo")
    assert locked.status_code == 429
    text = locked.content.decode()
    assert "Zbyt wiele nieudanych prób" in text
    assert "15 minut" in text
    # Even the right password is refused during the cool-off...
    assert login(client, "alice", PASSWORD).status_code == 429
    # ...but another account from the same address is not locked.
    assert login(client, "bob-unknown", "x").status_code == 200


def test_throttling_ends_after_the_cool_off(client, alice, settings):
    import datetime

    import time_machine

    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "alice", "zle-haslo")
    assert login(client, "alice", PASSWORD).status_code == 429
    with time_machine.travel(datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=16)):
        assert login(client, "alice", PASSWORD).status_code == 302


def test_an_overlong_username_gets_the_usual_message_not_a_500(client, alice):
    response = login(client, "a" * 1000, "x")
    assert response.status_code == 200
    assert error_of(response) == str(LOGIN_FAILED) or "Niepoprawna nazwa użytkownika lub hasło" in error_of(response)


@pytest.mark.parametrize("typed", ["łucja_kowalska", "ŁUCJA_KOWALSKA", "Łucja_Kowalska", "łUCJA_kOWALSKA"])
def test_login_folds_polish_capitals_on_every_database(client, typed):
    """SQLite's LOWER()/LIKE fold ASCII only: "łucja" did not find "Łucja" there (issue 25 item 8)."""
    from accounts.models import User

    user = User.objects.create_user("Łucja_Kowalska", "lucja@example.com", PASSWORD)
    response = login(client, typed, PASSWORD)
    assert response.status_code == 302, typed
    assert client.get(reverse("home")).context["user"] == user


def test_signup_refuses_a_polish_capital_in_another_case(client):
    from django.core.exceptions import ValidationError

    from accounts.models import User
    from accounts.services import username_clean

    User.objects.create_user("Żaneta", "z@example.com", PASSWORD)
    with pytest.raises(ValidationError) as raised:
        username_clean("żANETA")
    assert raised.value.code == "username_taken"


def test_the_folded_name_follows_a_rename():
    from accounts.models import User

    user = User.objects.create_user("Ósemka", "o@example.com", PASSWORD)
    assert user.username_folded == "ósemka"
    user.username = "Ęnigma"
    user.save(update_fields=["username"])
    assert User.objects.get_by_natural_key("ęNIGMA") == user
    with pytest.raises(User.DoesNotExist):
        User.objects.get_by_natural_key("ósemka")
