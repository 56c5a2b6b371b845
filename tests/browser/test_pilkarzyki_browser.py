"""Piłkarzyki in a real browser: a bounce keeps the turn (and survives a reload
in the middle of the bounce chain), the keyboard plays every direction, and a
guest plays each computer level to the end (a real Celery worker)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.catalogue import variant as get_variant
from tests.live_play.conftest import create_match

from .test_match_browser import at_ply, open_match


def first_bounce() -> list[int]:
    """A short opening whose last move bounces (the mover moves again)."""
    state = get_variant("pilkarzyki").game().new_initial_state()
    moves = []
    for action in (0, 3, 6):  # pink N, blue SE, pink W: back onto the kick-off point, used: pink again
        effect = state.apply_action(action)
        moves.append(action)
        if effect.details["extra_move"]:
            return moves
    raise AssertionError(f"no bounce in {moves}")


def test_a_bounce_keeps_the_turn_across_a_reload_and_the_keyboard_plays(new_context, live_url, live_site):
    moves = first_bounce()
    data = create_match(live_site, "pilkarzyki")
    pages = {
        "alice": open_match(new_context, live_url, data["match"], data["alice"]),
        "bob": open_match(new_context, live_url, data["match"], data["bob"]),
    }
    state = get_variant("pilkarzyki").game().new_initial_state()
    for ply, action in enumerate(moves):
        who = "alice" if state.current_player() == 1 else "bob"
        at_ply(pages[who], ply)
        pages[who].locator(f'#board [data-action="{action}"]').click()
        state.apply_action(action)
        for page in pages.values():
            at_ply(page, ply + 1)
    mover = "alice" if state.current_player() == 1 else "bob"
    page = pages[mover]
    # the bounce is obvious: the same player's turn, the turn's path drawn, the ball ringed
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
    expect(page.locator("#board .turn-path")).to_have_count(1)
    expect(page.locator("#board .ball.moves-again")).to_have_count(1)

    page.reload()  # in the middle of the bounce chain
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    at_ply(page, len(moves))
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch"))
    expect(page.locator("#board .turn-path")).to_have_count(1)

    # the keyboard: Tab into the board, a direction key focuses that direction, the same key plays it
    legal = state.legal_actions()
    key, action = next(
        (k, a) for k, a in (("ArrowUp", 0), ("ArrowRight", 2), ("ArrowDown", 4), ("ArrowLeft", 6)) if a in legal
    )
    page.locator("#board [data-action]").first.focus()
    page.keyboard.press(key)
    expect(page.locator(f'#board [data-action="{action}"]')).to_be_focused()
    page.keyboard.press(key)
    at_ply(page, len(moves) + 1)
    state.apply_action(action)
    at_ply(pages["alice" if mover == "bob" else "bob"], len(moves) + 1)


@pytest.mark.slow
@pytest.mark.parametrize("level", ["łatwy", "średni", "trudny"])
def test_a_guest_plays_each_computer_level_to_the_end(page, celery_worker_proc, level):
    page.goto("/graj/komputer/")
    page.get_by_label("Piłkarzyki").check()
    page.get_by_label(level).check()
    page.get_by_label("różowe (zaczynają)").check()
    page.get_by_role("button", name="Zacznij partię").click()
    expect(page).to_have_url(re.compile(r"/partia/\d+/$"))
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    for _ in range(200):
        if page.get_by_test_id("result").is_visible():
            break
        expect(page.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch|Partia zakończona"), timeout=30_000)
        if page.get_by_test_id("result").is_visible():
            break
        ply = int(page.locator("#match").get_attribute("data-ply"))
        page.locator("#board [data-action]").first.click()
        expect(page.locator("#match")).not_to_have_attribute("data-ply", str(ply), timeout=30_000)
    expect(page.get_by_test_id("result")).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("result")).to_have_text(re.compile("Wygrywają"))
