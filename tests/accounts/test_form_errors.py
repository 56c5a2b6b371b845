"""Form errors where the player looks: under the field they are about, announced
with it (aria-invalid, aria-describedby), and the focus on the first such field."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


class Inputs(HTMLParser):
    """The attributes of every input by id, and the text of every element with an id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.inputs: dict[str, dict[str, str | None]] = {}
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("id"):
            self.inputs[a["id"]] = a


def error_text(html: str, field_id: str) -> str:
    """The text of the error block the field's aria-describedby points at ('' if none)."""
    match = re.search(rf'<div class="errors" id="{field_id}_error">(.*?)</div>', html, re.S)
    return re.sub(r"<[^>]+>", " ", match.group(1)) if match else ""


def assert_invalid_and_focused(html: str, field_id: str, others: list[str]) -> None:
    inputs = Inputs(html).inputs
    field = inputs[field_id]
    assert field.get("aria-invalid") == "true"
    assert f"{field_id}_error" in (field["aria-describedby"] or "").split()
    assert "autofocus" in field
    for other in others:
        assert "autofocus" not in inputs[other], other


def test_a_weak_password_is_explained_under_the_password_field(client):
    html = client.post(
        reverse("signup"), {"username": "Zosia", "email": "zosia@example.com", "password1": "abc", "password2": "abc"}
    ).content.decode()
    assert "za krótkie" in error_text(html, "id_password1")
    assert error_text(html, "id_password2") == ""
    assert_invalid_and_focused(html, "id_password1", ["id_username", "id_email", "id_password2"])
    assert "aria-invalid" not in Inputs(html).inputs["id_password2"]


def test_a_mismatch_stays_under_the_confirmation_and_the_first_error_gets_the_focus(client, alice):
    html = client.post(
        reverse("signup"),
        {"username": "ALICE", "email": "zosia@example.com", "password1": PASSWORD, "password2": PASSWORD + "x"},
    ).content.decode()
    assert "nie są zgodne" in error_text(html, "id_password2")
    assert "zajęta" in error_text(html, "id_username")
    # The username comes first: the focus goes there, not to the confirmation.
    assert_invalid_and_focused(html, "id_username", ["id_email", "id_password1", "id_password2"])
    assert Inputs(html).inputs["id_password2"]["aria-invalid"] == "true"


def test_password_change_errors_sit_under_their_fields(client, alice):
    client.force_login(alice)
    html = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": "abc", "new_password2": "abc"}
    ).content.decode()
    assert "za krótkie" in error_text(html, "id_new_password1")
    assert_invalid_and_focused(html, "id_new_password1", ["id_old_password", "id_new_password2"])
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_a_form_without_errors_keeps_its_usual_focus(client):
    inputs = Inputs(client.get(reverse("signup")).content.decode()).inputs
    assert "autofocus" in inputs["id_username"] and "aria-invalid" not in inputs["id_username"]
    assert "autofocus" not in inputs["id_password1"]
