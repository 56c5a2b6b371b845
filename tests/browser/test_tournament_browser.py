"""An arena in real browsers (live daphne, Redis, a Celery worker and beat, Chromium;
docs/tournaments.md): two players join from the tournament page, the wave pairs them and
both pages go to the match by themselves, they play it, both pages come back to the
arena by themselves, and a third player watching the arena on a 360 px phone sees the
standings change live, with no reload; the page passes axe."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.browser.test_a11y import BLOCKING, axe_violations
from tests.browser.test_after_match import PASSWORD
from tests.browser.test_match_browser import play_all


def player(new_context, live_url, data: dict, who: str, **kwargs):
    context = new_context(**kwargs)
    context.add_cookies([{"name": data["cookie_name"], "value": data[who]["cookie"], "url": live_url}])
    return context.new_page()


def test_two_players_join_are_paired_play_come_back_and_a_watcher_sees_it_live(
    new_context, live_url, live_site, celery_worker_proc, celery_beat_proc
):
    suffix = uuid.uuid4().hex[:6]
    data = live_site.call("running_arena", suffix=suffix, password=PASSWORD)
    arena = f"/turnieje/{data['tournament']}/"
    watcher = player(new_context, live_url, data, "celina", viewport={"width": 360, "height": 740}, bypass_csp=True)
    watcher.goto(arena)
    expect(watcher.locator("html")).to_have_attribute("data-site", "connected")
    expect(watcher.get_by_test_id("standings")).to_contain_text("Nikt jeszcze nie dołączył")

    ania = player(new_context, live_url, data, "ania")
    bartek = player(new_context, live_url, data, "bartek")
    for page in (ania, bartek):
        page.goto(arena)
        page.get_by_test_id("tournament-join").click()
    # The wave (beat, every 2 s) pairs them: both pages go to the match by themselves.
    for page in (ania, bartek):
        page.wait_for_url(re.compile(r"/partia/\d+/$"), timeout=30_000)
        expect(page.locator("#match")).to_have_attribute("data-ready", "1")
        # the match socket open: a click before it is refused as offline (ready is the script's)
        expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
        expect(page.get_by_test_id("arena-link")).to_have_text(f"Arena {suffix}")
    assert ania.url == bartek.url
    # The watcher heard both join and the game begin, without a reload.
    expect(watcher.get_by_test_id("player-count")).to_have_text("(2)")
    expect(watcher.get_by_test_id("playing-list")).to_contain_text(data["ania"]["name"])

    pink = ania if data["ania"]["name"] in ania.get_by_test_id("player-1").inner_text() else bartek
    blue = bartek if pink is ania else ania
    # Berserk over the match socket: no reload (the page's marker stays); both pages say it.
    pink.evaluate("window.__noReload = 1")
    pink.get_by_test_id("berserk").click()
    for page in (pink, blue):
        expect(page.get_by_test_id("berserk-note")).to_have_text("· różowe: berserk (połowa czasu)")
    expect(pink.get_by_test_id("berserk")).to_have_count(0)
    assert pink.evaluate("window.__noReload") == 1
    play_all({"p": pink, "b": blue}, [("p", 0), ("b", 1), ("p", 0), ("b", 1), ("p", 0), ("b", 1), ("p", 0)])
    expect(pink.get_by_test_id("result")).to_be_visible()
    # Over: both pages go back to the arena by themselves (the same tab).
    for page in (pink, blue):
        page.wait_for_url(f"**{arena}", timeout=15_000)
        expect(page.get_by_test_id("standings")).to_be_visible()
    winner = data["ania"]["name"] if pink is ania else data["bartek"]["name"]
    # The watcher's standings changed live: the winner first with 2 points.
    first = watcher.locator("#standings-body tr").first
    expect(first).to_contain_text(winner)
    expect(first.get_by_test_id("points")).to_have_text("2")
    assert watcher.evaluate("document.documentElement.dataset.standings") is not None  # drawn from a frame
    # Nobody new: issue 38, they meet again after a few waves (lichess' rematch fallback).
    first_game = pink.url
    fits = "document.documentElement.scrollWidth <= window.innerWidth"
    assert watcher.evaluate(fits)
    violations = [v for v in axe_violations(watcher) if v["impact"] in BLOCKING]
    assert not violations, violations
    for page in (pink, blue):
        page.wait_for_url(re.compile(r"/partia/\d+/$"), timeout=30_000)
    assert pink.url == blue.url != first_game
    expect(watcher.get_by_test_id("playing-list").locator("a")).to_have_count(1)


def test_a_deleted_player_shows_without_a_link_drawn_by_the_page_and_by_a_frame(new_context, live_url, live_site):
    """Issue 37: a deleted account's standings line is "konto usunięte" with no link to its (404)
    profile, both in the page as served and in the standings the script redraws from a frame."""
    suffix = uuid.uuid4().hex[:6]
    data = live_site.call("running_arena", suffix=suffix, password=PASSWORD)
    ania, bartek = data["ania"]["name"], data["bartek"]["name"]
    live_site.call("arena_deleted_player", tournament_id=data["tournament"], joined=[ania, bartek], deleted=bartek)
    arena = f"/turnieje/{data['tournament']}/"
    watcher = player(new_context, live_url, data, "celina")
    served = watcher.goto(arena)
    assert served is not None
    html = served.text()  # the standings as the page serves them
    assert '<th scope="row">konto usunięte' in html and bartek not in html
    expect(watcher.locator("html")).to_have_attribute("data-site", "connected")
    body = watcher.locator("#standings-body")
    gone = body.locator("tr", has_text="konto usunięte")
    # ania withdraws in her own browser: a frame redraws the watcher's standings
    own = player(new_context, live_url, data, "ania")
    own.goto(arena)
    own.get_by_test_id("tournament-withdraw").click()
    expect(body.locator("tr", has_text=ania)).to_contain_text("(przerwa)")
    assert watcher.evaluate("document.documentElement.dataset.standings") is not None  # drawn from a frame
    expect(gone).to_have_count(1)
    expect(gone.locator("a")).to_have_count(0)
    expect(body.locator("tr", has_text=ania).locator("a")).to_have_count(1)
    assert bartek not in body.inner_text()
