import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()


def signup(client, username="Zosia", email="zosia@example.com", password1=PASSWORD, password2=None):
    return client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": password1, "password2": password2 or password1},
    )


def test_signup_creates_the_user_and_logs_them_in(client):
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = User.objects.get(username="Zosia")
    assert user.email == "zosia@example.com"
    assert user.check_password(PASSWORD)
    assert user.language == "pl"
    assert client.get(reverse("home")).context["user"] == user


def test_signup_rejects_a_username_taken_in_another_case(client, make_user):
    make_user("Zosia")
    response = signup(client, username="zOSIA", email="other@example.com")
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == ["Ta nazwa użytkownika jest już zajęta."]
    assert User.objects.filter(username__iexact="zosia").count() == 1


def test_database_refuses_usernames_differing_only_in_case(make_user):
    make_user("Zosia")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="ZOSIA", email="z2@example.com", password=PASSWORD)


@pytest.mark.parametrize(
    "password1, password2, fragment",
    [
        ("abc", "abc", "za krótkie"),  # too short
        ("password123", "password123", "zbyt powszechne"),  # too common
        ("83749201736", "83749201736", "składa się wyłącznie z cyfr"),  # only digits
        (PASSWORD, PASSWORD + "x", "nie są zgodne"),  # mismatch
    ],
)
def test_signup_rejects_weak_or_mismatched_passwords(client, password1, password2, fragment):
    response = signup(client, password1=password1, password2=password2)
    assert response.status_code == 200
    assert fragment in response.content.decode()
    assert not User.objects.filter(username="Zosia").exists()


def test_signup_requires_a_valid_email(client):
    response = signup(client, email="not-an-email")
    assert response.status_code == 200
    assert "email" in response.context["form"].errors
    assert not User.objects.exists()


def test_signup_in_english_stores_english(client):
    client.cookies["kropki_language"] = "en"
    signup(client)
    assert User.objects.get(username="Zosia").language == "en"


def test_signup_page_needs_csrf(make_user):
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    response = csrf_client.post(reverse("signup"), {"username": "x"})
    assert response.status_code == 403


@pytest.mark.parametrize(
    "lang, username, email, password, sentence, wrong",
    [
        (
            "pl",
            "Zosia",
            "zosia@example.com",
            "zosia123",
            "Hasło jest zbyt podobne do Twojej nazwy użytkownika.",
            "nazwa użytkownika",
        ),
        (
            "pl",
            "Ola",
            "kasztanowa@example.com",
            "kasztanowa1",
            "Hasło jest zbyt podobne do Twojego adresu e-mail.",
            "adres e-mail.",
        ),
        (
            "en",
            "Zosia",
            "zosia@example.com",
            "zosia123",
            "The password is too similar to your username.",
            "the username",
        ),
    ],
)
def test_a_password_like_the_username_or_e_mail_is_refused_in_a_whole_sentence(
    client, lang, username, email, password, sentence, wrong
):
    """Django's message puts the field's name in as it is ("do nazwa użytkownika"):
    ours is a whole sentence in each language."""
    client.cookies["kropki_language"] = lang
    response = signup(client, username=username, email=email, password1=password)
    assert response.status_code == 200
    errors = [error for field in response.context["form"].errors.values() for error in field]
    assert sentence in errors
    assert not any(wrong in error for error in errors)
    assert not User.objects.filter(username=username).exists()


@pytest.mark.parametrize("next_url", ["0", "home", "signup", "x/y", "//evil.example/", "https://evil.example/"])
def test_a_next_that_is_not_a_path_of_the_site_goes_home_not_to_a_500(client, make_user, next_url):
    client.force_login(make_user("Zosia"))
    response = client.get(reverse("signup"), {"next": next_url})
    assert response.status_code == 302 and response["Location"] == reverse("home")
