"""The plug-in game in a real browser, on a live daphne that loads it at start-up
(``KROPKI_EXTRA_GAMES``): the lobby offers it, two players click a whole game to
three in a row (the board has no patch code in board_patch.js, so each page
redraws the server's board after every move), and the record and the export follow."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests import live
from tests.live_play.conftest import create_match

from .test_match_browser import at_ply, click, open_match

pytestmark = pytest.mark.browser

PLUGIN = "tests.plugin.tictactoe.register"


def click_across_a_redraw(page, action: int) -> None:
    """A click whose press and release fell on two boards (the page redrew the board between
    them): the browser gives the click to the board's holder, not to the square; the page finds
    the square under the pointer."""
    page.evaluate(
        """(action) => {
            const square = document.querySelector(`#board [data-action="${action}"]`).getBoundingClientRect();
            const x = square.left + square.width / 2, y = square.top + square.height / 2;
            document.getElementById("board").dispatchEvent(
                new MouseEvent("click", { bubbles: true, detail: 1, clientX: x, clientY: y }));
        }""",
        action,
    )


@pytest.fixture(scope="module")
def plugin_site(live_site):
    site = live.LiveSite(env={**live_site.env, "KROPKI_EXTRA_GAMES": PLUGIN}, workdir=live_site.workdir)
    _proc, url = site.start_daphne(name="daphne-plugin")
    yield site, url
    site.stop_all()


def test_the_plug_in_game_is_played_by_clicking(plugin_site, browser):
    site, url = plugin_site
    data = create_match(site, "kolko-i-krzyzyk")
    contexts = []

    def context():
        made = browser.new_context(base_url=url, locale="pl-PL", service_workers="block")
        made.set_default_timeout(10_000)
        contexts.append(made)
        return made

    try:
        lobby = context().new_page()
        lobby.goto("/graj/")
        expect(lobby.locator("body")).to_contain_text("Kółko i krzyżyk")

        pages = {who: open_match(lambda **kw: context(), url, data["match"], data[who]) for who in ("alice", "bob")}
        expect(pages["alice"].locator("#board svg.board-tictactoe")).to_be_visible()
        for ply, (who, action) in enumerate([("alice", 0), ("bob", 1), ("alice", 4), ("bob", 2), ("alice", 8)]):
            at_ply(pages[who], ply)
            expect(pages[who].locator(f'#board [data-action="{action}"]')).to_be_visible()
            (click_across_a_redraw if ply == 4 else click)(pages[who], action)
            for page in pages.values():
                at_ply(page, ply + 1)
        for page in pages.values():  # the server's board, redrawn: X on the diagonal, no targets left
            expect(page.locator("#board svg.board-tictactoe text.p1")).to_have_count(3)
            expect(page.locator("#board [data-action]")).to_have_count(0)
            expect(page.locator("#result")).to_contain_text("trzy w linii")

        record = pages["bob"]
        record.goto(f"/partia/{data['match']}/zapis/")
        expect(record.locator("body")).to_contain_text("trzy w linii")
        exported = record.request.get(f"/partia/{data['match']}/eksport.json")
        assert json.loads(exported.text())["moves"] == ["a1", "b1", "b2", "c1", "c3"]
    finally:
        for made in contexts:
            made.close()
