"""Layout in a real Chromium against daphne (issue 13, items 1, 2 and 10).

- The live move list scrolls vertically: after 60 moves of a real Kropki game its
  newest move is in sight and the list is no wider than its box; a player who
  scrolled back to read stays where they are while moves arrive.
- The record's move list reads "1. a1 2. b1 …" (numbers are text, not markers
  that overlap the previous move).
- At 360x740 every page fits, in both languages, logged in and out: nothing
  reaches past the right edge and the header stays compact.
"""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from django.urls import NoReverseMatch, reverse
from playwright.sync_api import expect

from games.catalogue import variant as get_variant
from games.catalogue import variant_keys
from tests.live_play.conftest import create_match

from .test_match_browser import at_ply, open_match, shot

PHONE = {"width": 360, "height": 740}
HEADER_MAX_PX = 90  # two rows (about 70 px); three rows are about 100


@pytest.fixture(scope="module")
def layout_data(live_site):
    return live_site.call("layout_pages")


# --- item 1: the live move list ------------------------------------------------------------------

LIST_GEOMETRY = """() => {
  const list = document.querySelector("#moves");
  const last = list.lastElementChild;
  const box = list.getBoundingClientRect(), item = last.getBoundingClientRect();
  const side = list.closest(".move-list").getBoundingClientRect();
  return {
    count: list.children.length, lastText: last.textContent,
    lastInView: item.top >= box.top - 1 && item.bottom <= box.bottom + 1
                && item.left >= box.left - 1 && item.right <= box.right + 1,
    firstInView: list.firstElementChild.getBoundingClientRect().top >= box.top - 1,
    listWidth: box.width, containerWidth: side.width,
    scrollWidth: list.scrollWidth, clientWidth: list.clientWidth,
    scrollsY: list.scrollHeight > list.clientHeight, scrollTop: list.scrollTop,
  };
}"""


def kropki_moves(count: int) -> list[int]:
    """``count`` legal Kropki 10x10 moves (no "end"): a fixed spread over the board."""
    state = get_variant("kropki-10").game().new_initial_state()
    actions = []
    for n in range(count):
        legal = [a for a in state.legal_actions() if a < 100]
        action = legal[(n * 37) % len(legal)]
        state.apply_action(action)
        actions.append(action)
    return actions


def play_clicks(pages: dict, actions: list[int], start: int = 0) -> None:
    players = [pages[1], pages[2]]
    for ply, action in enumerate(actions, start=start):
        page = players[ply % 2]
        at_ply(page, ply)
        page.wait_for_function("() => window.kropkiMatch.boardReady()")
        page.locator(f'#board [data-action="{action}"]').click()
    for page in players:
        at_ply(page, start + len(actions))


