"""Issue 13, "missing where players look for it", in real browsers (live daphne +
Redis + Chromium): what a match page offers once the match is over (the winner
by name, both rating changes, the record, "Nowa partia", "Do poczekalni"),
live and after a reload, in Polish and English; the draw offer's confirmation;
the challenge link's copy button, and a visitor without an account coming back
to a challenge after signing up or logging in."""

from __future__ import annotations

import json
import re
import uuid

from playwright.sync_api import expect

from tests.browser.test_a11y import AXE, BLOCKING, axe_violations
from tests.browser.test_match_browser import play_all, shot, until

PASSWORD = "kropka-Trudna-2024"
C4_PINK_WINS = [(1, 0), (2, 1), (1, 0), (2, 1), (1, 0), (2, 1), (1, 0)]


def two_players(live_site, variant: str = "", rated: bool = False) -> dict:
    """Two new players (fresh names: no other test's queue or lobby meets them) and, with ``variant``,
    a match between them (the first is pink)."""
    suffix = uuid.uuid4().hex[:6]
    return live_site.call(
        "two_players", pink=f"ania{suffix}", blue=f"bartek{suffix}", password=PASSWORD, variant=variant, rated=rated
    )


def as_player(new_context, live_url, data: dict, who: str | None, **kwargs):
    context = new_context(**kwargs)
    if who is not None:
        context.add_cookies([{"name": data["cookie_name"], "value": data[who]["cookie"], "url": live_url}])
    return context


def frames_sent(context) -> list[dict]:
    """Route the match sockets of ``context`` through Playwright (``route_web_socket``, both ways
    forwarded as they are): the list it returns fills with every frame its pages send."""
    sent: list[dict] = []

    def route(ws):
        server = ws.connect_to_server()

        def from_page(message):
            sent.append(json.loads(message))
            server.send(message)

        ws.on_message(from_page)  # the server's frames still reach the page untouched

    context.route_web_socket(re.compile(r"/ws/match/\d+/$"), route)
    return sent


def open_match(context, match_id: int):
    page = context.new_page()
    page.goto(f"/partia/{match_id}/")
    ready(page)
    return page


def ready(page) -> None:
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")


def fits(locator) -> None:
    """Within the viewport's width, and nothing in it cut off sideways."""
    assert locator.evaluate(
        "el => el.getBoundingClientRect().right <= window.innerWidth && el.scrollWidth <= el.clientWidth"
    ), locator


