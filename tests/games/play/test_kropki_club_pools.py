"""The two ranked pools of issue 42 (SPEC.md "Kropki: options"): Kropki 30×30 and the
clubs' 39×32 from a cross are queues, matches, leaderboards and profiles like the others;
a match of the cross pool starts from the cross, and its moves are checked by the engine."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.catalogue import variant_keys
from games.models import Match
from games.play.matchmaking import seek_create, seek_pair
from games.play.moves import match_play
from games.selectors.state import match_state
from kropki_site.lib.refusals import Refusal

pytestmark = pytest.mark.django_db

CROSS = "kropki-39x32-cross"
PINK_CROSS = {(18, 15), (19, 16)}
BLUE_CROSS = {(18, 16), (19, 15)}


def test_the_new_pools_are_variants_of_kropki():
    assert {"kropki-30", CROSS} <= set(variant_keys())


@pytest.mark.parametrize("variant", ["kropki-30", CROSS])
def test_the_queue_pairs_a_rated_match_of_the_pool(alice, bob, variant):
    now = timezone.now()
    seek_create(user=alice, variants=[variant], now=now)
    seek_create(user=bob, variants=[variant], now=now)
    [match] = seek_pair(now)
    assert match.rated and match.variant == variant and match.is_active


def test_a_match_of_the_cross_pool_starts_from_the_cross_and_checks_its_moves(alice, bob):
    now = timezone.now()
    seek_create(user=alice, variants=[CROSS], now=now)
    seek_create(user=bob, variants=[CROSS], now=now)
    [match] = seek_pair(now)
    state = match_state(match)
    dots = {(x, y): player for x, y, player, _ in state.view()["dots"]}
    assert dots == {p: 1 for p in PINK_CROSS} | {p: 2 for p in BLUE_CROSS}
    pink = match.pink_id
    with pytest.raises(Refusal) as refused:  # a dot of the cross is taken
        match_play(match_id=match.pk, user_id=pink, ply=0, action=15 * 39 + 18)
    assert refused.value.code == "occupied"
    match_play(match_id=match.pk, user_id=pink, ply=0, action=14 * 39 + 19)
    match.refresh_from_db()
    assert match.ply == 1 and list(match.history) == [14 * 39 + 19]


@pytest.mark.parametrize("variant", ["kropki-30", CROSS])
def test_the_leaderboard_has_a_page_for_the_pool(client, variant):
    page = client.get(f"/ranking/{variant}/", HTTP_ACCEPT_LANGUAGE="pl")
    assert page.status_code == 200
    assert ("Kropki 30×30" if variant == "kropki-30" else "Kropki 39×32 z krzyżem") in page.content.decode()
    assert Match.objects.count() == 0
