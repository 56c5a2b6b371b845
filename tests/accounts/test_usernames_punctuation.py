"""Issue 24 item 18: look-alike names through punctuation, and reserved prefixes."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts.models import User
from accounts.services import username_clean
from accounts.usernames import username_skeleton, username_skeleton_key
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signup(client, name):
    return client.post(
        reverse("signup"), {"username": name, "email": "x@example.com", "password1": PASSWORD, "password2": PASSWORD}
    )


@pytest.mark.parametrize("copy", ["ania.", "ania_", "@ania", "a.n-i_a", "+ania+", "ANIA-", "ａｎｉａ．"])  # noqa: RUF001 - full width on purpose
def test_look_alikes_through_punctuation_are_refused(client, make_user, copy):
    make_user("ania")
    response = signup(client, copy)
    assert response.status_code == 200
    assert "Ta nazwa użytkownika wygląda jak już istniejąca" in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "name",
    [
        "gosc_1",
        "gość.x",
        "GOSC+7",
        "gosc",
        "kropki_team",
        "KropkiTeam",
        "moderator2",
        "Moderator_Ania",
        "admin1",
        "administrator-2",
        "support_pl",
        "system.bot",
    ],
)
def test_reserved_prefixes_are_refused(name):
    with pytest.raises(ValidationError) as info:
        username_clean(name)
    assert info.value.code == "username_reserved"


@pytest.mark.parametrize("name", ["goscinny", "adam", "kropla", "moderna", "sysop"])
def test_names_that_only_begin_alike_are_fine(name):
    assert username_clean(name) == name


def test_the_skeleton_folds_the_punctuation():
    assert username_skeleton("ania.") == username_skeleton("@a_n-i+a") == username_skeleton("ania") == "ania"


def test_the_migration_keeps_the_oldest_of_two_names_that_now_look_alike(make_user):
    first = make_user("ola")
    later = make_user("ola.x")
    User.objects.filter(pk=later.pk).update(username="olax.", username_skeleton="old")  # as made before the rule
    third = make_user("olax")  # before the rule "olax." and "olax" differed
    User.objects.filter(pk=third.pk).update(username_skeleton="older")
    migration = importlib.import_module("accounts.migrations.0008_username_skeleton_punctuation")
    migration.refill_skeletons(django_apps, None)
    later.refresh_from_db()
    third.refresh_from_db()
    assert later.username_skeleton == username_skeleton_key("olax")
    assert third.username_skeleton is None  # the later account of the two
    third.last_name = "x"
    third.save()  # a save of a kept look-alike does not fail on the unique key
    first.refresh_from_db()
    assert first.username_skeleton == username_skeleton_key("ola")
