"""Issue 41 part B in real Chromium at 360 px: takeback asked, refused and granted between two
people (two browser contexts) and granted at once against the computer; the computer's thinking
shown; Cztery w rzędzie moves said as "kolumna N"; the focus on the result when a game ends; and
the first page of a freshly started site, asked for in English, all English."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests import live

from .test_english_pages import polish_on
from .test_match_browser import P, at_ply, click, open_match, play_all

PHONE = {"viewport": {"width": 360, "height": 740}}


def test_takeback_between_people_refused_then_granted_at_360_px(new_context, live_url, live_site):
    data = live_site.call("players_with_match", variant="cztery-w-rzedzie")
    alice = open_match(new_context, live_url, data["match"], data["alice"], **PHONE)
    bob = open_match(new_context, live_url, data["match"], data["bob"], **PHONE)
    pages = {"alice": alice, "bob": bob}
    ply = play_all(pages, [("alice", 3), ("bob", 2), ("alice", 4)])
    expect(alice.get_by_test_id("takebacks-left")).to_have_text("Pozostałe cofnięcia: 3")

    # asked, and refused: nothing changes
    alice.get_by_test_id("btn-takeback").click()
    expect(bob.get_by_test_id("takeback-answer")).to_be_visible()
    expect(bob.locator("#announce")).to_contain_text("prosi o cofnięcie swojego ostatniego ruchu")
    expect(alice.get_by_test_id("takeback-pending")).to_be_visible()
    expect(alice.get_by_test_id("btn-takeback")).to_be_disabled()
    bob.get_by_test_id("btn-takeback-decline").click()
    expect(alice.locator("#announce")).to_have_text("Prośba o cofnięcie ruchu została odrzucona.")
    expect(bob.get_by_test_id("takeback-answer")).to_be_hidden()
    expect(alice.get_by_test_id("takebacks-left")).to_have_text("Pozostałe cofnięcia: 2")
    for page in pages.values():
        at_ply(page, ply)
        expect(page.get_by_test_id("moves").locator("li")).to_have_count(3)

    # asked again (by keyboard), and granted: alice's 4 goes, her turn again at ply 2
    alice.get_by_test_id("btn-takeback").focus()
    alice.keyboard.press("Enter")
    expect(bob.get_by_test_id("btn-takeback-accept")).to_be_visible()
    bob.get_by_test_id("btn-takeback-accept").click()
    for page in pages.values():
        at_ply(page, 2)
        expect(page.get_by_test_id("moves").locator("li")).to_have_count(2)
    expect(alice.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
    expect(bob.locator("#announce")).to_contain_text("Ruch cofnięty")
    expect(alice.get_by_test_id("takebacks-left")).to_have_text("Pozostałe cofnięcia: 1")
    # the board drawn for ply 2 is the server's own picture of it, and play goes on
    fresh = alice.evaluate("() => window.kropkiMatch.freshBoard()")
    alice.wait_for_function("() => window.kropkiMatch.boardReady()")
    assert re.sub(r' tabindex="-?\d"| preview', "", alice.locator("#board").inner_html()) == re.sub(
        r' tabindex="-?\d"| preview', "", fresh
    )
    play_all(pages, [("alice", 6), ("bob", 0)], start_ply=2)
    expect(alice.get_by_test_id("moves").locator("li")).to_have_count(4)


# The board's description as shown, and the server's own of the match's position now (no cache).
SHOWN_DESC = """() => document.querySelector("#board svg desc").textContent"""
SERVER_DESC = """async () => {
  const ply = window.kropkiMatch.ply();
  const url = location.pathname + "plansza/" + ply + "/?live=1&lang=pl";
  const svg = await (await fetch(url, {cache: "no-store"})).text();
  return new DOMParser().parseFromString(svg, "image/svg+xml").querySelector("desc").textContent;
}"""


def _takeback(asker, answerer, ply: int) -> None:
    asker.get_by_test_id("btn-takeback").click()
    answerer.get_by_test_id("btn-takeback-accept").click()
    for page in (asker, answerer):
        at_ply(page, ply)
        page.wait_for_function("() => window.kropkiMatch.boardReady()")


def test_a_takeback_to_a_ply_shown_before_draws_the_position_of_now(new_context, live_url, live_site):
    """A board fetched for ply 2, then another position at ply 2 after later takebacks: the page
    shows the new one (a board's address is cached as immutable: each takeback gets its own)."""
    data = live_site.call("players_with_match", variant="cztery-w-rzedzie")
    alice = open_match(new_context, live_url, data["match"], data["alice"], **PHONE)
    bob = open_match(new_context, live_url, data["match"], data["bob"], **PHONE)
    pages = {"alice": alice, "bob": bob}
    play_all(pages, [("alice", 3), ("bob", 2), ("alice", 4)])
    _takeback(alice, bob, 2)  # [3, 2]: the board of ply 2 fetched
    play_all(pages, [("alice", 6)], start_ply=2)
    _takeback(bob, alice, 1)  # bob's 2 and alice's 6 go: [3]
    play_all(pages, [("bob", 5), ("alice", 0)], start_ply=1)
    _takeback(alice, bob, 2)  # [3, 5]: ply 2 again, another position
    for page in pages.values():
        shown = page.evaluate(SHOWN_DESC)
        assert shown == page.evaluate(SERVER_DESC), shown
        assert "Kolumna 6 (od dołu): niebieskie" in shown and "Kolumna 3 (od dołu): pusta" in shown, shown


def test_takeback_against_the_computer_thinking_and_column_words_at_360_px(new_context, celery_worker_proc):
    page = new_context(**PHONE).new_page()
    page.goto("/graj/komputer/")
    page.get_by_label("Cztery w rzędzie").check()
    page.get_by_label("łatwy").check()
    page.get_by_label("różowe (zaczynają)").check()
    page.get_by_role("button", name="Zacznij partię").click()
    expect(page).to_have_url(re.compile(r"/partia/\d+/$"))
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    # every text the turn line shows, in order (the computer's reply may come within milliseconds)
    page.evaluate(
        """() => { const el = document.getElementById("turn"); window.__turns = [el.textContent];
        new MutationObserver(() => window.__turns.push(el.textContent)).observe(el, {childList: true,
        characterData: true, subtree: true}); }"""
    )
    click(page, 3)
    expect(page.locator("#match")).to_have_attribute("data-ply", "2", timeout=30_000)
    turns = page.evaluate("() => window.__turns")
    assert "Komputer myśli…" in turns, turns
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
    # the computer's move said as the board's buttons name it
    expect(page.locator("#announce")).to_have_text(re.compile(r"^Komputer \(łatwy\): kolumna [1-7]\.$"))
    expect(page.get_by_test_id("moves")).to_contain_text("kolumna 4")

    page.get_by_test_id("btn-takeback").click()
    at_ply(page, 0)
    expect(page.get_by_test_id("moves").locator("li")).to_have_count(0)
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
    expect(page.get_by_test_id("takebacks-left")).to_have_text("Pozostałe cofnięcia: 2")
    page.wait_for_function("() => window.kropkiMatch.boardReady()")
    # and the game goes on from the start
    click(page, 0)
    expect(page.locator("#match")).to_have_attribute("data-ply", "2", timeout=30_000)
    expect(page.get_by_test_id("moves")).to_contain_text("kolumna 1")


def test_a_rated_game_has_no_takeback_button(new_context, live_url, live_site):
    data = live_site.call("players_with_match", variant="cztery-w-rzedzie", rated=True)
    alice = open_match(new_context, live_url, data["match"], data["alice"], **PHONE)
    assert alice.get_by_test_id("btn-takeback").count() == 0


def test_the_result_takes_the_focus_when_the_game_ends(new_context, live_url, live_site):
    data = live_site.call("players_with_match", variant="cztery-w-rzedzie")
    alice = open_match(new_context, live_url, data["match"], data["alice"], **PHONE)
    bob = open_match(new_context, live_url, data["match"], data["bob"], **PHONE)
    ply = play_all({"alice": alice, "bob": bob}, [("alice", 0), ("bob", 1)] * 3)
    # alice's winning disc by keyboard: the board's target has the focus when the game ends
    target = alice.locator('#board [data-action="0"]')
    target.focus()
    alice.keyboard.press("Enter")
    for page in (alice, bob):
        at_ply(page, ply + 1)
        expect(page.get_by_test_id("result")).to_be_visible()
        expect(page.get_by_test_id("result")).to_be_focused()
    assert alice.evaluate("() => document.activeElement.id") == "result"


def test_the_play_on_alone_notice_is_said_once_not_after_every_move(new_context, live_url, live_site):
    data = live_site.call("players_with_match", variant="kropki-10")
    # the default viewport: at 360 px a Kropki tap selects first (tap to confirm)
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    # bob ends his game at once; alice plays on alone, move after move
    click(alice, P(4, 4))
    at_ply(bob, 1)
    bob.get_by_test_id("btn-end").click()
    bob.get_by_test_id("confirm-yes").click()
    at_ply(alice, 2)
    expect(alice.get_by_test_id("announce")).to_contain_text("możesz grać dalej w pojedynkę")
    for ply, point in ((2, P(7, 7)), (3, P(2, 7))):
        click(alice, point)
        at_ply(alice, ply + 1)
        expect(alice.get_by_test_id("announce")).to_have_text(re.compile(r"^alice: [a-k]\d+\.$"))
    expect(alice.get_by_test_id("notice")).to_have_text("bob: koniec gry; możesz grać dalej w pojedynkę.")


# The words of the issue: Polish on the first English page of a fresh site.
ISSUE_WORDS = ("Piłkarzyki", "Zasady", "Turnieje", "Wszystkie turnieje")


def test_the_first_page_of_a_fresh_site_asked_for_in_english_is_english(browser):
    with live.own_site("ux3-first-english") as site:
        # ready when a static file answers: the site's first Django page is the test's
        _proc, url = site.start_daphne(ready_path="/static/css/site.css")
        context = browser.new_context(base_url=url, locale="en-US", service_workers="block", **PHONE)
        try:
            page = context.new_page()
            page.goto("/")
            expect(page.locator("html")).to_have_attribute("lang", "en")
            text = page.evaluate("() => document.body.innerText")
            assert not [word for word in ISSUE_WORDS if word in text], text
            assert not polish_on(page)
            expect(page.get_by_role("heading", name="Tournaments")).to_be_visible()
            assert "Paper Soccer" in text
        finally:
            context.close()
