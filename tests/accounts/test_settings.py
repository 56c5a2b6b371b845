import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_settings_needs_login(client):
    assert client.get(reverse("account_settings")).status_code == 302


def test_choosing_english_is_stored_and_applied(client, alice):
    client.force_login(alice)
    response = client.post(reverse("account_settings"), {"language": "en"}, follow=True)
    alice.refresh_from_db()
    assert alice.language == "en"
    assert response["Content-Language"] == "en"
    assert "Settings saved." in response.content.decode()
    # Applied on a fresh session too: the language follows the user, not the cookie.
    client.cookies.clear()
    client.force_login(alice)
    assert client.get(reverse("home"))["Content-Language"] == "en"


def test_an_unknown_language_is_rejected(client, alice):
    client.force_login(alice)
    response = client.post(reverse("account_settings"), {"language": "de"})
    assert response.status_code == 200
    assert "language" in response.context["form"].errors
    alice.refresh_from_db()
    assert alice.language == "pl"


def test_header_language_switch_sets_cookie_and_user(client, alice):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/zasady/"})
    assert response.status_code == 302 and response["Location"] == "/zasady/"
    assert client.get(reverse("home"))["Content-Language"] == "en"
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "en"


def test_language_switch_refuses_a_foreign_next(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "https://evil.example/"})
    assert response["Location"] == "/"
