"""Issue 25, the site's part (items 7, 14, 16, 18), in a real Chromium against daphne:

- the name in the header opens the player's profile; Settings has its own link;
- at 360 px the header keeps the language switch beside the account links (two rows);
- the settings' checkboxes sit beside their labels; "Zapis" stays one word at 1280 px;
- the confirm dialog's two buttons look different; the chat input's label is visible;
- /favicon.ico is served;
- delete my account from Settings, with the password; the privacy, settings and
  delete pages pass axe in both languages.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.test_a11y import AXE, BLOCKING, axe_violations
from tests.live_play.conftest import create_match

from .test_match_browser import open_match

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
HEADER_MAX_PX = 90  # two rows (tests/browser/test_layout.py)


@pytest.fixture(scope="module")
def ux2(live_site):
    return live_site.call("ux2_profiles")


def member_page(new_context, live_url, data, cookie: str, lang: str = "pl", **kwargs):
    context = new_context(**kwargs)
    context.add_cookies(
        [
            {"name": data["cookie_name"], "value": cookie, "url": live_url},
            {"name": "kropki_language", "value": lang, "url": live_url},
        ]
    )
    return context.new_page()


def test_the_name_in_the_header_opens_the_profile_and_settings_has_its_own_link(new_context, live_url, ux2):
    me = ux2["lang"]["pl"]
    page = member_page(new_context, live_url, ux2, me["cookie"], viewport=DESKTOP)
    page.goto("/")
    page.get_by_test_id("account-link").click()
    expect(page.get_by_test_id("profile-name")).to_have_text(me["username"])
    page.get_by_role("link", name="Ustawienia").click()
    expect(page.get_by_role("heading", name="Ustawienia", exact=True)).to_be_visible()


HEADER = """() => {
  const box = (el) => el.getBoundingClientRect();
  const header = box(document.querySelector(".site-header"));
  const lang = box(document.querySelector(".lang-form button"));
  const account = box(document.querySelector(".account-nav li:last-child"));
  return {height: header.height, langTop: lang.top, langBottom: lang.bottom,
          accountTop: account.top, accountBottom: account.bottom,
          width: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("lang", ["pl", "en"])
@pytest.mark.parametrize("who", ["member", "visitor"])
def test_the_phone_header_keeps_the_language_beside_the_account_links(new_context, live_url, ux2, lang, who):
    if who == "member":
        page = member_page(new_context, live_url, ux2, ux2["lang"][lang]["cookie"], lang, viewport=PHONE)
    else:
        context = new_context(viewport=PHONE)
        context.add_cookies([{"name": "kropki_language", "value": lang, "url": live_url}])
        page = context.new_page()
    for url in ("/", "/konto/ustawienia/" if who == "member" else "/faq/"):
        page.goto(url)
        geometry = page.evaluate(HEADER)
        assert geometry["width"] <= PHONE["width"], (url, geometry)
        assert geometry["height"] <= HEADER_MAX_PX, (url, geometry)
        # "EN"/"PL" on the row of the account links, not a row of its own
        assert geometry["langTop"] < geometry["accountBottom"] and geometry["accountTop"] < geometry["langBottom"], (
            url,
            geometry,
        )
    if who == "member":
        gear = page.get_by_test_id("settings-link")
        expect(gear).to_be_visible()
        expect(gear).to_have_accessible_name("Ustawienia" if lang == "pl" else "Settings")


def test_settings_checkboxes_sit_beside_their_labels(new_context, live_url, ux2):
    page = member_page(new_context, live_url, ux2, ux2["lang"]["pl"]["cookie"], viewport=DESKTOP)
    page.goto("/konto/ustawienia/")
    for name in ("invisible", "notify_sound", "notify_title"):
        box = page.locator(f"#id_{name}").bounding_box()
        label = page.locator(f'label[for="id_{name}"]').bounding_box()
        assert box["x"] + box["width"] <= label["x"] <= box["x"] + box["width"] + 24, (name, box, label)
        middle = box["y"] + box["height"] / 2
        assert label["y"] <= middle <= label["y"] + label["height"], (name, box, label)
    page.get_by_text("Tryb niewidoczności").click()  # the label toggles its box
    expect(page.locator("#id_invisible")).to_be_checked()


def test_the_record_link_in_the_profile_table_is_one_line_at_1280(new_context, live_url, ux2):
    me = ux2["lang"]["pl"]
    page = member_page(new_context, live_url, ux2, me["cookie"], viewport=DESKTOP)
    page.goto(f"/gracz/{me['username']}/")
    link = page.get_by_test_id("record-link").first
    expect(link).to_have_text("Zapis")
    height = link.bounding_box()["height"]
    line = page.evaluate("(el) => parseFloat(getComputedStyle(el).lineHeight) || 20", link.element_handle())
    assert height < 1.5 * line, (height, line)


def test_the_confirm_dialogs_buttons_differ_and_the_chat_label_shows(new_context, live_url, live_site):
    data = create_match(live_site, "cztery-w-rzedzie")
    alice = open_match(new_context, live_url, data["match"], data["alice"], viewport=DESKTOP)
    alice.get_by_test_id("btn-resign").click()
    expect(alice.get_by_test_id("confirm")).to_be_visible()
    colours = alice.evaluate("""() => ["confirm-yes", "confirm-no"].map((id) => {
        const s = getComputedStyle(document.getElementById(id));
        return [s.backgroundColor, s.color];
    })""")
    yes, no = colours
    assert yes[0] != no[0] and yes[1] != no[1], colours
    alice.locator("#confirm-no").click()
    expect(alice.get_by_test_id("confirm")).to_be_hidden()
    label = alice.locator('label[for="chat-text"]')
    expect(label).to_be_visible()
    assert label.bounding_box()["width"] > 40  # shown, not the 1-px visually-hidden box


def test_favicon_is_served(page):
    response = page.goto("/favicon.ico")
    assert response.status == 200 and response.headers["content-type"] in {"image/x-icon", "image/vnd.microsoft.icon"}


def test_delete_my_account_from_settings_with_the_password(new_context, live_url, ux2):
    leaving = ux2["leaving"]
    page = member_page(new_context, live_url, ux2, leaving["cookie"], viewport=PHONE)
    page.goto("/konto/ustawienia/")
    page.get_by_test_id("delete-account-link").click()
    page.get_by_label("Twoje hasło").fill("nie-to-haslo")
    page.get_by_test_id("delete-account").click()
    expect(page.get_by_role("alert")).to_contain_text("To nie jest Twoje hasło.")
    expect(page.get_by_label("Twoje hasło")).to_be_focused()
    page.get_by_label("Twoje hasło").fill("kropka-Trudna-2024")
    page.get_by_test_id("delete-account").click()
    expect(page.get_by_role("status")).to_contain_text("Twoje konto zostało usunięte")
    expect(page.get_by_test_id("account-link")).to_have_count(0)
    assert page.goto(f"/gracz/{leaving['username']}/").status == 404


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_the_new_pages_pass_axe(new_context, live_url, ux2, lang):
    assert AXE.exists(), "node_modules/axe-core is missing: run npm ci (scripts/test does)"
    page = member_page(new_context, live_url, ux2, ux2["lang"][lang]["cookie"], lang, bypass_csp=True)
    failures = {}
    for label, url in [
        ("privacy", "/prywatnosc/"),
        ("settings", "/konto/ustawienia/"),
        ("delete account", "/konto/usun/"),
        ("faq", "/faq/"),
    ]:
        response = page.goto(url)
        assert response.status == 200, (label, response.status)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        bad = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
        if bad:
            failures[label] = bad
    page.goto("/konto/usun/")
    page.get_by_label("Twoje hasło" if lang == "pl" else "Your password").fill("nie-to-haslo")
    page.get_by_test_id("delete-account").click()  # a wrong password: the error under the field
    expect(page.locator("#id_password_error")).to_be_visible()
    bad = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    if bad:
        failures["delete with an error"] = bad
    assert not failures, json.dumps(failures, indent=1, ensure_ascii=False)
