"""Issue 12, item 8 (usernames): NFKC-normalised, unique by confusable skeleton
(Unicode TR39), reserved names refused - on sign-up and on a guest's sign-up
(the rename path)."""

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.guests import guest_create
from accounts.usernames import username_skeleton
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()

LOOKS_LIKE = "Ta nazwa użytkownika wygląda jak już istniejąca. Wybierz inną."
RESERVED = "Ta nazwa użytkownika jest zarezerwowana. Wybierz inną."
NO_LETTER = "Nazwa użytkownika musi zawierać co najmniej jedną literę lub cyfrę."


def signup(client, username, email="nowy@example.com", language="pl"):
    client.cookies["kropki_language"] = language
    return client.post(
        reverse("signup"), {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    )


def username_errors(response) -> list[str]:
    assert response.status_code == 200, response.status_code
    return response.context["form"].errors.get("username", [])


@pytest.mark.parametrize(
    "copy",
    [
        "\u0430nia",  # Cyrillic а  # noqa: RUF003
        "ani\u0430",
        "\u0410NIA",  # Cyrillic А  # noqa: RUF003
        "ＡＮＩＡ",  # full width (NFKC)  # noqa: RUF001
        "an1a",
        "AnIa",  # capital i for l... and for i
        "\U0001d41a\U0001d427\U0001d422\U0001d41a",  # mathematical bold
    ],
)
def test_a_look_alike_of_an_existing_name_is_refused(client, make_user, copy):
    make_user("ania")
    errors = username_errors(signup(client, copy))
    assert errors in ([LOOKS_LIKE], ["Ta nazwa użytkownika jest już zajęta."])
    assert User.objects.count() == 1


def test_the_error_is_in_english_too(client, make_user):
    make_user("ania")
    assert username_errors(signup(client, "\u0430nia", language="en")) == [
        "This username looks like an existing one. Please choose another."
    ]


@pytest.mark.parametrize("name", ["zośka", "ania2", "anka", "Łucja", "Михаил"])
def test_names_that_only_share_letters_are_fine(client, make_user, name):
    make_user("ania")
    make_user("zoska")
    response = signup(client, name)
    assert response.status_code == 302, username_errors(response)
    assert User.objects.get(username=name)


def test_usernames_are_stored_nfkc_normalised(client):
    assert signup(client, "ｚｏｓｉａ").status_code == 302  # noqa: RUF001 - full width on purpose
    assert User.objects.filter(username="zosia").exists()


@pytest.mark.parametrize(
    "name, error",
    [
        ("admin", RESERVED),
        ("Administrator", RESERVED),
        ("STAFF", RESERVED),
        ("moderator", RESERVED),
        ("Kropki", RESERVED),
        ("system", RESERVED),
        ("\u0430dmin", RESERVED),
        ("ádmin", RESERVED),
        ("gosc-1234abcd", RESERVED),
        ("Gość-1", RESERVED),
        ("GOSC-x", RESERVED),
        (".", NO_LETTER),
        ("..", NO_LETTER),
        ("...", NO_LETTER),
        ("_-_", NO_LETTER),
    ],
)
def test_reserved_names_are_refused(client, name, error):
    assert username_errors(signup(client, name)) == [error]
    assert not User.objects.exists()


def test_a_guest_signing_up_cannot_take_a_look_alike_or_a_reserved_name(make_user):
    make_user("ania")
    guest = guest_create()
    browser = Client()
    browser.force_login(guest)
    assert username_errors(signup(browser, "\u0430nia")) == [LOOKS_LIKE]
    assert username_errors(signup(browser, guest.username)) == [RESERVED]
    response = signup(browser, "Zuzia")
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.username == "Zuzia" and not guest.is_guest
    assert guest.username_skeleton == User.objects.get(pk=guest.pk).username_skeleton
    other = User(username="zuzia-copy")
    other.save()
    assert other.username_skeleton != guest.username_skeleton


def test_the_database_refuses_a_look_alike(make_user):
    make_user("ania")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="\u0430nia", email="x@example.com", password=PASSWORD)


