"""Issue 38, Swiss tournaments live in real browsers (live daphne, Redis, Chromium;
docs/tournaments.md "Swiss", "Live"): a round's pairing reaches a player on another page (the
rules page: a notice and the header's way to the game; the next page's socket is told on connect),
the other player's Swiss page goes to the game by itself and, when the game is over, back to the
tournament; a visitor not logged in sees the Swiss page change without a reload."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.browser.test_tournament_browser import player


def test_the_pairing_reaches_a_player_on_the_rules_page_and_the_swiss_page_goes_to_the_game(
    new_context, live_url, live_site
):
    suffix = uuid.uuid4().hex[:6]
    data = live_site.call("swiss_upcoming", suffix=suffix)
    swiss = f"/turnieje/szwajcarski/{data['tournament']}/"
    live_site.call(
        "swiss_join_names", tournament_id=data["tournament"], names=[data["ania"]["name"], data["bartek"]["name"]]
    )
    ania = player(new_context, live_url, data, "ania", viewport={"width": 360, "height": 740})
    ania.goto("/zasady/")
    expect(ania.locator("html")).to_have_attribute("data-site", "connected")
    expect(ania.get_by_test_id("site-game")).to_be_hidden()
    bartek = player(new_context, live_url, data, "bartek")
    bartek.goto(swiss)
    expect(bartek.locator("html")).to_have_attribute("data-site", "connected")

    (match,) = live_site.call("swiss_pair_now", tournament_id=data["tournament"])["matches"]
    game = f"/partia/{match}/"
    # On the rules page: a notice with the tournament's name, and the header's link to the game.
    expect(ania.get_by_test_id("tournament-paired")).to_contain_text(data["name"], timeout=15_000)
    expect(ania.get_by_test_id("site-game")).to_have_attribute("href", game)
    assert ania.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The Swiss page goes to the game by itself.
    bartek.wait_for_url(f"**{game}", timeout=15_000)
    expect(bartek.locator("#match")).to_have_attribute("data-ready", "1")
    expect(bartek.get_by_test_id("swiss-link")).to_have_attribute("href", swiss)
    # Another page: its socket's word on connect (``current``) shows the header's link at once.
    ania.goto("/ranking/")
    expect(ania.get_by_test_id("site-game")).to_have_attribute("href", game)
    expect(ania.get_by_test_id("tournament-paired")).to_have_count(0)  # no notice for a game already known

    # The game over: the game page goes back to the Swiss by itself (after 3 s).
    live_site.call("swiss_resign", match_id=match, username=data["ania"]["name"])
    bartek.wait_for_url(f"**{swiss}", timeout=15_000)
    expect(bartek.get_by_test_id("swiss-rounds")).to_contain_text("(walkower)")  # resigned before two moves each


def test_a_visitor_not_logged_in_sees_the_swiss_page_change_without_a_reload(new_context, live_url, live_site):
    suffix = uuid.uuid4().hex[:6]
    data = live_site.call("swiss_upcoming", suffix=suffix)
    visitor = new_context(viewport={"width": 360, "height": 740}).new_page()
    visitor.goto(f"/turnieje/szwajcarski/{data['tournament']}/")
    expect(visitor.locator("html")).to_have_attribute("data-site", "connected")
    visitor.evaluate("window.__sameDocument = true")
    standings = visitor.locator("#swiss-standings")
    expect(standings.locator("tr")).to_have_count(0)
    live_site.call("swiss_join_names", tournament_id=data["tournament"], names=[data["ania"]["name"]])
    expect(standings).to_contain_text(data["ania"]["name"], timeout=15_000)
    live_site.call("swiss_join_names", tournament_id=data["tournament"], names=[data["bartek"]["name"]])
    expect(standings.locator("tr")).to_have_count(2, timeout=15_000)
    link = standings.get_by_role("link", name=data["bartek"]["name"])
    assert re.fullmatch(r"/gracz/[^/]+/", link.get_attribute("href") or "")
    assert visitor.evaluate("window.__sameDocument === true")  # drawn from frames, not reloaded
    assert visitor.evaluate("document.documentElement.dataset.swissDrawn") is not None
    assert visitor.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
