"""Issue 41 part B, the pages for people rather than programmers: the token form's scopes by
name in both languages with the API help linked, the API help page (docs/api.md rendered),
no ranked-queue buttons for a bot account, and the sign-up's e-mail saying why it is required."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_token_form_names_the_scopes_and_links_the_api_help(client, alice, make_user):
    client.force_login(alice)
    html = client.get(reverse("account_settings")).content.decode()
    assert "Gra jako bot" in html and "Oglądanie partii" in html and "Wyzwania" in html
    assert "Wszystko, co robi silnik bota" in html
    assert f'href="{reverse("api_help")}"' in html
    assert 'type="text" id="token-name"' in html  # styled as the site's other text inputs
    client.post(reverse("token_new"), {"name": "mój bot", "scopes": ["bot:play", "board:read"]})
    html = client.get(reverse("account_settings")).content.decode()
    assert '<span data-testid="token-scopes">Gra jako bot, Oglądanie partii</span>' in html
    english = make_user("eve", language="en")
    client.force_login(english)
    html = client.get(reverse("account_settings")).content.decode()
    assert "Play as a bot" in html and "Watch games" in html


def test_the_api_help_page_renders_docs_api_md_without_raw_html(client):
    response = client.get(reverse("api_help"), HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 200
    html = response.content.decode()
    assert "API dla programów i botów" in html
    assert "<table>" in html and "<code>bot:play</code>" in html
    article = html.split('<article class="api-doc"', 1)[1].split("</article>", 1)[0]  # the page's own scripts follow it
    assert "<h2>" in article and "<script" not in article


def test_a_bot_account_sees_no_ranked_queue_buttons(client, alice, bob):
    client.force_login(bob)
    assert 'data-testid="play-now-all"' in client.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("lobby")}">Graj w rankingu' in client.get(reverse("home")).content.decode()
    alice.is_bot = True
    alice.save(update_fields=["is_bot"])
    client.force_login(alice)
    lobby = client.get(reverse("lobby")).content.decode()
    assert 'data-testid="play-now-' not in lobby and 'data-testid="bot-no-queue"' in lobby
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("lobby")}">Graj w rankingu' not in home


def test_the_sign_up_says_the_email_is_required_and_why(client):
    html = client.get(reverse("signup"), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "E-mail (wymagany)" in html
    assert "Wymagany: tylko tak można odzyskać zapomniane hasło." in html
    assert 'aria-describedby="id_email_helptext"' in html
