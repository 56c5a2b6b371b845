"""Live matches in real browsers: two Chromium contexts (alice and bob), a spectator,
through a real daphne and Redis. Screenshots go to var/screenshots/."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.live_play.conftest import create_match

SHOTS = Path(__file__).resolve().parent.parent.parent / "var" / "screenshots"
P = lambda x, y: y * 10 + x  # noqa: E731 - a Kropki 10x10 point as its action id


def open_match(new_context, live_url, match_id: int, player: dict | None, **kwargs):
    context = new_context(**kwargs)
    if player is not None:
        context.add_cookies([{"name": player["cookie_name"], "value": player["cookie"], "url": live_url}])
    page = context.new_page()
    page.goto(f"/partia/{match_id}/")
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    return page


def at_ply(page, ply: int) -> None:
    """Wait until the page has drawn position ``ply`` (match.js keeps it in #match[data-ply]).
    A wait in the page, not ``expect``: Playwright's expect takes an aria snapshot of the element
    at every poll that does not match yet (for its message), here the whole board; on a 30×30
    game that was three times the page's own work (a CPU profile of the page)."""
    try:
        page.wait_for_function("(ply) => document.getElementById('match').dataset.ply === ply", arg=str(ply))
    except PlaywrightTimeout:
        shown = page.locator("#match").get_attribute("data-ply")
        raise AssertionError(f"the page shows ply {shown}, not {ply}") from None


def until(page, condition, what: str, timeout: float = 5.0) -> None:
    """Wait until ``condition()`` holds, letting ``page`` handle its events meanwhile (the
    callbacks of a WebSocket routed through Playwright run only while Playwright waits)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        page.wait_for_timeout(50)


def click(page, action: int) -> None:
    page.locator(f'#board [data-action="{action}"]').click()


def play_all(pages: dict, moves: list[tuple[Any, int]], start_ply: int = 0, watchers=()) -> int:
    ply = start_ply
    for who, action in moves:
        at_ply(pages[who], ply)
        click(pages[who], action)
        ply += 1
        for page in list(pages.values()) + list(watchers):
            at_ply(page, ply)
    return ply


def board_picture(page) -> str:
    """The board as drawn, without what only this browser adds (focus preview, roving tab stop)."""
    html = page.locator("#board").inner_html()
    html = html.replace(" preview", "")
    return re.sub(r' tabindex="-?\d"', "", html)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_connect_four_to_a_win_with_a_spectator(new_context, live_url, live_site):
    data = create_match(live_site, "cztery-w-rzedzie")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    watcher = open_match(new_context, live_url, data["match"], None)
    expect(alice.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
    expect(bob.get_by_test_id("turn")).to_have_text(re.compile("przeciwnika"))
    expect(watcher.get_by_test_id("spectating")).to_be_visible()
    assert watcher.locator("#controls").count() == 0
    assert watcher.locator("#board [data-action][tabindex]").count() == 0  # nothing to press
    clock = alice.get_by_test_id("clock").inner_text()
    # the turn's seconds left, counting down from 60 (three pages opened on a loaded machine can
    # take 20 s: CI once read "38 s", so any second of the turn but none past it)
    assert re.fullmatch(r"(60|[1-5]\d|[1-9]) s", clock), clock

    ply = play_all(
        {"alice": alice, "bob": bob},
        [("alice", 0), ("bob", 1), ("alice", 0), ("bob", 1), ("alice", 0)],
        watchers=[watcher],
    )
    expect(watcher.get_by_test_id("moves").locator("li")).to_have_count(5)
    shot(watcher, "c4-spectator-midgame")
    play_all({"alice": alice, "bob": bob}, [("bob", 1), ("alice", 0)], start_ply=ply, watchers=[watcher])
    for page in (alice, bob, watcher):
        expect(page.get_by_test_id("result")).to_have_text(re.compile("Wygrywają różowe: cztery w rzędzie"))
    assert alice.locator("#board .win-line").count() == 1
    expect(alice.get_by_test_id("rematch-controls")).to_be_visible()
    expect(alice.locator("#announce")).to_contain_text("Wygrywają różowe")
    shot(alice, "c4-win-alice")


def test_kropki_capture_and_a_dot_falling_into_an_empty_enclosure_and_reload(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    pages = {"alice": alice, "bob": bob}
    # alice surrounds bob's f6 and captures it
    ply = play_all(
        pages,
        [
            ("alice", P(5, 4)),
            ("bob", P(5, 5)),
            ("alice", P(4, 5)),
            ("bob", P(9, 9)),
            ("alice", P(6, 5)),
            ("bob", P(9, 8)),
            ("alice", P(5, 6)),
        ],
    )
    expect(alice.get_by_test_id("score-1")).to_have_text("1")
    expect(bob.get_by_test_id("score-1")).to_have_text("1")
    # alice rings the empty c3 ...
    ply = play_all(
        pages,
        [
            ("bob", P(9, 0)),
            ("alice", P(2, 1)),
            ("bob", P(8, 0)),
            ("alice", P(1, 2)),
            ("bob", P(7, 0)),
            ("alice", P(3, 2)),
            ("bob", P(8, 8)),
            ("alice", P(2, 3)),
        ],
        ply,
    )
    # ... and a reload in the middle of the game restores it exactly
    board_before = board_picture(bob)
    moves_before = bob.get_by_test_id("moves").inner_text()
    bob.reload()
    expect(bob.locator("#match")).to_have_attribute("data-ready", "1")
    expect(bob.locator("#conn")).to_have_attribute("data-state", "connected")
    at_ply(bob, ply)
    assert board_picture(bob) == board_before
    assert bob.get_by_test_id("moves").inner_text() == moves_before
    expect(bob.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
    # bob's dot falls into the empty enclosure: it is taken
    ply = play_all(pages, [("bob", P(2, 2))], ply)
    expect(alice.get_by_test_id("score-1")).to_have_text("2")
    expect(bob.get_by_test_id("score-2")).to_have_text("0")
    shot(alice, "kropki-captures")
    # alice ends the game (confirmation first); bob plays on
    alice.get_by_test_id("btn-end").click()
    expect(alice.get_by_test_id("confirm")).to_be_visible()
    alice.get_by_test_id("confirm-yes").click()
    at_ply(bob, ply + 1)
    expect(bob.get_by_test_id("notice")).to_contain_text("alice: koniec gry")
    shot(bob, "kropki-ended")


def test_kropki_i_kwadraty_extra_move_is_obvious(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-i-kwadraty")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    pages = {"alice": alice, "bob": bob}
    ply = play_all(pages, [("alice", 0), ("bob", 29), ("alice", 5), ("bob", 30), ("alice", 31)])
    expect(alice.get_by_test_id("notice")).to_contain_text("Dodatkowy ruch!")
    expect(bob.get_by_test_id("notice")).to_contain_text("Dodatkowy ruch!")
    expect(alice.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
    expect(alice.get_by_test_id("score-1")).to_have_text("1")
    shot(alice, "dab-extra-move")
    alice.reload()  # the notice comes from the snapshot, so a reload shows it too
    expect(alice.locator("#match")).to_have_attribute("data-ready", "1")
    # a move made before the socket is open is refused (the page says it is offline)
    expect(alice.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(alice.get_by_test_id("notice")).to_contain_text("Dodatkowy ruch!")
    # keyboard: focus a target, arrow to another, Enter plays it
    target = alice.locator('#board [data-action][tabindex="0"]').first
    target.focus()
    alice.keyboard.press("ArrowRight")
    focused = alice.evaluate("document.activeElement.getAttribute('data-action')")
    assert focused is not None
    alice.keyboard.press("Enter")
    at_ply(bob, ply + 1)
    expect(bob.get_by_test_id("moves").locator("li")).to_have_count(ply + 1)


def test_resignation_with_confirmation_and_a_rematch(new_context, live_url, live_site):
    data = create_match(live_site, "cztery-w-rzedzie")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    play_all({"alice": alice, "bob": bob}, [("alice", 3)])
    bob.get_by_test_id("btn-resign").click()
    expect(bob.get_by_test_id("confirm")).to_be_visible()
    bob.locator("#confirm-no").click()  # changed his mind
    expect(bob.get_by_test_id("confirm")).to_be_hidden()
    # ...and plays on: his socket carries his frames in order, so a resignation sent on "No"
    # would have ended the match before this move; alice seeing the move proves none was.
    play_all({"alice": alice, "bob": bob}, [("bob", 4)], start_ply=1)
    expect(alice.get_by_test_id("result")).to_be_hidden()
    bob.get_by_test_id("btn-resign").click()
    bob.get_by_test_id("confirm-yes").click()
    for page in (alice, bob):
        expect(page.get_by_test_id("result")).to_have_text(re.compile("druga strona się poddała"))
    shot(bob, "resigned")
    alice.get_by_test_id("btn-rematch").click()
    expect(bob.locator("#rematch-offered")).to_be_visible()
    bob.get_by_test_id("btn-rematch").click()
    old = data["match"]
    for page in (alice, bob):
        page.wait_for_url(lambda url: re.search(r"/partia/(\d+)/$", url) and f"/partia/{old}/" not in url)
        expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(bob.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))  # colours swapped


def test_challenge_by_link_lands_both_in_the_match(new_context, live_url, live_site):
    data = create_match(live_site, "cztery-w-rzedzie")  # for the users and their sessions
    alice = new_context()
    alice.add_cookies([{"name": data["alice"]["cookie_name"], "value": data["alice"]["cookie"], "url": live_url}])
    bob = new_context()
    bob.add_cookies([{"name": data["bob"]["cookie_name"], "value": data["bob"]["cookie"], "url": live_url}])
    a, b = alice.new_page(), bob.new_page()
    a.goto("/wyzwanie/")
    a.get_by_test_id("variant-kropki-i-kwadraty").check()
    a.get_by_test_id("challenge-create").click()
    link = a.get_by_test_id("challenge-link").input_value()
    assert "/wyzwanie/" in link
    b.goto(link)
    b.get_by_test_id("challenge-accept").click()
    b.wait_for_url(re.compile(r"/partia/\d+/$"))
    a.wait_for_url(b.url, timeout=10_000)  # the creator's page follows within a poll or two
    expect(a.get_by_test_id("board")).to_be_visible()
