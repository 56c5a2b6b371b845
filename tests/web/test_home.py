"""The home page's "Right now": the count and the list are about the same matches."""

from __future__ import annotations

import re

import pytest

from games import play as services
from tests.helpers import C4

pytestmark = pytest.mark.django_db


def playing_count(html: str) -> int:
    found = re.search(r'data-testid="playing-count">(\d+)<', html)
    assert found is not None
    return int(found.group(1))


def test_games_against_the_computer_are_neither_counted_nor_listed(client, alice, bob, charlie):
    practice = services.match_create(variant=C4, pink_id=charlie.pk, blue_id=None, bot_level="latwy")
    html = client.get("/").content.decode()
    assert playing_count(html) == 0
    assert "W tej chwili nie trwa żadna partia" in html and 'class="live-matches"' not in html

    live = services.match_create(variant=C4, pink_id=alice.pk, blue_id=bob.pk)
    html = client.get("/").content.decode()
    assert playing_count(html) == 2
    listed = re.findall(r'<ul class="live-matches">(.*?)</ul>', html, re.S)[0]
    assert f'href="/partia/{live.pk}/"' in listed and f'href="/partia/{practice.pk}/"' not in listed
    assert "alice – bob" in listed


def test_a_person_in_two_live_matches_counts_once(client, alice, bob, charlie):
    services.match_create(variant=C4, pink_id=alice.pk, blue_id=bob.pk)
    services.match_create(variant="kropki-10", pink_id=charlie.pk, blue_id=alice.pk)
    html = client.get("/").content.decode()
    assert playing_count(html) == 3
    assert len(re.findall(r'href="/partia/\d+/"', html)) == 2
