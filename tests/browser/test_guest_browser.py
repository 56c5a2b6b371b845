"""A guest who played the computer keeps a clear way to an account, in a real
Chromium against daphne: "Gość" rather than a member's name, "Załóż konto" in
the header and on the home page, and signing up keeps the game."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from tests.browser.forms import fill_sign_up

PASSWORD = "planszowka-Mocna-91"


def test_a_guest_keeps_the_way_to_an_account_and_signing_up_keeps_the_game(new_context):
    page = new_context(viewport={"width": 360, "height": 740}).new_page()
    page.goto("/graj/komputer/")
    page.get_by_label("Cztery w rzędzie").check()
    page.get_by_label("łatwy").check()
    page.get_by_label("różowe (zaczynają)").check()
    page.get_by_role("button", name="Zacznij partię").click()
    expect(page).to_have_url(re.compile(r"/partia/\d+/$"))
    match_url = page.url

    header = page.locator(".account-nav")
    expect(header.get_by_test_id("guest-label")).to_have_text("Gość")
    expect(header.get_by_role("link", name="Załóż konto")).to_be_visible()
    expect(header).not_to_contain_text("gosc-")
    expect(header.get_by_role("button", name="Wyloguj się")).to_have_count(0)

    page.goto("/")
    expect(page.get_by_test_id("home-signup")).to_be_visible()
    expect(page.get_by_test_id("guest-note")).to_contain_text("Grasz jako gość")
    expect(page.locator("body")).not_to_contain_text("gosc-")

    username = "Gracz_" + secrets.token_hex(3)
    header.get_by_role("link", name="Załóż konto").click()
    expect(page).to_have_url(re.compile(r"/konto/rejestracja/$"))
    fill_sign_up(page, username, PASSWORD)

    expect(page.get_by_test_id("account-link")).to_have_text(username)
    expect(page.get_by_test_id("guest-label")).to_have_count(0)
    # The game played as a guest is now the new account's.
    page.goto(match_url)
    expect(page.get_by_test_id("player-1")).to_contain_text(username)
