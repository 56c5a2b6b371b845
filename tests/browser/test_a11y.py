"""Accessibility (axe-core) and CSP in a real Chromium against daphne.

- axe-core (npm, ``node_modules/axe-core/axe.min.js``, injected by Playwright;
  nothing is served from our static files) on the home, the three rules pages,
  the lobby, a match, a profile, the ranking and a match record, in Polish and
  in English: no serious or critical violation. The page list is fixed by
  URL name; a page whose URL does not resolve fails with its name.
- The same pages in a context that keeps the CSP: no violation reported on the
  console, and a player named ``<img src=x onerror=alert(1)>`` runs nothing.

The axe contexts use ``bypass_csp`` only so that the injected axe script may
run; the CSP test uses normal contexts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


@pytest.fixture(scope="module")
def a11y_data(live_site):
    return live_site.call("a11y_pages")


def pages_for(data: dict, lang: str) -> list[tuple[str, str, tuple, dict]]:
    """(label, URL name, args, query) of every page the issue names."""
    me = data["lang"][lang]
    return [
        ("home", "home", (), {}),
        ("rules kropki", "rules", ("kropki",), {}),
        ("rules cztery-w-rzedzie", "rules", ("cztery-w-rzedzie",), {}),
        ("rules kropki-i-kwadraty", "rules", ("kropki-i-kwadraty",), {}),
        ("lobby", "lobby", (), {}),
        ("match", "match", (me["active"],), {}),
        ("profile", "profile", (me["username"],), {}),
        ("ranking", "ranking", (), {"wariant": "cztery-w-rzedzie"}),
        ("tournaments", "tournaments", (), {}),
        ("swiss list", "swiss_list", (), {}),
        ("swiss", "swiss", (data["swiss"],), {}),
        ("record", "record", (me["finished"],), {}),
        ("players followed", "following", (), {}),
        ("followers", "followers", (), {}),
        ("play the computer", "play_computer", (), {}),
        ("new challenge", "challenge_new", (), {}),
        ("notifications", "notifications", (), {}),
        ("notification settings", "notification_settings", (), {}),
        ("my games", "my_games", (), {}),
        ("import", "import_game", (), {}),
        ("puzzles", "puzzles", (), {}),
        ("puzzle", "puzzle", (data["puzzle"],), {}),
        ("analysis board", "analysis_board", ("kropki-10",), {"ruchy": "44,45,54"}),
        ("position editor", "position_editor", ("kropki-i-kwadraty",), {}),
    ]


def url_of(name: str, args: tuple, query: dict) -> str:
    url = reverse(name, args=args)
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def logged_in(new_context, live_url, cookie: str, data: dict, **kwargs):
    context = new_context(**kwargs)
    context.add_cookies([{"name": data["cookie_name"], "value": cookie, "url": live_url}])
    return context


def settle(page, label: str) -> None:
    if label == "match":
        expect(page.locator("#match")).to_have_attribute("data-ready", "1")
        expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    page.wait_for_load_state("networkidle")


def axe_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " + n.failureSummary)}));
    }""")
    return result


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_axe_finds_no_serious_or_critical_violation(new_context, live_url, a11y_data, lang):
    assert AXE.exists(), "node_modules/axe-core is missing: run npm ci (scripts/test does)"
    context = logged_in(new_context, live_url, a11y_data["lang"][lang]["cookie"], a11y_data, bypass_csp=True)
    page = context.new_page()
    failures, missing = {}, []
    for label, name, args, query in pages_for(a11y_data, lang):
        url = url_of(name, args, query)
        response = page.goto(url)
        if response is None or response.status != 200:
            missing.append(f"{label} {url}: HTTP {response.status if response else '?'}")
            continue
        expect(page.locator("html")).to_have_attribute("lang", lang)
        settle(page, label)
        bad = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
        if bad:
            failures[label] = bad
    assert not missing and not failures, json.dumps(
        {"missing": missing, "violations": failures}, indent=1, ensure_ascii=False
    )


def test_axe_really_reports_a_critical_violation(new_context):
    """The check above is not vacuous: an image without alt text is reported as critical."""
    page = new_context(bypass_csp=True).new_page()
    page.set_content('<html lang="pl"><head><title>t</title></head><body><main><img src="data:,"></main></body></html>')
    found = {(v["id"], v["impact"]) for v in axe_violations(page)}
    assert ("image-alt", "critical") in found, found


def test_pages_raise_no_csp_violation_and_a_markup_name_runs_nothing(new_context, live_url, a11y_data):
    """Normal CSP: every page (as the markup-named player, whose name appears on them) logs no CSP error,
    opens no dialog, and has no <img src=x> element."""
    context = logged_in(new_context, live_url, a11y_data["xss"]["cookie"], a11y_data)
    page = context.new_page()
    console, dialogs = [], []
    page.on("console", lambda msg: console.append(msg.text) if msg.type in ("error", "warning") else None)

    def on_dialog(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.add_init_script("""document.addEventListener("securitypolicyviolation", e =>
        console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI));""")
    xss_pages = [
        ("profile", "profile", (a11y_data["xss"]["username"],), {}),
        ("ranking", "ranking", (), {"wariant": "kropki-10"}),
    ]
    for label, name, args, query in pages_for(a11y_data, "pl") + xss_pages:
        url = url_of(name, args, query)
        page.goto(url)
        settle(page, label)
        assert page.locator("img[src='x']").count() == 0, url
    # the live match page gets the name again in a frame: play nothing, just resync
    page.goto(url_of("match", (a11y_data["lang"]["pl"]["active"],), {}))
    settle(page, "match")
    expect(page.get_by_test_id("player-2")).to_contain_text("<img src=x onerror=alert(1)>")
    assert page.locator("img").count() == 0
    assert not dialogs, dialogs
    csp = [line for line in console if "Content Security Policy" in line or "CSP violation" in line]
    assert not csp, csp