def test_a_rated_match_ends_live_with_the_winner_both_ratings_and_the_way_on(new_context, live_url, live_site):
    data = two_players(live_site, "cztery-w-rzedzie", rated=True)
    ania_name, bartek_name, match_id = data["pink"]["name"], data["blue"]["name"], data["match"]
    ania = open_match(as_player(new_context, live_url, data, "pink"), match_id)
    bartek = open_match(as_player(new_context, live_url, data, "blue"), match_id)
    english = open_match(new_context(locale="en-US", viewport={"width": 360, "height": 740}), match_id)
    for page in (ania, bartek, english):
        expect(page.get_by_test_id("after-match")).to_be_hidden()

    play_all({1: ania, 2: bartek}, C4_PINK_WINS, watchers=[english])

    deltas = {int(k): v for k, v in live_site.call("rating_deltas", match_id=match_id).items()}
    assert deltas[1] > 0 > deltas[2]
    polish_lines = [
        re.compile(rf"^{ania_name}: \+{deltas[1]} \(ranking \d+\??\)$"),
        re.compile(rf"^{bartek_name}: \u2212{-deltas[2]} \(ranking \d+\??\)$"),
    ]
    for page in (ania, bartek):  # live, from the finished frame
        expect(page.get_by_test_id("result")).to_contain_text("Wygrywają różowe")
        expect(page.get_by_test_id("result-winner")).to_have_text(f"Wygrywa: {ania_name}")
        expect(page.get_by_test_id("rating-deltas").locator("li")).to_have_text(polish_lines)
        expect(page.get_by_test_id("record-link")).to_have_attribute("href", f"/partia/{match_id}/zapis/")
        expect(page.get_by_test_id("to-lobby")).to_have_text("Do poczekalni")
        expect(page.get_by_test_id("new-game")).to_have_text("Nowa partia")
    expect(ania.locator("#announce")).to_contain_text(f"Wygrywa: {ania_name}")
    expect(english.get_by_test_id("result-winner")).to_have_text(f"Winner: {ania_name}")
    expect(english.get_by_test_id("rating-deltas").locator("li")).to_have_text(
        [
            re.compile(rf"^{ania_name}: \+{deltas[1]} \(rating \d+\??\)$"),
            re.compile(rf"^{bartek_name}: \u2212{-deltas[2]} \(rating \d+\??\)$"),
        ]
    )
    expect(english.get_by_test_id("to-lobby")).to_have_text("To the lobby")
    expect(english.get_by_test_id("record-link")).to_have_text("Record of the match")
    expect(english.get_by_test_id("new-game")).to_have_count(0)  # a spectator has no game to start
    fits(english.get_by_test_id("after-match"))
    shot(ania, "after-match-rated-pl")
    shot(english, "after-match-rated-en-360")

    # a reload shows the same, drawn by the server
    bartek.reload()
    ready(bartek)
    expect(bartek.get_by_test_id("result-winner")).to_have_text(f"Wygrywa: {ania_name}")
    expect(bartek.get_by_test_id("rating-deltas").locator("li")).to_have_text(polish_lines)
    bartek.get_by_test_id("record-link").click()
    expect(bartek).to_have_url(re.compile(rf"/partia/{match_id}/zapis/$"))
    bartek.go_back()
    ready(bartek)

    # "Nowa partia": back to the ranked queue of the same game
    bartek.get_by_test_id("new-game").click()
    expect(bartek).to_have_url(re.compile(r"/graj/kolejka/$"))
    expect(bartek.get_by_test_id("queue-variants")).to_have_text(re.compile("Cztery w rzędzie"))
    bartek.get_by_test_id("queue-cancel").click()  # leave: no other test should meet him there
    expect(bartek).to_have_url(re.compile(r"/graj/$"))
    ania.get_by_test_id("to-lobby").click()
    expect(ania).to_have_url(re.compile(r"/graj/$"))


def test_new_game_against_the_computer_starts_the_same_game_and_level(new_context):
    page = new_context().new_page()  # a guest: no account needed
    page.goto("/graj/komputer/")
    page.check('input[name="variant"][value="kropki-i-kwadraty"]')
    page.check('input[name="level"][value="latwy"]')
    page.check('input[name="colour"][value="pink"]')
    page.locator("form.stack-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/partia/\d+/$"))
    first = page.url
    ready(page)
    page.get_by_test_id("btn-resign").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("after-match")).to_be_visible()
    expect(page.get_by_test_id("result-winner")).to_have_text(re.compile(r"^Wygrywa: Komputer \([^)]*\)$"))
    expect(page.get_by_test_id("rating-deltas")).to_be_hidden()  # never rated
    # resigned before two moves each: said live, from the finished frame (docs/fairplay.md)
    expect(page.get_by_test_id("not-counted")).to_contain_text("Nie liczy się")
    page.get_by_test_id("new-game").click()
    page.wait_for_url(lambda url: re.search(r"/partia/\d+/$", url) is not None and url != first)
    ready(page)
    snap = json.loads(page.locator("#match-snapshot").text_content())
    assert (snap["variant"], snap["bot_level"], snap["bot_side"], snap["status"]) == (
        "kropki-i-kwadraty",
        "latwy",
        2,
        "active",
    )
    expect(page.get_by_test_id("player-1")).to_contain_text("ty")
    expect(page.get_by_test_id("after-match")).to_be_hidden()


