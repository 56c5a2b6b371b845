"""Issue 38 in real browsers (live daphne, Redis, a Celery worker and beat, Chromium;
docs/tournaments.md "Round two"): the pairing reaches a player wherever they are on the site
(the rules page: a notice and the header's way to the game), and a page whose site socket
drops the wave's frame and reconnects at that moment still goes to the game; a visitor who is
not logged in sees the standings change live; the finished podium reads place by place at
360 px."""

from __future__ import annotations

import json
import re
import uuid

from playwright.sync_api import expect

from tests.browser.frames import wait_frames
from tests.browser.test_after_match import PASSWORD
from tests.browser.test_tournament_browser import player
from tests.live_play.conftest import create_match


def test_the_pairing_reaches_a_player_on_the_rules_page(
    new_context, live_url, live_site, celery_worker_proc, celery_beat_proc
):
    suffix = uuid.uuid4().hex[:6]
    data = live_site.call("running_arena", suffix=suffix, password=PASSWORD)
    ania = player(new_context, live_url, data, "ania", viewport={"width": 360, "height": 740})
    ania.goto("/zasady/")
    expect(ania.locator("html")).to_have_attribute("data-site", "connected")
    expect(ania.get_by_test_id("site-game")).to_be_hidden()
    live_site.call("arena_join", tournament_id=data["tournament"], names=[data["ania"]["name"], data["bartek"]["name"]])
    # The wave pairs them: a notice with the way to the game, and the header's link.
    notice = ania.get_by_test_id("tournament-paired")
    expect(notice).to_contain_text(f"Arena {suffix}", timeout=30_000)
    header = ania.get_by_test_id("site-game")
    expect(header).to_be_visible()
    href = header.get_attribute("href")
    assert href and re.fullmatch(r"/partia/\d+/", href), href
    assert ania.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # Another page of the site: the socket's word on connect shows the header's link at once.
    ania.goto("/ranking/")
    expect(ania.get_by_test_id("site-game")).to_have_attribute("href", href)
    ania.get_by_test_id("site-game").click()
    ania.wait_for_url(f"**{href}")
    expect(ania.locator("#match")).to_have_attribute("data-ready", "1")
    expect(ania.get_by_test_id("site-game")).to_be_hidden()  # not on the game's own page


def test_a_page_reconnecting_when_paired_still_goes_to_the_game(
    new_context, live_url, live_site, celery_worker_proc, celery_beat_proc
):
    """The arena page's site socket loses the wave's ``tournament_paired`` and is closed at that
    moment (Playwright routes it): the page reconnects and is taken to the game by the frame the
    socket sends on connect."""
    suffix = uuid.uuid4().hex[:6]
    data = live_site.call("running_arena", suffix=suffix, password=PASSWORD)
    arena = f"/turnieje/{data['tournament']}/"
    dropped: list[dict] = []
    opened: list[int] = []

    def route(ws):
        server = ws.connect_to_server()
        opened.append(1)

        def from_server(message):
            frame = json.loads(message)
            if frame.get("type") == "tournament_paired" and not frame.get("current") and not dropped:
                dropped.append(frame)
                ws.close(code=4000, reason="test: lost at the pairing")
                server.close()
                return
            ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    ania = player(new_context, live_url, data, "ania")
    ania.route_web_socket(re.compile(r"/ws/site/$"), route)
    ania.goto(arena)
    expect(ania.locator("html")).to_have_attribute("data-site", "connected")
    ania.get_by_test_id("tournament-join").click()
    expect(ania.locator("html")).to_have_attribute("data-site", "connected")
    live_site.call("arena_join", tournament_id=data["tournament"], names=[data["bartek"]["name"]])
    ania.wait_for_url(re.compile(r"/partia/\d+/$"), timeout=30_000)
    assert dropped, "the wave's frame was never seen (and so never dropped)"
    assert ania.url.endswith(dropped[0]["url"])
    assert len(opened) >= 3  # the arena page, its reconnect (and the game page's)
    expect(ania.locator("#match")).to_have_attribute("data-ready", "1")


def test_a_visitor_not_logged_in_sees_the_standings_change_live(new_context, live_url, live_site):
    suffix = uuid.uuid4().hex[:6]
    data = live_site.call("running_arena", suffix=suffix, password=PASSWORD)
    visitor = new_context(viewport={"width": 360, "height": 740}).new_page()
    visitor.goto(f"/turnieje/{data['tournament']}/")
    expect(visitor.locator("html")).to_have_attribute("data-site", "connected")
    expect(visitor.get_by_test_id("player-count")).to_have_text("(0)")
    # the standings the socket sent after following the arena: only then can a change reach it
    wait_frames(visitor, 0, "tournament", socket="site")
    live_site.call("arena_join", tournament_id=data["tournament"], names=[data["ania"]["name"]])
    expect(visitor.get_by_test_id("player-count")).to_have_text("(1)")
    expect(visitor.locator("#standings-body")).to_contain_text(data["ania"]["name"])
    assert visitor.evaluate("document.documentElement.dataset.standings") is not None  # drawn from a frame
    assert visitor.evaluate("(window.kropkiFrames.site.sent.tournament_berserk || 0) === 0")


def test_the_finished_podium_reads_place_by_place_at_360_px(new_context, live_url, live_site):
    suffix = uuid.uuid4().hex[:4]
    data = live_site.call("finished_arena", suffix=suffix)
    page = new_context(viewport={"width": 360, "height": 740}).new_page()
    page.goto(f"/turnieje/{data['tournament']}/")
    podium = page.get_by_test_id("podium")
    lines = [line.strip() for line in podium.inner_text().splitlines() if line.strip()]
    first, second, third = data["names"][:3]
    assert len(lines) == 3, lines
    assert lines[0].startswith(first) and "9 punktów" in lines[0], lines
    assert lines[1].startswith(second) and "6 punktów" in lines[1], lines
    assert lines[2].startswith(third) and "2 punkty" in lines[2], lines
    for item in podium.locator("li").all():  # each place within the page's width
        box = item.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # Over: nobody is "(przerwa)" any more; the column says what it holds.
    expect(page.get_by_test_id("standings")).not_to_contain_text("(przerwa)")
    expect(page.get_by_test_id("standings").locator("thead")).to_contain_text("Punkty za partie")


def test_a_visitor_on_the_home_page_sees_right_now_change(new_context, live_url, live_site):
    """Issue 38: "W tej chwili" follows the ``home`` frame for a visitor not logged in: a match
    begun shows when its player opens a page."""
    visitor = new_context().new_page()
    visitor.goto("/")
    expect(visitor.locator("html")).to_have_attribute("data-site", "connected")
    data = create_match(live_site, "cztery-w-rzedzie")
    alice = new_context().new_page()
    alice.context.add_cookies(
        [{"name": data["alice"]["cookie_name"], "value": data["alice"]["cookie"], "url": live_url}]
    )
    alice.goto(f"/partia/{data['match']}/")  # her page's site socket: the change is looked for
    expect(visitor.locator(f"#home-live-list a[href='/partia/{data['match']}/']")).to_be_visible(timeout=15_000)
    assert int(visitor.get_by_test_id("playing-count").inner_text()) >= 2
    assert visitor.evaluate("document.getElementById('home-live').dataset.drawn") is not None
