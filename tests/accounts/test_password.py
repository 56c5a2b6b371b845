import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "nowe-Haslo-do-gry-77"


def test_password_change_needs_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_password_change_works_and_keeps_the_session(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert client.get(reverse("account_settings")).status_code == 200


def test_password_change_rejects_a_wrong_old_password_and_a_mismatch(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": "zle", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "old_password" in form.errors and "new_password2" in form.errors
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_password_reset_sends_a_working_link(client, alice):
    response = client.post(reverse("password_reset"), {"email": "ALICE@example.com"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    found = re.search(r"https?://[^/]+(/\S+)", str(mail.outbox[0].body))
    assert found is not None
    link = found.group(1)
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    # The link works once.
    assert not client.get(link, follow=True).context["validlink"]


def test_password_reset_for_an_unknown_email_shows_the_same_page(client, alice):
    known = client.post(reverse("password_reset"), {"email": "alice@example.com"}, follow=True)
    unknown = client.post(reverse("password_reset"), {"email": "nikt@example.com"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain == [(reverse("password_reset_done"), 302)]
    strip = lambda html: re.sub(r'(value=|X-CSRFToken": )"[^"]+"', "", html)  # noqa: E731 (CSRF tokens differ)
    assert strip(known.content.decode()) == strip(unknown.content.decode())
    assert len(mail.outbox) == 1  # only the real account got mail


def test_password_reset_e_mails_to_one_address_are_throttled(client, alice, settings):
    """Issue 12, item 8: 20 reset e-mails in a row to one address were all sent."""
    pages = []
    for i in range(20):  # each from its own address: the per-address limit alone
        response = client.post(reverse("password_reset"), {"email": "Alice@Example.com"}, REMOTE_ADDR=f"10.1.0.{i}")
        pages.append((response.status_code, response["Location"]))
    assert pages == [(302, reverse("password_reset_done"))] * 20  # the same answer every time
    assert len(mail.outbox) == settings.PASSWORD_RESETS_PER_ADDRESS == 3
    # Another address is not affected.
    bob = client.post(reverse("password_reset"), {"email": "bob@example.com"}, REMOTE_ADDR="10.1.1.1")
    assert bob.status_code == 302


def test_password_reset_requests_from_one_ip_are_throttled(client, make_user, settings):
    """One IP asking for many addresses: at most PASSWORD_RESETS_PER_IP e-mails."""
    for i in range(15):
        make_user(f"gracz{i}")
    for i in range(15):
        response = client.post(reverse("password_reset"), {"email": f"gracz{i}@example.com"}, REMOTE_ADDR="10.2.0.1")
        assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == settings.PASSWORD_RESETS_PER_IP == 10
    client.post(reverse("password_reset"), {"email": "gracz14@example.com"}, REMOTE_ADDR="10.2.0.2")
    assert len(mail.outbox) == 11


def test_a_throttled_reset_shows_the_same_page_as_an_unknown_address(client, alice, settings):
    settings.PASSWORD_RESETS_PER_ADDRESS = 0
    throttled = client.post(reverse("password_reset"), {"email": "alice@example.com"}, follow=True)
    unknown = client.post(reverse("password_reset"), {"email": "nikt@example.com"}, follow=True)
    assert throttled.redirect_chain == unknown.redirect_chain == [(reverse("password_reset_done"), 302)]
    strip = lambda html: re.sub(r'(value=|X-CSRFToken": )"[^"]+"', "", html)  # noqa: E731 (CSRF tokens differ)
    assert strip(throttled.content.decode()) == strip(unknown.content.decode())
    assert len(mail.outbox) == 0


def test_the_reset_link_lands_on_a_polish_slug_and_the_old_one_redirects(client, alice):
    """Issue 25 item 13: the form's address ended in Django's English "set-password"."""
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    found = re.search(r"https?://[^/]+(/\S+)", str(mail.outbox[0].body))
    assert found is not None
    link = found.group(1)
    landed = client.get(link)
    assert landed.status_code == 302 and landed["Location"].endswith("/nowe-haslo/")
    assert "set-password" not in landed["Location"]
    old = landed["Location"].replace("/nowe-haslo/", "/set-password/")
    again = client.get(old)
    assert again.status_code == 302 and again["Location"] == landed["Location"]
    assert client.get(landed["Location"]).context["validlink"]


def test_by_default_a_reset_e_mail_is_a_file_in_var_dir_mail(tmp_path):
    """Issue 25 item 15: without EMAIL_BACKEND the e-mails went to the console (the web log),
    not to VAR_DIR/mail as the README says. A fresh process with scripts/run's environment."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DJANGO_SETTINGS"))}
    env.update(
        VAR_DIR=str(tmp_path),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="kropki_site.settings",
    )
    code = (
        "import django; django.setup()\n"
        "from django.core.mail import send_mail\n"
        "send_mail('Ustaw nowe hasło', 'link', None, ['alice@example.com'])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "alice@example.com" not in run.stdout  # not on the console
    files = list((tmp_path / "mail").iterdir())
    assert len(files) == 1 and "To: alice@example.com" in files[0].read_text()
