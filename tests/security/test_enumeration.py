"""docs/reliability.md row 22 (the part the foundation's tests do not cover): logging
in as an unknown user costs the same password hashing as a wrong password for
a real one, so response time does not tell which usernames exist."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth.hashers import get_hasher
from django.urls import reverse

pytestmark = pytest.mark.django_db


def hashings(client, username: str) -> int:
    hasher_class = type(get_hasher())
    with mock.patch.object(hasher_class, "encode", autospec=True, side_effect=hasher_class.encode) as encode:
        response = client.post(reverse("login"), {"username": username, "password": "zle-haslo-123"})
    assert response.status_code == 200  # the form again, with the same message either way
    return encode.call_count


def test_unknown_and_known_usernames_cost_the_same_hashing(client, alice):
    assert hashings(client, "alice") == hashings(client, "nikt-taki") >= 1