def test_the_skeleton_folds_case_width_and_homoglyphs():
    assert username_skeleton("ANIA") == username_skeleton("\u0430nia") == username_skeleton("ａｎｉａ") == "ania"  # noqa: RUF001 - full width on purpose
    assert username_skeleton("Paul") == username_skeleton("PauI")
    assert username_skeleton("zośka") != username_skeleton("zoska")


def test_a_rename_in_the_admin_follows_the_same_rules(make_user):
    from accounts.admin import KropkiUserChangeForm

    make_user("ania")
    zosia = make_user("zosia")

    def rename(name):
        data = {
            "username": name,
            "email": zosia.email,
            "language": "pl",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00",
        }
        return KropkiUserChangeForm(data, instance=zosia)

    assert rename("\u0430nia").errors["username"] == [LOOKS_LIKE]
    assert rename("admin").errors["username"] == [RESERVED]
    form = rename("zosia")
    assert "username" not in form.errors, form.errors


SCRIPT = (
    "Litery nazwy użytkownika muszą pochodzić z jednego alfabetu (łacińskiego, cyrylicy lub greckiego), "
    "a cyfry muszą być od 0 do 9."
)


@pytest.mark.parametrize(
    "copy",
    [
        "user\u0662",  # Arabic-Indic two, not in the confusables' class of "2"
        "user\u06f2",  # Eastern Arabic (Persian) two
        "user\u0967\u0968",  # Devanagari one, two
        "user\u05d5",  # Hebrew vav for "l"
        "user\u05df",  # Hebrew final nun for "i"
        "user\u0661",  # Arabic-Indic one
    ],
)
def test_hebrew_letters_and_non_ascii_digits_are_refused_next_to_the_name_they_copy(client, make_user, copy):
    """Issue 37 item 10 (c): these passed where the confusables data has no class for them."""
    make_user("user2")
    make_user("userl")
    errors = username_errors(signup(client, copy))
    assert errors in ([LOOKS_LIKE], [SCRIPT]), errors
    assert User.objects.count() == 2


@pytest.mark.parametrize(
    "name",
    [
        "gracz\u0662",  # Arabic-Indic digit: refused even with no name to copy
        "\u0661\u0662\u0663",
        "Pe\u0442ya",  # Latin and Cyrillic mixed
        "\u03b1bc",  # Greek alpha and Latin
        "ani\u05d0",  # Latin and Hebrew
        "\u05e9\u05dc\u05d5\u05dd",  # Hebrew only: not one of the scripts
        "\u0639\u0644\u064a",  # Arabic only
    ],
)
def test_mixed_scripts_and_other_digits_are_refused_clearly(client, name):
    assert username_errors(signup(client, name)) == [SCRIPT]
    assert not User.objects.exists()


def test_the_script_error_is_in_english_too(client):
    assert username_errors(signup(client, "gracz\u0662", language="en")) == [
        "A username's letters must all come from one alphabet (Latin, Cyrillic or Greek), and its digits must be 0-9."
    ]


@pytest.mark.parametrize("name", ["Zażółć_gęślą", "zos\u0301ka", "Петя", "Σοφία", "gracz_2026", "x\u00b2"])
def test_one_script_with_its_marks_and_ascii_digits_is_fine(client, name):
    assert signup(client, name).status_code == 302


def test_a_guest_and_the_admin_renaming_follow_the_script_rule(make_user):
    from accounts.admin import KropkiUserChangeForm

    guest = guest_create()
    browser = Client()
    browser.force_login(guest)
    assert username_errors(signup(browser, "Zuzia\u05d5")) == [SCRIPT]
    zosia = make_user("zosia")
    data = {
        "username": "zosia\u0662",
        "email": zosia.email,
        "language": "pl",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
    }
    assert KropkiUserChangeForm(data, instance=zosia).errors["username"] == [SCRIPT]
