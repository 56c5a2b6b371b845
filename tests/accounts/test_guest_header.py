"""A guest (who only played the computer) is not shown as a member: "Gość",
and the ways to an account (sign up keeps the guest's games, or log in)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Match
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest_client(client):
    response = client.post(
        reverse("play_computer"), {"variant": "cztery-w-rzedzie", "level": "latwy", "colour": "pink"}
    )
    assert response.status_code == 302
    return client


def test_a_guest_sees_guest_and_sign_up_not_a_member_name_and_log_out(guest_client):
    guest = User.objects.get(is_guest=True)
    html = guest_client.get(reverse("home")).content.decode()
    assert 'data-testid="guest-label">Gość<' in html
    assert f'href="{reverse("signup")}" class="button" data-testid="guest-signup">Załóż konto<' in html
    assert 'data-testid="home-signup"' in html and 'data-testid="guest-note"' in html
    assert guest.username not in html
    assert "Wyloguj się" not in html


def test_a_member_sees_their_name_and_log_out(client, alice):
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    assert 'data-testid="account-link">alice<' in html and "Wyloguj się" in html
    assert 'data-testid="guest-label"' not in html and 'data-testid="home-signup"' not in html


def test_a_guest_can_open_log_in_and_become_a_member(guest_client, alice):
    assert guest_client.get(reverse("login")).status_code == 200  # not bounced home as if logged in
    response = guest_client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert guest_client.get(reverse("home")).context["user"] == alice


def test_signing_up_from_the_guest_header_keeps_the_guests_games(guest_client):
    match = Match.objects.get()
    guest_client.post(
        reverse("signup"),
        {"username": "Zosia", "email": "zosia@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    user = User.objects.get(username="Zosia")
    assert not user.is_guest and match.pink_id == user.pk
    html = guest_client.get(reverse("home")).content.decode()
    assert 'data-testid="account-link">Zosia<' in html and 'data-testid="guest-label"' not in html


def test_the_members_name_opens_their_profile_and_settings_keep_a_link(client, alice):
    """Issue 25 item 7: the name in the header opened Settings; nothing led to one's own profile."""
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    profile = reverse("profile", kwargs={"username": "alice"})
    assert f'<a href="{profile}" class="account-link" data-testid="account-link">alice</a>' in html
    settings_link = f'<a href="{reverse("account_settings")}" class="settings-link" data-testid="settings-link">'
    assert settings_link in html
    assert '<span class="settings-long">Ustawienia</span>' in html
    assert client.get(profile).status_code == 200


@pytest.mark.parametrize(("accept", "language"), [("en", "en"), ("pl", "pl")])
def test_a_guest_keeps_the_language_the_visitor_was_reading(client, accept, language):
    """A visitor reading in English who starts a game against the computer goes on in English
    (the guest made for them reads the pages in the visitor's language, not Polish by default)."""
    from accounts.models import User

    made = client.post(
        "/graj/komputer/",
        {"variant": "cztery-w-rzedzie", "level": "latwy", "colour": "pink"},
        HTTP_ACCEPT_LANGUAGE=accept,
    )
    assert made.status_code == 302
    assert User.objects.get(is_guest=True).language == language
    page = client.get(made.url, HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert f'<html lang="{language}">' in page
