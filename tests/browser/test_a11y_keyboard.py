"""Whole games with the keyboard alone, against the computer, as a guest.

"Graj z komputerem" (/graj/komputer/) is submitted with Tab and Enter; on the
match page Tab reaches the board (one tab stop, roving focus), the arrows move
between the playable points and Enter plays. After every move the ARIA live
region (#announce, aria-live=polite) says what happened, and at the end it
says the result. The two colours are also told apart by shape in the SVG.
The computer's moves come from a real Celery worker on the bots queue.
"""

from __future__ import annotations

import random
import re

from playwright.sync_api import expect

IN_BOARD = "document.activeElement && !!document.activeElement.closest('#board [data-action]')"


def active_id(page) -> str:
    return page.evaluate(
        "document.activeElement ? (document.activeElement.id || "
        "document.activeElement.getAttribute('data-testid') || "
        "document.activeElement.tagName) : ''"
    )


def tab_until(page, predicate_js: str, limit: int = 80) -> None:
    for _ in range(limit):
        if page.evaluate(predicate_js):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached: {predicate_js}")


def start_against_computer(page, variant: str) -> None:
    page.goto(f"/graj/komputer/?variant={variant}&level=latwy&colour=pink")
    expect(page.locator(f"input[name=variant][value='{variant}']")).to_be_checked()
    tab_until(page, "document.activeElement && document.activeElement.matches('main form button[type=submit]')")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/partia/\d+/$"))
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    # Record everything written into the live region (the same words twice are two announcements).
    page.evaluate("""() => { const el = document.getElementById("announce"); window.__said = [];
        new MutationObserver(() => window.__said.push(el.textContent))
            .observe(el, {childList: true, characterData: true, subtree: true}); }""")


def said(page) -> list[str]:
    return page.evaluate("window.__said")


def ply(page) -> int:
    return int(page.locator("#match").get_attribute("data-ply") or 0)


def finished(page) -> bool:
    return page.get_by_test_id("result").is_visible()


def keyboard_move(page, rng: random.Random) -> None:
    """Reach the board by Tab if focus is elsewhere, wander with the arrows, play with Enter."""
    tab_until(page, IN_BOARD)
    for _ in range(rng.randrange(0, 4)):
        page.keyboard.press(rng.choice(["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"]))
    assert page.evaluate(IN_BOARD)
    before = ply(page)
    announced = len(said(page))
    page.keyboard.press("Enter")
    expect(page.locator("#match")).not_to_have_attribute("data-ply", str(before))
    page.wait_for_function(f"window.__said.length > {announced}")
    assert said(page)[announced].strip()  # our own move, announced


def wait_my_turn(page, timeout: float = 30_000) -> None:
    """Pink moves on even plies (no extra turns in these games); or the game is over."""
    page.wait_for_function(
        "() => { const m = document.getElementById('match');"
        " return +m.dataset.ply % 2 === 0 || !document.getElementById('result').hidden; }",
        timeout=timeout,
    )


def test_a_whole_cztery_w_rzedzie_game_by_keyboard(new_context, celery_worker_proc):
    page = new_context().new_page()
    start_against_computer(page, "cztery-w-rzedzie")
    rng = random.Random(4)
    shapes_checked = False
    while not finished(page):
        keyboard_move(page, rng)
        wait_my_turn(page)
        if not shapes_checked and ply(page) >= 2:
            # pink discs carry a white dot, blue discs a white ring: not told apart by colour alone
            board = page.locator("#board svg")
            assert board.locator("circle.disc.p1").count() == board.locator("circle.disc-dot").count() >= 1
            assert board.locator("circle.disc.p2").count() == board.locator("circle.disc-ring").count() >= 1
            shapes_checked = True
        assert ply(page) <= 42
    result = page.get_by_test_id("result").text_content()
    assert result and result.strip()
    page.wait_for_function("t => window.__said.some(s => s.includes(t))", arg=result.strip()[:20])
    assert shapes_checked


def test_a_kropki_game_by_keyboard_ended_with_the_end_button(new_context, celery_worker_proc):
    page = new_context().new_page()
    start_against_computer(page, "kropki-10")
    rng = random.Random(7)
    for _ in range(6):
        keyboard_move(page, rng)
        wait_my_turn(page)
    # pink dots are circles, blue dots squares
    board = page.locator("#board svg")
    assert board.locator("circle.dot.p1").count() >= 6
    assert board.locator("rect.dot.p2").count() >= 6
    assert board.locator("rect.dot.p1, circle.dot.p2").count() == 0
    # End the game (zakończ): Tab to the button, Enter, then confirm in the dialog by keyboard
    tab_until(page, "document.activeElement && document.activeElement.id === 'btn-end'")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("confirm")).to_be_visible()
    assert active_id(page) == "confirm-no"  # the safe choice has the focus
    tab_until(page, "document.activeElement && document.activeElement.id === 'confirm-yes'", limit=6)
    page.keyboard.press("Enter")
    # the computer plays on alone until it ends too or the board is full
    expect(page.get_by_test_id("result")).to_be_visible(timeout=120_000)
    result = page.get_by_test_id("result").text_content().strip()
    page.wait_for_function("t => window.__said.some(s => s.includes(t))", arg=result[:20])
