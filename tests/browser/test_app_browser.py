"""The phone as home (issue 41, part A; docs/app.md) in a real Chromium at 360 px against daphne:
the installable app (manifest, service worker, offline page), the sounds and their mute switch,
the dark theme (axe on the home, a match, the ranking, a profile, the tournaments, an arena,
the rules and a record page) and the appearance settings, the sockets
reconnecting when the network comes back."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from tests.browser.test_a11y import AXE, BLOCKING, axe_violations
from tests.browser.test_match_browser import P, at_ply, click, open_match, shot
from tests.live_play.conftest import create_match

PHONE = {"width": 360, "height": 740}
# what <html data-theme> said when <body> first appeared (before the first paint)
AT_BODY = """new MutationObserver((changes, observer) => {
    if (!document.body) return;
    window.themeAtBody = document.documentElement.dataset.theme || "none";
    observer.disconnect();
}).observe(document, {childList: true, subtree: true});"""
SOUNDS = "() => Object.assign({all: 0}, (window.kropkiSounds || {}).played || {})"


def play(page, action: int) -> None:
    """A move at 360 px: the phone's tap to confirm is on, so the point is tapped twice."""
    click(page, action)
    if page.get_by_test_id("tap-confirm").is_checked():
        click(page, action)


def controlled(page) -> None:
    """Wait until the service worker is active and controls the page (a reload after its first
    install: the worker claims open pages, the reload shows it in navigator.serviceWorker)."""
    page.wait_for_function("() => window.kropkiApp && window.kropkiApp.worker !== undefined")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=20_000)


def test_manifest_and_worker_make_the_site_installable(new_context, live_url):
    page = new_context(service_workers="allow", viewport=PHONE).new_page()
    page.goto("/")
    controlled(page)
    # the manifest the page links, in its language; the English one names the app in English
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/manifest.webmanifest?lang=pl"
    polish = page.request.get(href)
    assert polish.headers["content-type"].startswith("application/manifest+json")
    manifest = polish.json()
    assert manifest["name"] == "Kropki — polskie gry planszowe"
    assert page.request.get("/manifest.webmanifest?lang=en").json()["name"] == "Kropki — Polish board games"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        got = page.request.get(icon["src"])
        assert got.ok and got.headers["content-type"] == "image/png", icon
        assert got.body()[:8] == b"\x89PNG\r\n\x1a\n"
    # the worker: served from the root with its scope allowed, never cached by HTTP
    worker = page.request.get("/sw.js")
    assert worker.headers["service-worker-allowed"] == "/"
    assert "javascript" in worker.headers["content-type"] and worker.headers["cache-control"] == "no-cache"
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    # Chromium's own installability check: nothing missing (but the test browser's incognito)
    cdp = page.context.new_cdp_session(page)
    errors = {e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}, errors
    manifest_seen = cdp.send("Page.getAppManifest")
    assert not manifest_seen.get("errors"), manifest_seen
    assert json.loads(manifest_seen["data"])["name"] == "Kropki — polskie gry planszowe"


