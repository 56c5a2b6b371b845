"""A guest plays the computer in a real browser: no account, a real Celery
worker on the bots queue makes the computer's moves."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def ply_of(page) -> int:
    return int(page.locator("#match").get_attribute("data-ply"))


def test_a_guest_plays_kropki_against_the_computer_reloads_and_ends_the_game(page, celery_worker_proc):
    page.goto("/graj/komputer/")
    page.get_by_label("Kropki 10×10, szybka").check()
    page.get_by_label("średni").check()
    page.get_by_label("różowe (zaczynają)").check()
    page.get_by_role("button", name="Zacznij partię").click()
    expect(page).to_have_url(re.compile(r"/partia/\d+/$"))
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("player-2")).to_contain_text("Komputer (średni)")
    assert page.get_by_test_id("btn-draw").count() == 0  # no draw agreements with the computer

    for _ in range(4):
        ply = ply_of(page)
        expect(page.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
        page.locator("#board [data-action]").nth(ply * 3 + 5).click()
        # our dot, then the computer's answer over the bots queue
        expect(page.locator("#match")).to_have_attribute("data-ply", str(ply + 2), timeout=20_000)
    expect(page.get_by_test_id("moves").locator("li")).to_have_count(8)
    before = page.locator("#board").inner_html()

    page.reload()
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(page.locator("#match")).to_have_attribute("data-ply", "8")
    expect(page.get_by_test_id("moves").locator("li")).to_have_count(8)
    assert re.sub(r' tabindex="-?\d"| preview', "", page.locator("#board").inner_html()) == re.sub(
        r' tabindex="-?\d"| preview', "", before
    )

    page.get_by_test_id("btn-end").click()
    expect(page.get_by_test_id("confirm")).to_be_visible()
    page.get_by_test_id("confirm-yes").click()
    # Having ended, we wait while the computer plays on alone and then ends too.
    expect(page.get_by_test_id("result")).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("result")).to_have_text(re.compile("Wygrywają|Remis"))


def test_the_computer_page_shows_the_chosen_games_settings_and_starts_a_game_with_them(new_context):
    """SPEC.md "Kropki: options", in English: only the chosen game's settings show (and are
    sent); a Kropki game from a cross on 20×20 with a margin starts with them, and its page
    names them."""
    page = new_context(locale="en-US").new_page()
    page.goto("/graj/komputer/")
    options = page.get_by_test_id("options-kropki")
    page.get_by_label("Dots 10×10, quick").check()
    expect(options).to_be_visible()
    page.get_by_label("Four in a Row").check()
    expect(options).to_be_hidden()
    expect(page.get_by_test_id("opt-kropki-board")).to_be_disabled()
    page.get_by_label("Dots 10×10, quick").check()
    expect(options).to_be_visible()
    page.get_by_label("Board", exact=True).select_option("20x20")
    page.get_by_label("Starting position").select_option("cross")
    page.get_by_label("Win by a margin").select_option("15")
    page.get_by_label("pink (moves first)").check()
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/partia/\d+/$"))
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("match-options")).to_have_text(
        "Board: 20×20 · Starting position: from a cross · Win by a margin: a lead of 15"
    )
    expect(page.locator("#board [data-action]")).to_have_count(20 * 20 - 4)  # the cross's points are taken
