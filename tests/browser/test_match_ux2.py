"""The match page, round two (issue 25, items 1-6, 10, 11), in real Chromium through a
real daphne: keyboard focus after a move, Piłkarzyki's keys and words, the move list's
colour marks, the low-time warning, "zakończ" notices from each player's point of view,
errors that read as sentences, rule links in a new tab, and tap to confirm at 360 px."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.catalogue import variant as get_variant
from tests.live_play.conftest import create_match

from .frames import sent
from .test_match_browser import P, at_ply, click, open_match
from .test_pilkarzyki_browser import first_bounce

IN_BOARD = "document.activeElement && !!document.activeElement.closest('#board [data-action]')"
FOCUSED = """() => { const t = document.activeElement && document.activeElement.closest('#board [data-action]');
    return t ? {action: +t.dataset.action, col: +t.dataset.col, row: +t.dataset.row,
                visible: t.matches(':focus-visible')} : null; }"""


def set_user(site, name: str, **fields) -> None:
    """Change a user's settings in the live database (the browser reads them on the next page)."""
    site.call("user_update", username=name, **fields)


def tab_into_board(page) -> None:
    for _ in range(80):
        if page.evaluate(IN_BOARD):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the board")


def walk_to(page, col: int, row: int) -> None:
    """Arrow keys from the focused target to the target at (col, row)."""
    for _ in range(60):
        at = page.evaluate(FOCUSED)
        if (at["col"], at["row"]) == (col, row):
            return
        if at["col"] != col:
            page.keyboard.press("ArrowRight" if at["col"] < col else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if at["row"] < row else "ArrowUp")
    raise AssertionError(f"never reached {(col, row)}")


