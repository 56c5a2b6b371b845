"""The FAQ page and the rules index: the way to each game's rules and common questions."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import catalogue

pytestmark = pytest.mark.django_db

SLUGS = [spec.rules_slug for spec in catalogue.games()]  # every game, in the site's order


@pytest.mark.parametrize("language, title", [("pl", "Częste pytania"), ("en", "Frequently asked questions")])
def test_the_faq_leads_to_the_common_questions_of_every_rules_page(client, language, title):
    client.cookies["kropki_language"] = language
    response = client.get("/faq/")
    assert response.status_code == 200 and reverse("faq") == "/faq/"
    html = response.content.decode()
    assert f"<h1>{title}</h1>" in html
    for slug in SLUGS:
        assert f'href="/zasady/{slug}/#pomylki"' in html
        # ...and that section is there, in this language.
        rules = client.get(f"/zasady/{slug}/").content.decode()
        assert 'id="pomylki"' in rules and '<dl class="faq">' in rules
    assert "60" in html  # the clock's seconds, from the settings


def test_every_page_links_the_faq_from_its_footer(client):
    for name in ("home", "rules_index", "ranking"):
        footer = re.search(
            r'<footer class="site-footer">(.*?)</footer>', client.get(reverse(name)).content.decode(), re.S
        )
        assert footer is not None, name
        assert 'href="/faq/"' in footer.group(1)


@pytest.mark.parametrize("language", ["pl", "en"])
def test_the_rules_index_shows_a_picture_and_a_sentence_per_game(client, language):
    client.cookies["kropki_language"] = language
    html = client.get(reverse("rules_index")).content.decode()
    cards = re.findall(r'<li class="card">(.*?)</li>\s*(?=<li class="card">|</ul>)', html, re.S)
    assert len(cards) == len(SLUGS)
    for slug, card in zip(SLUGS, cards, strict=True):
        assert f'href="/zasady/{slug}/"' in card
        assert "<svg" in card  # the engine-checked diagram
        sentence = re.search(r"</div>\s*<p>([^<]{30,})</p>", card)
        assert sentence, card[:200]
    expected = "Otocz kropki" if language == "pl" else "Surround your opponent"
    assert expected in html