def test_a_draw_offer_asks_first_and_works_by_keyboard(new_context, live_url, live_site):
    data = two_players(live_site, "cztery-w-rzedzie")
    ania_context = as_player(new_context, live_url, data, "pink")
    sent = frames_sent(ania_context)
    ania = open_match(ania_context, data["match"])
    bartek = open_match(as_player(new_context, live_url, data, "blue"), data["match"])
    play_all({1: ania, 2: bartek}, [(1, 3)])

    # a press asks; Escape takes it back and nothing is sent
    ania.get_by_test_id("btn-draw").click()
    expect(ania.get_by_test_id("confirm")).to_be_visible()
    expect(ania.locator("#confirm-text")).to_have_text("Zaproponować remis? Przeciwnik może go przyjąć albo odrzucić.")
    ania.keyboard.press("Escape")
    expect(ania.get_by_test_id("confirm")).to_be_hidden()
    assert ania.evaluate("document.activeElement.id") == "btn-draw"  # focus goes back to the button
    expect(bartek.get_by_test_id("draw-answer")).to_be_hidden()  # that nothing was sent: checked below
    expect(ania.get_by_test_id("btn-draw")).to_be_enabled()

    # by keyboard: Enter opens, the focus starts on "Cancel", Shift+Tab reaches "Yes", Enter sends
    ania.keyboard.press("Enter")
    expect(ania.get_by_test_id("confirm")).to_be_visible()
    shot(ania, "draw-offer-confirm")
    assert ania.evaluate("document.activeElement.id") == "confirm-no"
    ania.keyboard.press("Shift+Tab")
    assert ania.evaluate("document.activeElement.id") == "confirm-yes"
    ania.keyboard.press("Enter")
    expect(bartek.get_by_test_id("draw-answer")).to_be_visible()
    expect(ania.locator("#draw-pending")).to_be_visible()
    # What Escape sent: ania's page sends on one socket, in order, so once a chat line written
    # now has gone out, every frame before it has too: one draw offer, the keyboard's.
    ania.get_by_test_id("chat-text").fill("remis?")
    ania.get_by_test_id("chat-text").press("Enter")
    until(ania, lambda: any(f.get("type") == "chat" for f in sent), "ania's chat line on her socket")
    assert [f for f in sent if f.get("type") == "draw_offer"] == [{"type": "draw_offer"}], sent

    bartek.get_by_test_id("btn-draw-accept").click()
    for page in (ania, bartek):
        expect(page.get_by_test_id("after-match")).to_be_visible()
        expect(page.get_by_test_id("result-winner")).to_be_hidden()  # a draw has no winner
        expect(page.get_by_test_id("rating-deltas")).to_be_hidden()  # casual
    # "Nowa partia" after a casual match between friends: a new challenge of the same game
    ania.get_by_test_id("new-game").click()
    expect(ania).to_have_url(re.compile(r"/wyzwanie/[0-9a-f-]{36}/$"))
    expect(ania.locator("h1")).to_contain_text("Cztery w rzędzie")
    expect(ania.get_by_test_id("challenge-kind")).to_have_text("towarzyska (bez zmiany rankingu)")
    ania.get_by_test_id("challenge-cancel").click()


def test_the_challenge_link_copies_and_fits(new_context, live_url, live_site):
    data = two_players(live_site)
    context = as_player(new_context, live_url, data, "pink", permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto("/wyzwanie/")
    page.get_by_test_id("variant-kropki-20").check()
    page.get_by_test_id("challenge-create").click()
    expect(page).to_have_url(re.compile(r"/wyzwanie/[0-9a-f-]{36}/$"))
    field = page.get_by_test_id("challenge-link")
    link = field.input_value()
    assert link == page.url
    # the URL holds from the navigation's commit: measure once the stylesheet applies (a layout
    # forced before it gives an input its default 20 characters) and the script shows the button
    page.wait_for_load_state("load")
    expect(page.get_by_test_id("copy-link")).to_be_visible()
    assert field.evaluate("el => el.scrollWidth <= el.clientWidth"), "the whole link shows in the field"
    page.get_by_test_id("copy-link").click()
    expect(page.get_by_test_id("copy-status")).to_have_text("Link skopiowany.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    shot(page, "challenge-link-copied")

    # no clipboard (plain HTTP, an old browser): the link is selected for Ctrl+C
    bare = as_player(new_context, live_url, data, "pink", viewport={"width": 360, "height": 740})
    bare.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined});")
    phone = bare.new_page()
    phone.goto(link)
    phone.get_by_test_id("copy-link").click()
    expect(phone.get_by_test_id("copy-status")).to_have_text("Link zaznaczony: naciśnij Ctrl+C, aby go skopiować.")
    selected = phone.get_by_test_id("challenge-link").evaluate(
        "el => [document.activeElement === el, el.selectionStart, el.selectionEnd]"
    )
    assert selected == [True, 0, len(link)]
    for testid in ("challenge-facts", "copy-link"):
        fits(phone.get_by_test_id(testid))
    # the field takes the phone's width (the link scrolls inside it)
    assert phone.get_by_test_id("challenge-link").evaluate(
        "el => el.getBoundingClientRect().right <= window.innerWidth"
    )
    shot(phone, "challenge-link-360")
    assert phone.get_by_test_id("challenge-link").evaluate("el => el.getBoundingClientRect().width") > 300