def test_live_move_list_keeps_the_newest_move_in_sight(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    watcher = open_match(new_context, live_url, data["match"], None, viewport=PHONE)
    actions = kropki_moves(64)
    play_clicks({1: alice, 2: bob}, actions[:60])
    at_ply(watcher, 60)
    game = get_variant("kropki-10").game()
    for who, page in (("alice", alice), ("bob", bob), ("watcher at 360 px", watcher)):
        geometry = page.evaluate(LIST_GEOMETRY)
        assert geometry["count"] == 60, (who, geometry)
        assert geometry["lastText"].endswith(game.action_to_string(actions[59])), (who, geometry)
        assert geometry["scrollsY"], (who, geometry)  # 60 moves do not fit: it scrolls ...
        assert geometry["lastInView"], (who, geometry)  # ... and shows the newest
        assert geometry["listWidth"] <= geometry["containerWidth"] + 0.5, (who, geometry)
        assert geometry["scrollWidth"] <= geometry["clientWidth"], (who, geometry)  # nothing sideways
    # the list is a keyboard-scrollable, named list
    moves = alice.get_by_role("list", name=re.compile("Ruchy"))
    expect(moves).to_have_attribute("tabindex", "0")
    shot(watcher, "layout-move-list-360")

    # bob scrolls back to read: new moves do not yank him down; alice (at the bottom) follows them
    bob.locator("#moves").evaluate("list => { list.scrollTop = 0; }")
    play_clicks({1: alice, 2: bob}, actions[60:], start=60)
    at_ply(watcher, 64)
    reading = bob.evaluate(LIST_GEOMETRY)
    assert reading["count"] == 64 and reading["scrollTop"] == 0 and reading["firstInView"], reading
    for who, page in (("alice", alice), ("watcher", watcher)):
        geometry = page.evaluate(LIST_GEOMETRY)
        assert geometry["count"] == 64 and geometry["lastInView"], (who, geometry)

    # a reload starts at the newest move too
    alice.reload()
    expect(alice.locator("#match")).to_have_attribute("data-ready", "1")
    assert alice.evaluate(LIST_GEOMETRY)["lastInView"]


# --- item 2: the record's move list ------------------------------------------------------------


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_record_move_list_reads_number_then_move(new_context, live_url, layout_data, lang):
    me = layout_data["lang"][lang]
    context = new_context()
    context.add_cookies([{"name": layout_data["cookie_name"], "value": me["cookie"], "url": live_url}])
    page = context.new_page()
    page.goto(reverse("record", args=[me["record"]]))
    moves = page.get_by_test_id("record-moves")
    text = " ".join(moves.inner_text().split())
    expected = " ".join(f"{n}. {move}" for n, move in enumerate(me["record_moves"], start=1))
    assert len(me["record_moves"]) == 120
    assert text == expected, (text[:200], expected[:200])
    # who played each move is still there for a screen reader (a named swatch per move)
    items = moves.locator("li")
    expect(items.first.get_by_role("img")).to_have_accessible_name(re.compile("róż|pink"))
    expect(items.nth(1).get_by_role("img")).to_have_accessible_name(re.compile("niebiesk|blue"))


# --- item 10: every page at 360 px ---------------------------------------------------------------

# Every element whose box reaches past the viewport (visually hidden ones aside, and what is inside a
# box that scrolls sideways on purpose: a wide table's .table-scroll; the box itself must fit), the
# page's width and the header's height.
OVERFLOW = """() => {
  const width = window.innerWidth;
  const scrollsX = el => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const wide = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if ((box.width <= 1 && box.height <= 1) || el.closest(".visually-hidden")) continue;  // for screen readers
    let up = el.parentElement, inScroller = false;
    while (up && up !== document.body) { if (scrollsX(up)) { inScroller = true; break; } up = up.parentElement; }
    if (inScroller) continue;
    if (box.right > width + 0.5 || box.left < -0.5) {
      const id = el.id ? "#" + el.id : "";
      const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "";
      wide.push(`${el.tagName.toLowerCase()}${id}${cls} [${Math.round(box.left)}..${Math.round(box.right)}] `
                + JSON.stringify((el.textContent || "").trim().slice(0, 40)));
    }
  }
  const header = document.querySelector(".site-header").getBoundingClientRect().height;
  return {scrollWidth: document.documentElement.scrollWidth, header: Math.round(header), wide: wide.slice(0, 8)};
}"""


def phone_pages(data: dict, lang: str) -> list[tuple[str, str]]:
    """(label, URL) of every page a visitor can reach; the FAQ when it exists."""
    me = data["lang"][lang]
    pages = [("home", reverse("home")), ("rules index", reverse("rules_index"))]
    pages += [
        (f"rules {slug}", reverse("rules", args=[slug])) for slug in ("kropki", "cztery-w-rzedzie", "kropki-i-kwadraty")
    ]
    with contextlib.suppress(NoReverseMatch):
        pages.append(("faq", reverse("faq")))
    pages += [
        ("lobby", reverse("lobby")),
        ("queue", reverse("queue")),
        ("play the computer", reverse("play_computer")),
        ("match kropki-20", reverse("match", args=[me["active"]])),
        ("match kropki-i-kwadraty", reverse("match", args=[me["boxes"]])),
        ("record", reverse("record", args=[me["record"]])),
        ("profile", reverse("profile", args=[me["username"]])),
        ("ranking", reverse("ranking")),
        ("tournaments", reverse("tournaments")),
        ("swiss list", reverse("swiss_list")),
        ("swiss", reverse("swiss", args=[data["swiss"]])),
    ]
    pages += [(f"ranking {key}", reverse("ranking_variant", args=[key])) for key in variant_keys()]
    pages += [
        ("login", reverse("login")),
        ("sign-up", reverse("signup")),
        ("password reset", reverse("password_reset")),
        ("settings", reverse("account_settings")),
        ("players followed", reverse("following")),
        ("followers", reverse("followers")),
        ("notifications", reverse("notifications")),
        ("notification settings", reverse("notification_settings")),
        ("my games", reverse("my_games")),
        ("import", reverse("import_game")),
        ("puzzles", reverse("puzzles")),
        ("puzzle", reverse("puzzle", args=[data["puzzle"]])),
        ("analysis board", reverse("analysis_board", args=["kropki-20"]) + "?ruchy=44,45,64,65"),
        ("position editor", reverse("position_editor", args=["kropki-20"])),
        ("password change", reverse("password_change")),
        ("new challenge", reverse("challenge_new")),
    ]
    pages += [(f"challenge {n}", reverse("challenge", args=[token])) for n, token in enumerate(me["challenges"])]
    pages.append(("404", "/nie-ma-takiej-strony/"))
    return pages


@pytest.mark.parametrize("lang", ["pl", "en"])
@pytest.mark.parametrize("who", ["logged-out", "logged-in"])
def test_every_page_fits_a_phone(new_context, live_url, layout_data, lang, who):
    context = new_context(viewport=PHONE, locale="pl-PL" if lang == "pl" else "en-GB")
    context.add_cookies([{"name": "kropki_language", "value": lang, "url": live_url}])
    if who == "logged-in":
        context.add_cookies(
            [{"name": layout_data["cookie_name"], "value": layout_data["lang"][lang]["cookie"], "url": live_url}]
        )
    page = context.new_page()
    problems = {}
    for label, url in phone_pages(layout_data, lang):
        page.goto(url)
        if label.startswith("match"):
            expect(page.locator("#match")).to_have_attribute("data-ready", "1")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        found = page.evaluate(OVERFLOW)
        if label == "profile":  # W/D/L and each match's result and record link in sight, not scrolled away
            found["wide"] += page.evaluate("""() => [...document.querySelectorAll(
                '[data-testid^="losses-"], .result-win td, [data-testid="record-link"]')]
                .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)
                .map(el => "cut off: " + el.outerHTML.slice(0, 60))""")
        if found["scrollWidth"] > PHONE["width"] or found["wide"] or found["header"] > HEADER_MAX_PX:
            problems[f"{label} {page.url}"] = found
        if label in ("profile", "match kropki-20", "record") and lang == "pl":
            shot(page, f"layout-360-{label.split()[0]}-{who}")
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