def test_kropki_keyboard_focus_stays_where_the_move_was_made(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    tab_into_board(alice)
    walk_to(alice, 4, 4)
    alice.keyboard.press("Enter")
    at_ply(alice, 1)
    at = alice.evaluate(FOCUSED)
    assert at is not None and at["visible"]  # still on the board, for the keyboard
    assert max(abs(at["col"] - 4), abs(at["row"] - 4)) == 1, at  # the nearest free point, not a1
    at_ply(bob, 1)
    click(bob, P(0, 9))
    at_ply(alice, 2)
    assert alice.evaluate(FOCUSED) == at  # the opponent's move does not move it
    alice.keyboard.press("Enter")
    at_ply(alice, 3)
    moves = alice.get_by_test_id("moves").locator("li")
    expect(moves.nth(2)).not_to_contain_text("a1")
    expect(moves.nth(2)).to_contain_text(f"{'abcdefghij'[at['col']]}{at['row'] + 1}")


def test_kropki_i_kwadraty_keyboard_focus_stays_near_the_segment(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-i-kwadraty")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    tab_into_board(alice)
    walk_to(alice, 3, 3)
    before = alice.evaluate(FOCUSED)
    alice.keyboard.press("Enter")
    at_ply(alice, 1)
    at = alice.evaluate(FOCUSED)
    assert at is not None and at["visible"]
    assert at["action"] != before["action"]
    assert max(abs(at["col"] - 3), abs(at["row"] - 3)) <= 1, at  # a segment touching the one drawn, not a1-b1


def test_pilkarzyki_a_key_points_and_the_same_key_again_kicks(new_context, live_url, live_site):
    data = create_match(live_site, "pilkarzyki")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    tab_into_board(alice)
    assert alice.evaluate(FOCUSED)["action"] == 0  # Tab lands on "up" already
    # a press is handled when press() returns: a kick would have sent its move by then
    alice.keyboard.press("ArrowUp")  # points (it was focused: still no kick)
    assert sent(alice, "move") == 0
    at_ply(alice, 0)
    assert alice.evaluate(FOCUSED)["action"] == 0
    alice.keyboard.press("ArrowUp")  # the same key again: one kick
    assert sent(alice, "move") == 1
    at_ply(alice, 1)
    at_ply(bob, 1)
    alice.keyboard.press("ArrowUp")  # the opponent's turn now: points, no move, no error
    assert sent(alice, "move") == 1
    at_ply(alice, 1)
    expect(alice.get_by_test_id("error")).to_have_text("")
    expect(alice.get_by_test_id("moves").locator("li")).to_have_count(1)

    # the top row's digits work as the keypad: 3 is down-right (SE)
    state = get_variant("pilkarzyki").game().new_initial_state()
    state.apply_action(0)
    assert 3 in state.legal_actions()
    tab_into_board(bob)
    bob.keyboard.press("Digit3")
    assert sent(bob, "move") == 0
    at_ply(bob, 1)
    assert bob.evaluate(FOCUSED)["action"] == 3
    bob.keyboard.press("Digit3")
    assert sent(bob, "move") == 1
    at_ply(bob, 2)
    expect(bob.get_by_test_id("error")).to_have_text("")


def test_pilkarzyki_says_what_happens_and_marks_who_moved(new_context, live_url, live_site):
    moves = first_bounce()
    data = create_match(live_site, "pilkarzyki")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    english = new_context(locale="en-GB")
    english.add_cookies([{"name": "kropki_language", "value": "en", "url": live_url}])
    watcher = english.new_page()
    watcher.goto(f"/partia/{data['match']}/")
    expect(watcher.locator("#conn")).to_have_attribute("data-state", "connected")
    # which goal is yours; no score cards (no 0:0 in a game won by a goal)
    expect(alice.get_by_test_id("player-note")).to_have_text(re.compile("Atakujesz górną bramkę"))
    expect(bob.get_by_test_id("player-note")).to_have_text(re.compile("Atakujesz dolną bramkę"))
    assert alice.locator(".player .score").count() == 0
    state = get_variant("pilkarzyki").game().new_initial_state()
    movers = []
    for ply, action in enumerate(moves):
        who = alice if state.current_player() == 1 else bob
        movers.append(state.current_player())
        at_ply(who, ply)
        click(who, action)
        state.apply_action(action)
        for page in (alice, bob, watcher):
            at_ply(page, ply + 1)
    assert state.current_player() == 1  # the bounce: pink kicks again
    # the bounce shown as text and said in the live region, to each from their point of view
    expect(alice.get_by_test_id("notice")).to_have_text(re.compile("Odbicie! Piłka trafiła"))
    expect(alice.get_by_test_id("announce")).to_contain_text("Odbicie!")
    expect(bob.get_by_test_id("notice")).to_have_text("Odbicie! alice kopie jeszcze raz.")
    expect(watcher.get_by_test_id("notice")).to_have_text("Bounce! alice kicks again.")
    # Polish directions on Polish pages, compass letters on English ones
    expect(alice.get_by_test_id("moves").locator("li")).to_have_text(["1. góra", "2. dół-prawo", "3. lewo"])
    expect(watcher.get_by_test_id("moves").locator("li")).to_have_text(["1. N", "2. SE", "3. W"])
    expect(bob.get_by_test_id("announce")).to_have_text(re.compile("alice: lewo\\."))
    # one more kick by pink: the list marks the mover, it does not assume alternation
    again = state.legal_actions()[0]
    click(alice, again)
    movers.append(1)
    state.apply_action(again)
    for page in (alice, bob, watcher):
        at_ply(page, len(movers))
    colours = ["by-pink" if side == 1 else "by-blue" for side in movers]
    for page in (alice, bob, watcher):
        items = page.get_by_test_id("moves").locator("li")
        assert [items.nth(i).get_attribute("class") for i in range(len(movers))] == colours
        assert [items.nth(i).locator(".swatch").get_attribute("aria-label") for i in range(len(movers))][:2] == (
            ["różowe", "niebieskie"] if page is not watcher else ["pink", "blue"]
        )
    alice.reload()  # a first paint says the same
    expect(alice.locator("#match")).to_have_attribute("data-ready", "1")
    items = alice.get_by_test_id("moves").locator("li")
    assert [items.nth(i).get_attribute("class") for i in range(len(movers))] == colours


# Every text the warning's live region is given, from the first paint on. The sounds played are
# counted by static/js/sound.js itself (window.kropkiSounds.played: the low-time one apart from
# the moves' and the start's, docs/app.md "Sounds").
LOW_TIME_SOUNDS = "() => window.kropkiSounds.played.low_time || 0"
OBSERVE = """window.__warned = [];
document.addEventListener("readystatechange", () => { // "interactive": parsed, before the deferred scripts
    const el = document.getElementById("clock-warning");
    if (document.readyState === "interactive" && el) new MutationObserver(() => window.__warned.push(el.textContent))
        .observe(el, {childList: true, characterData: true, subtree: true}); });"""

# The seconds the page's clock shows are at most this many.
CLOCK_AT_MOST = "(s) => parseInt(document.getElementById('clock').textContent, 10) <= s"


def test_the_low_time_warning_is_said_once_with_a_sound(new_context, live_url, live_site):
    data = create_match(live_site, "cztery-w-rzedzie")  # (makes the users on a first run)
    set_user(live_site, "alice", low_time_seconds=58, notify_sound=True)
    set_user(live_site, "bob", low_time_seconds=58, notify_sound=False)
    try:
        pages = {}
        for name in ("alice", "bob"):
            context = new_context()
            context.add_init_script(OBSERVE)
            context.add_cookies([{"name": data[name]["cookie_name"], "value": data[name]["cookie"], "url": live_url}])
            page = context.new_page()
            page.goto(f"/partia/{data['match']}/")
            expect(page.locator("#match")).to_have_attribute("data-ready", "1")
            pages[name] = page
        alice, bob = pages["alice"], pages["bob"]
        expect(alice.get_by_test_id("clock-warning")).to_have_text(
            re.compile(r"^Zostało [1-5]\d s na Twój ruch\.$"), timeout=8000
        )
        expect(alice.get_by_test_id("clock-warning")).to_have_attribute("aria-live", "polite")
        # the clock ticks on (match.js: every 250 ms) two more seconds, each page's: still said once
        warned_at = int(re.findall(r"\d+", alice.get_by_test_id("clock-warning").text_content() or "")[0])
        for page in (alice, bob):
            page.wait_for_function(CLOCK_AT_MOST, arg=warned_at - 2)
        assert len(alice.evaluate("window.__warned")) == 1  # once, not every second
        assert alice.evaluate(LOW_TIME_SOUNDS) == 1  # her sounds are on
        assert bob.evaluate("window.__warned") == []  # not his move
        click(alice, 3)
        at_ply(bob, 1)
        expect(bob.get_by_test_id("clock-warning")).to_have_text(re.compile("Zostało 5[5-8] s"), timeout=8000)
        assert bob.evaluate(LOW_TIME_SOUNDS) == 0  # his sounds are off: said, not sounded
    finally:
        set_user(live_site, "alice", low_time_seconds=10, notify_sound=True)
        set_user(live_site, "bob", low_time_seconds=10, notify_sound=True)


def test_end_notices_speak_to_each_player_from_their_point_of_view(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    watcher = open_match(new_context, live_url, data["match"], None)
    click(alice, P(4, 4))
    at_ply(bob, 1)
    click(bob, P(5, 5))
    at_ply(alice, 2)
    alice.get_by_test_id("btn-end").click()
    alice.get_by_test_id("confirm-yes").click()
    for page in (alice, bob, watcher):
        at_ply(page, 3)
    expect(alice.get_by_test_id("notice")).to_have_text("Gra zakończona przez Ciebie; przeciwnik może grać dalej.")
    expect(bob.get_by_test_id("notice")).to_have_text("alice: koniec gry; możesz grać dalej w pojedynkę.")
    expect(bob.get_by_test_id("announce")).to_contain_text("możesz grać dalej w pojedynkę")
    assert "drugi gracz" not in (bob.get_by_test_id("notice").text_content() or "")
    expect(watcher.get_by_test_id("notice")).to_have_text("alice: koniec gry; drugi gracz może grać dalej.")


# Every error the box shows, as it is drawn: a state frame clears the error (match.js), and one
# arriving just after the key press (a loaded machine) may wipe it before any poll reads it.
WATCH_ERRORS = """() => {
    window.shownErrors = [];
    const box = document.querySelector('[data-testid="error"]');
    new MutationObserver(() => {
        const link = box.querySelector("a");
        if (!link) return;
        window.shownErrors.push({text: box.querySelector(".error-text").textContent, link: link.textContent,
            target: link.getAttribute("target"), rel: link.getAttribute("rel") || "", whole: box.textContent});
    }).observe(box, {childList: true, subtree: true});
}"""


def test_an_error_reads_apart_from_its_link_and_rule_links_open_a_new_tab(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-10")
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    expect(bob.locator("#conn")).to_have_attribute("data-state", "connected")
    tab_into_board(bob)
    bob.evaluate(WATCH_ERRORS)
    bob.keyboard.press("Enter")  # alice's turn
    bob.wait_for_function("window.shownErrors.length > 0")
    shown = bob.evaluate("window.shownErrors[0]")
    assert shown["text"] == "Teraz ruch przeciwnika."
    assert shown["link"] == "Zobacz zasadę (otwiera się w nowej karcie)"
    assert shown["target"] == "_blank" and "noopener" in shown["rel"]
    # the error reads as two sentences: status, then the link
    assert re.fullmatch(
        r"Teraz ruch przeciwnika\. Zobacz zasadę \(otwiera się w nowej karcie\)", " ".join(shown["whole"].split())
    )
    rules = bob.get_by_test_id("rules-link")
    expect(rules).to_have_attribute("target", "_blank")
    expect(rules).to_have_accessible_name("Zasady tej gry (otwiera się w nowej karcie)")
    with bob.context.expect_page() as opened:
        rules.click()
    opened.value.wait_for_load_state()
    assert "/zasady/kropki/" in opened.value.url
    assert re.search(r"/partia/\d+/$", bob.url)  # the match stays open in its own tab


def test_kropki_20_tap_to_select_then_tap_to_play_at_360_px(new_context, live_url, live_site):
    data = create_match(live_site, "kropki-20")
    set_user(live_site, "bob", tap_confirm="off")
    try:
        phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
        alice = open_match(new_context, live_url, data["match"], data["alice"], **phone)
        bob = open_match(new_context, live_url, data["match"], data["bob"], **phone)
        expect(alice.get_by_test_id("tap-confirm")).to_be_checked()  # "auto" on a phone
        expect(bob.get_by_test_id("tap-confirm")).not_to_be_checked()  # his setting: never
        target = alice.locator(f'#board [data-action="{7 * 20 + 7}"]')
        target.tap()
        expect(target).to_have_class(re.compile(r"\bselected\b"))  # the tap's click is handled:
        assert sent(alice, "move") == 0  # a first tap only selects
        at_ply(alice, 0)
        expect(alice.get_by_test_id("tap-hint")).to_have_text(re.compile(r"^Wybrano: kropka h8\. Dotknij jeszcze raz"))
        other = alice.locator(f'#board [data-action="{7 * 20 + 8}"]')
        other.tap()  # another point moves the selection
        expect(other).to_have_class(re.compile(r"\bselected\b"))
        assert sent(alice, "move") == 0
        at_ply(alice, 0)
        expect(target).not_to_have_class(re.compile(r"\bselected\b"))
        other.tap()  # the second tap on it plays
        at_ply(alice, 1)
        assert sent(alice, "move") == 1  # one move, for both taps on it
        expect(alice.get_by_test_id("moves").locator("li")).to_have_text(["1. i8"])
        expect(alice.get_by_test_id("tap-hint")).to_have_text("")
        # fits the phone: no sideways scroll
        assert alice.evaluate("document.documentElement.scrollWidth") <= 360
        at_ply(bob, 1)
        bob.locator(f'#board [data-action="{3 * 20 + 3}"]').tap()  # off: one tap plays
        at_ply(bob, 2)
    finally:
        set_user(live_site, "bob", tap_confirm="auto")


def test_a_guests_tap_choice_is_remembered_by_the_browser(new_context, live_url):
    context = new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto("/graj/komputer/?variant=kropki-20&level=latwy&colour=pink")
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/partia/\d+/$"))
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    box = page.get_by_test_id("tap-confirm")
    expect(box).to_be_checked()
    box.uncheck()
    page.reload()
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(page.get_by_test_id("tap-confirm")).not_to_be_checked()
    assert page.evaluate("localStorage.getItem('kropki.tapConfirm')") == "off"
    page.locator('#board [data-action="42"]').tap()  # one tap plays (the computer may answer at once)
    page.wait_for_function("() => +document.getElementById('match').dataset.ply >= 1")
    expect(page.get_by_test_id("moves").locator("li").first).to_contain_text("c3")


def test_a_hovered_point_shows_the_players_colour_on_their_turn_only(new_context, live_url, live_site):
    """The preview under the pointer (static/css/match.css, the hit shapes by their class)."""
    data = create_match(live_site, "kropki-10")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    shape = '#board [data-action="{}"] > .hit'
    opacity = "s => getComputedStyle(s).fillOpacity"
    alice.locator(shape.format(33)).hover()
    expect(alice.locator(shape.format(33))).to_have_css("fill-opacity", "0.45")  # after its 0.1 s transition
    assert alice.locator(shape.format(33)).evaluate("s => getComputedStyle(s).fill") == "rgb(194, 24, 91)"
    bob.locator(shape.format(44)).hover()  # not his turn: nothing shows
    focus = bob.locator('#board [data-action="55"]')
    focus.focus()  # nor on the focused point (its focus ring only)
    bob.wait_for_timeout(300)
    assert bob.locator(shape.format(44)).evaluate(opacity) == "0"
    expect(focus).not_to_have_class(re.compile(r"\bpreview\b"))
    alice.locator(shape.format(33)).click()
    at_ply(bob, 1)  # his turn: both show at once, the pointer and the focus where they were
    expect(bob.locator(shape.format(44))).to_have_css("fill-opacity", "0.45")
    expect(bob.locator(shape.format(55))).to_have_css("fill-opacity", "0.45")
    assert bob.locator(shape.format(55)).evaluate("s => getComputedStyle(s).fill") == "rgb(31, 79, 163)"
    assert bob.locator(shape.format(44)).evaluate("s => getComputedStyle(s).fill") == "rgb(31, 79, 163)"
    bob.mouse.move(0, 0)  # the pointer leaves: its point's preview goes, the focused one's stays
    expect(bob.locator(shape.format(44))).to_have_css("fill-opacity", "0")
    expect(bob.locator(shape.format(55))).to_have_css("fill-opacity", "0.45")


def test_a_match_page_waiting_for_a_move_lays_itself_out_once_a_second(new_context, live_url, live_site):
    """The clock ticks four times a second and writes its text only when the seconds change (a
    phone's battery: written every tick, the page laid itself out and painted four times a second)."""
    data = create_match(live_site, "kropki-20")
    page = open_match(new_context, live_url, data["match"], data["alice"])
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")

    def layouts() -> float:
        return next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "LayoutCount")

    page.wait_for_timeout(500)
    before = layouts()
    page.wait_for_timeout(4000)
    assert layouts() - before <= 6  # four seconds shown; every tick: 16
    expect(page.locator("#clock")).to_have_text(re.compile(r"\d+"))