def test_a_visitor_without_an_account_sees_the_challenge_and_comes_back_to_it(new_context, live_url, live_site):
    data = two_players(live_site)
    ania_name = data["pink"]["name"]
    creator = as_player(new_context, live_url, data, "pink").new_page()
    creator.goto("/wyzwanie/")
    creator.get_by_test_id("variant-kropki-i-kwadraty").check()
    creator.get_by_test_id("mode-rated").check()
    creator.get_by_test_id("challenge-create").click()
    link = creator.get_by_test_id("challenge-link").input_value()
    path = re.sub(r"^https?://[^/]+", "", link)

    # English: who and what; "log in" comes back here (bartek has an account)
    en = new_context(locale="en-US", bypass_csp=True).new_page()
    en.goto(link)
    expect(en.get_by_test_id("challenge-invite")).to_have_text(f"{ania_name} challenges you to a match.")
    expect(en.get_by_test_id("challenge-from")).to_have_text(ania_name)
    expect(en.get_by_test_id("challenge-game")).to_contain_text("Dots and Boxes")
    expect(en.get_by_test_id("challenge-kind")).to_have_text("rated")
    expect(en.get_by_test_id("challenge-colours")).to_have_text(
        "drawn at random when the challenge is accepted; pink moves first"
    )
    expect(en.get_by_test_id("challenge-accept")).to_have_count(0)
    shot(en, "challenge-visitor-en")
    assert AXE.exists()
    bad = [v for v in axe_violations(en) if v["impact"] in BLOCKING]
    assert not bad, bad
    en.get_by_test_id("challenge-login").click()
    en.locator('input[name="username"]').fill(data["blue"]["name"])
    en.locator('input[name="password"]').fill(PASSWORD)
    en.locator('form.stack-form button[type="submit"]').click()
    expect(en).to_have_url(link)
    expect(en.get_by_test_id("challenge-accept")).to_be_visible()

    # Polish: sign up from the challenge, land back on it, accept, play
    pl = new_context().new_page()
    pl.goto(link)
    expect(pl.get_by_test_id("challenge-invite")).to_have_text(f"{ania_name} wyzywa Cię na partię.")
    expect(pl.get_by_test_id("challenge-kind")).to_have_text("rankingowa")
    expect(pl.get_by_test_id("challenge-colours")).to_have_text("losowane przy przyjęciu wyzwania; różowe zaczynają")
    pl.get_by_test_id("challenge-signup").click()
    expect(pl).to_have_url(re.compile(r"/konto/rejestracja/\?next="))
    name = f"zosia{uuid.uuid4().hex[:6]}"
    pl.locator('input[name="username"]').fill(name)
    pl.locator('input[name="email"]').fill(f"{name}@example.com")
    pl.locator('input[name="password1"]').fill(PASSWORD)
    pl.locator('input[name="password2"]').fill(PASSWORD)
    pl.locator('form.stack-form button[type="submit"]').click()
    expect(pl).to_have_url(re.compile(re.escape(path) + "$"))
    expect(pl.get_by_test_id("account-link")).to_have_text(name)
    pl.get_by_test_id("challenge-accept").click()
    expect(pl).to_have_url(re.compile(r"/partia/\d+/$"))
    ready(pl)
    creator.wait_for_url(pl.url, timeout=10_000)  # the creator's page follows
    expect(pl.locator(".players")).to_contain_text(name)
    expect(pl.locator(".players")).to_contain_text(ania_name)
