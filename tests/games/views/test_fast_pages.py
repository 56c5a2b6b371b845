"""Profiles and records served again from the cache: fewer queries, no replay, and
never stale (a new game shows at once; a key never shows another match's moves)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.display.boards import render_board
from games.views import record as record_views
from ratings import selectors
from tests.factories import bulk_finished_matches
from tests.helpers import C4, play

from .test_ranked_pages import kropki_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def renders(monkeypatch):
    """How many boards the record view draws (the real renderer, counted)."""
    calls = []
    real = render_board

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(record_views, "render_board", counted)
    return calls


def page(response) -> str:
    """The page's HTML without its CSRF tokens (masked anew for every response)."""
    return re.sub(r"[A-Za-z0-9]{64}", "<csrf>", response.content.decode())


def pink_wins_c4(match, pink, blue):
    for user, column in [(pink, 0), (blue, 1), (pink, 0), (blue, 1), (pink, 0), (blue, 1), (pink, 0)]:
        play(match, user, column)


def test_a_repeat_view_of_a_profile_runs_nine_queries_and_still_shows_a_new_game(
    client, alice, bob, charlie, make_match, django_assert_max_num_queries, django_assert_num_queries
):
    bulk_finished_matches(alice, [bob, charlie], 300)
    client.force_login(bob)
    url = reverse("profile", args=["alice"])
    with django_assert_max_num_queries(15):
        first = page(client.get(url))
    # The viewer (the session comes from the cache: settings.SESSION_ENGINE), alice with her
    # ratings, the page's match ids, whether bob blocked her and whether he follows her
    # (docs/social.md), the number of deleted accounts (the list's cache key, docs/privacy.md),
    # her tournaments (docs/tournaments.md), her Swiss tournaments (a second table,
    # docs/tournaments.md "Swiss"), her puzzle ratings (docs/puzzles.md): the chart and the list
    # are cached.
    with django_assert_num_queries(9):
        again = page(client.get(url))
    assert again == first
    assert 'data-testid="chart-cztery-w-rzedzie"' in again and again.count('data-testid="record-link"') == 20

    match = make_match(rated=True, pink=alice, blue=charlie)
    pink_wins_c4(match, alice, charlie)
    html = page(client.get(url))
    # The new game heads the list at once, and the chart is redrawn with it (301 games, 201 points).
    assert re.findall(r'href="/partia/(\d+)/zapis/"', html)[0] == str(match.pk)
    rating = selectors.rating_for(alice, C4)
    assert f'data-testid="rating-value-{C4}">{rating.display}<' in html and rating.games == 301
    assert f'data-testid="wins-{C4}">{rating.wins}<' in html
    assert f"teraz {rating.display}." in html and f"teraz {rating.display}." not in first


def test_the_profile_of_an_unrated_player_and_of_nobody(client, alice, django_assert_max_num_queries):
    with django_assert_max_num_queries(7):  # no rating row: alice alone, her (empty) page, her arenas, Swiss, puzzles
        assert client.get(reverse("profile", args=["ALICE"])).status_code == 200
    assert client.get(reverse("profile", args=["nikt"])).status_code == 404


def move_list(html: str) -> str:
    """The record's move list (its markup, whatever it is)."""
    start = html.index('data-testid="record-moves"')
    return html[start : html.index("</ol>", start)]


def test_a_repeat_view_of_a_long_record_draws_nothing_and_shows_the_same_page(
    client, alice, bob, renders, django_assert_num_queries
):
    match = kropki_match(alice, bob)
    url = reverse("record", args=[match.pk])
    first = page(client.get(url))
    assert len(renders) == 1 and 'data-testid="rating-after-pink"' in first
    # the match and its chat, a page of each room (players may still write for CHAT_CLOSE_MINUTES
    # after the end, so it is read each time until then), its computer analysis; its board, moves and
    # rating changes are cached
    with django_assert_num_queries(4):
        again = page(client.get(url))
    assert len(renders) == 1
    assert again == first and move_list(again).count("<li") == match.ply == 9
    cache.clear()
    assert page(client.get(url)) == first  # what the cache held is what a fresh render draws
    assert len(renders) == 2


def test_a_cached_record_never_shows_another_matchs_moves(client, alice, bob, make_match, renders):
    one = make_match(rated=False)
    pink_wins_c4(one, alice, bob)
    two = make_match(rated=False)
    for user, column in [(alice, 6), (bob, 5), (alice, 6), (bob, 5), (alice, 6), (bob, 5), (alice, 6)]:
        play(two, user, column)
    pages = {m.pk: page(client.get(reverse("record", args=[m.pk]))) for m in (one, two)}
    assert len(renders) == 2 and move_list(pages[one.pk]) != move_list(pages[two.pk])
    for m in (one, two, one):
        assert page(client.get(reverse("record", args=[m.pk]))) == pages[m.pk]
    assert len(renders) == 2
    # The same moves in another language are another entry.
    english = move_list(page(client.get(reverse("record", args=[one.pk]), HTTP_ACCEPT_LANGUAGE="en")))
    assert len(renders) == 3
    assert "pink" in english and "różowe" not in english and "różowe" in move_list(pages[one.pk])
