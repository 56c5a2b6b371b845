"""The pages a new player looks for, in a real Chromium against daphne (DEBUG off):
the FAQ, the rules index, an error page, the ranking with provisional players and a
sign-up form with errors pass axe in both languages; after a refused sign-up the
focus is on the first field with an error, whose error is read with it."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.test_a11y import AXE, BLOCKING, axe_violations


@pytest.fixture(scope="module")
def provisional_player(live_site):
    return live_site.call("provisional_player")["username"]


def fill_signup(page, password1: str, password2: str) -> None:
    page.goto("/konto/rejestracja/")
    page.locator("#id_username").fill("Zosia_ux")
    page.locator("#id_email").fill("zosia_ux@example.com")
    page.locator("#id_password1").fill(password1)
    page.locator("#id_password2").fill(password2)
    page.locator("form.stack-form button[type=submit]").click()


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_the_new_pages_pass_axe(new_context, live_url, provisional_player, lang):
    assert AXE.exists(), "node_modules/axe-core is missing: run npm ci (scripts/test does)"
    context = new_context(bypass_csp=True)
    context.add_cookies([{"name": "kropki_language", "value": lang, "url": live_url}])
    page = context.new_page()
    failures = {}
    for label, url, status in [
        ("faq", "/faq/", 200),
        ("rules index", "/zasady/", 200),
        ("404", "/nie-ma-takiej-strony/", 404),
        ("ranking", "/ranking/kropki-i-kwadraty/", 200),
    ]:
        response = page.goto(url)
        assert response.status == status, (label, response.status)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        if label == "ranking":
            expect(page.get_by_test_id("provisional-row")).to_contain_text(provisional_player)
            expect(page.get_by_test_id("provisional-row")).to_contain_text("1620?")
        bad = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
        if bad:
            failures[label] = bad
    fill_signup(page, "abc", "abc")
    expect(page.locator("#id_password1_error")).to_be_visible()
    bad = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    if bad:
        failures["sign-up with errors"] = bad
    assert not failures, json.dumps(failures, indent=1, ensure_ascii=False)


def test_a_refused_sign_up_puts_the_focus_on_the_password_and_its_error_under_it(page):
    fill_signup(page, "abc", "abc")
    password = page.locator("#id_password1")
    expect(password).to_be_focused()
    expect(password).to_have_attribute("aria-invalid", "true")
    error = page.locator("#id_password1_error")
    expect(error).to_contain_text("za krótkie")
    # The error is below the password field, not at the top of the form.
    assert error.bounding_box()["y"] > password.bounding_box()["y"]
    assert "id_password1_error" in password.get_attribute("aria-describedby").split()
