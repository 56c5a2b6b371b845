"""Sign up, log out, log in again and switch the language in a real Chromium against daphne."""

import re
import secrets

from playwright.sync_api import expect

from tests.browser.forms import fill_sign_up

PASSWORD = "planszowka-Mocna-91"


def test_sign_up_log_out_log_in_and_switch_language(page, live_url):
    username = "Gracz_" + secrets.token_hex(3)
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    page.get_by_role("link", name="Załóż konto").first.click()
    expect(page).to_have_url(re.compile(r"/konto/rejestracja/$"))

    fill_sign_up(page, username, PASSWORD)

    expect(page.get_by_test_id("account-link")).to_have_text(username)
    expect(page.get_by_role("status")).to_contain_text(f"Witaj, {username}!")

    page.get_by_role("button", name="Wyloguj się").click()
    expect(page.get_by_role("link", name="Zaloguj się")).to_be_visible()
    expect(page.get_by_test_id("account-link")).to_have_count(0)

    page.get_by_role("link", name="Zaloguj się").click()
    page.get_by_label("Nazwa użytkownika").fill(username.upper())  # log-in ignores case
    page.get_by_label("Hasło").fill("nie-to-haslo")
    page.get_by_role("button", name="Zaloguj się").click()
    expect(page.get_by_role("alert")).to_contain_text("Niepoprawna nazwa użytkownika lub hasło")
    page.get_by_label("Hasło").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj się").click()
    expect(page.get_by_test_id("account-link")).to_have_text(username)

    # Switch to English from the header; the choice is kept on the account.
    page.get_by_test_id("lang-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    page.get_by_test_id("settings-link").click()
    expect(page.get_by_role("heading", name="Settings")).to_be_visible()
    expect(page.get_by_label("English")).to_be_checked()

    # And back to Polish through the settings page.
    page.get_by_label("Polish").check()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.get_by_role("status")).to_contain_text("Ustawienia zapisane.")
    assert not [e for e in errors if "Content Security Policy" in e], errors


def test_keyboard_skip_link_and_narrow_screen(new_context):
    page = new_context(viewport={"width": 360, "height": 740}).new_page()
    page.goto("/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Przejdź do treści")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
    # Nothing overflows a 360 px phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_websockets_through_daphne(page, live_url):
    """The socket stack in production (routing, origin check, session, database): ws/ping/ is not
    routed there (settings.WS_PING), so it and an unknown match are opened and closed with 4404."""
    page.goto("/")
    result = page.evaluate(
        """(paths) => Promise.all(paths.map((path) => new Promise((resolve, reject) => {
            const ws = new WebSocket(location.origin.replace('http', 'ws') + path);
            let opened = false;
            ws.onopen = () => { opened = true; };
            ws.onclose = (e) => resolve([opened, e.code]);
            setTimeout(() => reject('timeout'), 5000);
        })))""",
        ["/ws/ping/", "/ws/match/987654/"],
    )
    assert result == [[True, 4404], [True, 4404]]


def test_healthz_and_a_celery_worker(live_url, live_site, celery_worker_proc):
    from celery import Celery

    from kropki_site.settings import celery_broker_url
    from tests.live import site_healthz

    health = site_healthz(live_url)
    assert health["http_status"] == 200 and health["failing"] == [], health
    # The site's own Redis; not made this thread's current app: the process runs other modules
    # after the browser tests, and one patches the current app's send_task for the publisher.
    app = Celery("kropki-test", broker=celery_broker_url(live_site.env["REDIS_URL"]), set_as_current=False)
    replies = app.control.ping(timeout=5)
    assert any(celery_worker_proc.name in next(iter(reply)) for reply in replies), replies
