"""Issue 24 item 11: 8 threads fetching distinct board plies of a 367-ply match (47 req/s)
raised two players' move round trip from 10 ms to 117 ms. Boards and record frames of finished
matches now come from the shared cache (Redis), and one address makes at most
EXPENSIVE_GETS_PER_MINUTE expensive GETs a minute."""

from __future__ import annotations

from typing import cast

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.display.boards import render_board
from games.views import record as record_views
from tests.factories import PINK_WINS
from tests.helpers import C4, play_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_match):
    match = make_match(C4)
    play_moves(match, PINK_WINS)
    return match


def test_the_cache_is_the_shared_redis():
    assert django_settings.CACHES["default"]["BACKEND"] == "kropki_site.cache.TolerantRedisCache"
    cache.set("probe", {"a": 1}, 30)
    from kropki_site.lib import limits

    keys = [
        k.decode()
        for k in cast(list[bytes], limits.client().keys(f"{django_settings.CACHES['default']['KEY_PREFIX']}:*"))
    ]
    assert any(k.endswith(":probe") for k in keys)


def test_a_flood_of_distinct_board_plies_from_one_address_is_refused(finished, settings):
    settings.EXPENSIVE_GETS_PER_MINUTE = 20
    attacker = Client(REMOTE_ADDR="203.0.113.50")
    statuses = []
    for i in range(40):
        ply = i % (finished.ply + 1)
        url = (
            reverse("match_board", args=[finished.pk, ply])
            if i % 2
            else reverse("record_frame", args=[finished.pk, ply])
        )
        statuses.append(attacker.get(url).status_code)
    assert statuses[:20] == [200] * 20 and set(statuses[20:]) == {429}
    refused = attacker.get(reverse("record_frame", args=[finished.pk, 1]))
    assert refused["Retry-After"] == "60" and refused.json()["code"] == "rate_limited"
    assert "Poczekaj minutę" in refused.json()["message"]
    # Another address is not counted.
    assert Client(REMOTE_ADDR="198.51.100.60").get(reverse("record_frame", args=[finished.pk, 1])).status_code == 200


def test_a_finished_matchs_frames_are_drawn_once_for_every_process(finished, monkeypatch):
    drawn = []

    def counted(*args, **kwargs):
        drawn.append(1)
        return render_board(*args, **kwargs)

    monkeypatch.setattr(record_views, "render_board", counted)
    url = reverse("record_frame", args=[finished.pk, 3])
    first = Client().get(url).json()
    # Another process has its own memory but the same Redis: drop this process's connection.
    from django.core.cache import caches

    caches["default"].close()
    again = Client().get(url).json()
    assert first == again and len(drawn) == 1


def test_a_redis_that_does_not_answer_makes_a_miss_not_a_500(finished, settings):
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:1/0"}}
    response = Client().get(reverse("record_frame", args=[finished.pk, 2]))
    assert response.status_code == 200 and response.json()["ply"] == 2
