"""Issue 13, items 4 and 9 in a real Chromium on a Polish page (DEBUG off):

- item 4: a player's second page of matches says "Strona 2" (the entry was
  fuzzy, so pagination showed in English), and a password like the name is refused
  in whole Polish ("… do Twojej nazwy użytkownika", not "do nazwa użytkownika");
- item 9: the home page's "Grają teraz" counts the people in the matches it lists
  (a game against the computer is neither counted nor listed).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


@pytest.fixture(scope="module")
def seeded(live_site):
    live_site.call("polish_pages_seed")


def test_pagination_and_the_password_message_are_polish(page, seeded):
    page.goto("/gracz/ola_strony/?strona=2")
    pagination = page.locator("nav.pagination")
    expect(pagination).to_contain_text("Strona 2")
    assert "Page" not in pagination.inner_text()
    expect(pagination.locator("a[rel=prev]")).to_be_visible()

    page.goto("/konto/rejestracja/")
    page.locator("#id_username").fill("marzena_kowalska")
    page.locator("#id_email").fill("marzena@example.com")
    page.locator("#id_password1").fill("marzena_kowalska1")
    page.locator("#id_password2").fill("marzena_kowalska1")
    page.locator("form.stack-form button[type=submit]").click()
    error = page.locator("#id_password1_error")
    expect(error).to_contain_text("Hasło jest zbyt podobne do Twojej nazwy użytkownika.")
    assert "nazwa użytkownika" not in page.locator("main").inner_text()


def test_the_home_page_counts_the_people_of_the_matches_it_lists(page, seeded):
    page.goto("/")
    listed = page.locator("ul.live-matches li")
    count = int(page.get_by_test_id("playing-count").inner_text())
    links = page.locator("ul.live-matches a[href^='/partia/']")
    expect(links).to_have_count(1)  # the match between two people, not the game against the computer
    assert count == 2, count
    expect(listed.first).to_contain_text("ola_strony")
    expect(listed.first).to_contain_text("ewa_strony")
