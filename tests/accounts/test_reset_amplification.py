"""Issue 24 item 10: e-mail is neither unique nor verified, so six accounts may share one
address; 3 allowed reset requests sent 18 e-mails to it. Now one e-mail a request lists every
account of the address, and the per-address limit counts e-mails sent."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db
SHARED = "rodzina@example.com"


def test_three_reset_requests_send_three_e_mails_not_eighteen(client, make_user, settings):
    settings.PASSWORD_RESETS_PER_ADDRESS = 3
    names = [f"domownik{i}" for i in range(6)]
    for name in names:
        make_user(name, email=SHARED)
    for i in range(5):
        response = client.post(reverse("password_reset"), {"email": SHARED.upper()}, REMOTE_ADDR=f"10.3.0.{i}")
        assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 3  # was 18 after three requests
    message = mail.outbox[0]
    assert message.to == [SHARED]
    assert all(f"Nazwa użytkownika: {name}" in message.body for name in names)
    links = re.findall(r"https?://\S+/haslo/reset/\S+/", str(message.body))
    assert len(links) == 6
    # Each link works for its own account.
    path = links[3].split("://", 1)[1].split("/", 1)[1]
    confirm = client.get("/" + path, follow=True)
    assert confirm.status_code == 200 and "new_password1" in confirm.content.decode()


def test_requests_for_an_address_without_accounts_spend_nothing_of_a_real_one(client, alice, settings):
    settings.PASSWORD_RESETS_PER_ADDRESS = 1
    for i in range(3):
        client.post(reverse("password_reset"), {"email": "nikt@example.com"}, REMOTE_ADDR=f"10.4.0.{i}")
    client.post(reverse("password_reset"), {"email": alice.email}, REMOTE_ADDR="10.4.1.1")
    assert len(mail.outbox) == 1 and "Twoja nazwa użytkownika: alice" in mail.outbox[0].body