def test_the_offline_page_when_the_network_is_cut_and_never_a_stale_match(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    context = new_context(service_workers="allow", viewport=PHONE)
    context.add_cookies([{"name": data["alice"]["cookie_name"], "value": data["alice"]["cookie"], "url": live_url}])
    page = context.new_page()
    page.goto(f"/partia/{data['match']}/")
    controlled(page)
    context.set_offline(True)
    try:
        for url in ("/", f"/partia/{data['match']}/", "/ranking/"):
            page.goto(url)
            expect(page.get_by_test_id("offline-page")).to_be_visible()
            expect(page.locator("h1")).to_have_text("Brak połączenia")
            expect(page.locator("#offline-en")).to_have_text("No connection")
            assert page.locator("#match").count() == 0  # the match page was never kept
            # the cached style sheets came with it: the page is styled, not bare
            assert page.evaluate("() => getComputedStyle(document.querySelector('.brand')).fontWeight") == "700"
    finally:
        context.set_offline(False)
    page.get_by_test_id("offline-retry").click()
    expect(page.locator('link[rel="manifest"]')).to_have_count(1)  # back online: the real page


def test_a_move_sounds_and_nothing_sounds_once_muted(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    alice = open_match(new_context, live_url, data["match"], data["alice"], viewport=PHONE)
    bob = open_match(new_context, live_url, data["match"], data["bob"], viewport=PHONE)
    toggle = alice.get_by_role("button", name="Wycisz dźwięki")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    before = alice.evaluate(SOUNDS)
    play(alice, P(4, 4))
    at_ply(alice, 1)
    at_ply(bob, 1)
    after = alice.evaluate(SOUNDS)
    assert after["all"] == before["all"] + 1 and after.get("move", 0) == before.get("move", 0) + 1, (before, after)
    bob.wait_for_function("() => (window.kropkiSounds.played.your_turn || 0) >= 1")  # bob's turn
    shot(alice, "light-match-sound-switch-360")
    # muted: bob's move plays nothing on alice's page, and the switch is kept on this device
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    play(bob, P(5, 5))
    at_ply(alice, 2)
    assert alice.evaluate(SOUNDS)["all"] == after["all"]
    alice.reload()
    expect(alice.locator("#match")).to_have_attribute("data-ready", "1")
    expect(alice.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
    alice.get_by_test_id("sound-toggle").press("Enter")  # a keyboard press turns it on again
    expect(alice.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "false")
    play(alice, P(6, 6))
    at_ply(alice, 3)
    alice.wait_for_function("() => window.kropkiSounds.played.move >= 1")


def axe_blocking(page) -> list[dict]:
    return [v for v in axe_violations(page) if v["impact"] in BLOCKING or v["id"] == "color-contrast"]


def test_the_dark_theme_follows_the_system_and_passes_axe(new_context, live_url, live_site):
    assert AXE.exists(), "node_modules/axe-core is missing: run npm ci (scripts/test does)"
    data = create_match(live_site, "kropki-10")
    context = new_context(service_workers="allow", viewport=PHONE, bypass_csp=True, color_scheme="dark")
    context.add_cookies([{"name": data["alice"]["cookie_name"], "value": data["alice"]["cookie"], "url": live_url}])
    page = context.new_page()
    failures = {}
    arena = live_site.call("running_arena", suffix="ciemna")
    for label, url in (
        ("home", "/"),
        ("match", f"/partia/{data['match']}/"),
        ("ranking", "/ranking/"),
        ("profile", "/gracz/alice/"),
        ("tournaments", "/turnieje/"),
        ("arena", f"/turnieje/{arena['tournament']}/"),
        ("rules", "/zasady/kropki/"),
        ("record", f"/partia/{data['match']}/zapis/"),
    ):
        if label == "record":  # a record is of a game that is over
            live_site.call("guard_rated_resign", match_id=data["match"], user_id=data["alice"]["id"])
        page.goto(url)
        if label == "record":
            expect(page).to_have_url(re.compile(r"/zapis/$"))
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        if label == "match":
            expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(21, 24, 29)"
        shot(page, f"dark-{label}-360")
        if label == "match":  # the board keeps its light paper in the dark
            assert page.locator("#board svg .paper").get_attribute("fill") == "#fffdf8"
        bad = axe_blocking(page)
        if bad:
            failures[label] = bad
    assert not failures, json.dumps(failures, indent=1, ensure_ascii=False)
    page.emulate_media(color_scheme="light")  # the system turns light: the page follows at once
    expect(page.locator("html")).to_have_attribute("data-theme", "light")


def test_the_setting_overrides_the_system_and_the_board_looks(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    context = new_context(service_workers="allow", viewport=PHONE, color_scheme="dark")
    context.add_cookies([{"name": data["alice"]["cookie_name"], "value": data["alice"]["cookie"], "url": live_url}])
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.get_by_test_id("looks-open").click()
    page.get_by_label("Motyw").select_option("light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    # kept on this device, and on <html> before the body is parsed (no flash of dark)
    page.add_init_script(AT_BODY)
    page.goto(f"/partia/{data['match']}/")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert page.evaluate("() => window.themeAtBody") == "light"
    # the board looks: the colour-blind palette and large dots, from the settings page
    page.goto("/konto/ustawienia/")
    section = page.get_by_test_id("settings-looks")
    expect(section).to_be_visible()
    section.get_by_label("Kolory graczy").select_option("okabe-ito")
    section.get_by_label("Wielkość kropek").select_option("large")
    section.get_by_label("Motyw").select_option("system")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    shot(page, "dark-settings-looks-360")
    # each field within the phone's width (a long option must not push its select past the edge)
    for field in section.locator("select").all():
        box = field.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    page.goto(f"/partia/{data['match']}/")
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    play(page, P(4, 4))
    at_ply(page, 1)
    shot(page, "dark-okabe-ito-large-dots-360")
    dot = page.locator("#board svg .dot.p1").first
    assert dot.evaluate("d => getComputedStyle(d).fill") == "rgb(213, 94, 0)"
    assert dot.evaluate("d => getComputedStyle(d).transform") != "none"
    assert page.locator(".marker.p1").evaluate("m => getComputedStyle(m).backgroundColor") == "rgb(213, 94, 0)"
    # the word "pink" stays the game's name; the swatch beside it in the moves shows the dots' colour
    swatch = page.locator("#moves .swatch-pink").first
    assert swatch.evaluate("m => getComputedStyle(m).backgroundColor") == "rgb(213, 94, 0)"


def test_the_match_socket_reconnects_at_once_when_the_network_is_back(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    context = new_context(service_workers="allow", viewport=PHONE)
    # the phone's link, routed through Playwright: while "down", every socket is closed at once
    link: dict = {"down": False, "routes": [], "refused": 0}

    def route(ws) -> None:
        if link["down"]:
            link["refused"] += 1
            ws.close()
        else:
            link["routes"].append(ws)
            ws.connect_to_server()

    context.route_web_socket(re.compile(r"/ws/"), route)
    page = open_match(lambda **kwargs: context, live_url, data["match"], data["alice"])
    context.set_offline(True)
    link["down"] = True
    for ws in link["routes"]:
        ws.close()
    expect(page.locator("#conn")).to_have_attribute("data-state", "offline")
    page.wait_for_timeout(10_000)  # tries refused meanwhile: the backoff has grown to 4-8 s
    assert link["refused"] >= 4, link
    link["down"] = False
    context.set_offline(False)  # the browser says "online": the socket connects at once
    # at once, not at the end of the backoff (without the wake 4-8 s away, though maybe near its end)
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected", timeout=1_500)


def test_the_worker_shows_a_push_and_a_click_opens_its_page(new_context, live_url):
    """Web Push's last step (games/notifications/push.py encrypts, the browser's push service
    delivers: outside): the service worker hears a ``push`` with the site's JSON and shows it as
    a system notification, with the page to open."""
    context = new_context(full=True, service_workers="allow", viewport=PHONE)  # the shell shows no notifications
    context.grant_permissions(["notifications"], origin=live_url)
    page = context.new_page()
    page.goto("/")
    controlled(page)
    worker = context.service_workers[0]
    shown = worker.evaluate(
        """async () => {
            const data = JSON.stringify({title: "Kropki", body: "alice wyzywa Cię na partię.", url: "/gracz/alice/", tag: "challenge:1"});
            self.dispatchEvent(new PushEvent("push", {data: data}));
            for (let i = 0; i < 50; i++) {
                const found = await self.registration.getNotifications({tag: "challenge:1"});
                if (found.length) return found.map(n => [n.title, n.body, n.data.url]);
                await new Promise(r => setTimeout(r, 100));
            }
            return [];
        }"""
    )
    assert shown == [["Kropki", "alice wyzywa Cię na partię.", "/gracz/alice/"]]
