"""Ranked play end to end in real browsers (live daphne + Redis + Chromium):
two new players press "Graj teraz" for Cztery w rzędzie, are paired, play to a
win, see their new ratings on their profiles, and step through the replay."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.browser.forms import fill_sign_up
from tests.browser.test_match_browser import at_ply
from tests.helpers import C4

PASSWORD = "kropka-Trudna-2024"


def sign_up(new_context, username: str):
    page = new_context().new_page()
    page.goto("/konto/rejestracja/")
    fill_sign_up(page, username, PASSWORD)
    expect(page.get_by_test_id("account-link")).to_have_text(username)
    return page


def test_two_players_are_paired_play_and_see_ratings_and_the_replay(new_context, live_url):
    suffix = uuid.uuid4().hex[:6]
    names = {"a": f"ania{suffix}", "b": f"bartek{suffix}"}
    pages = {key: sign_up(new_context, name) for key, name in names.items()}

    # Ania presses "Graj teraz" and waits; the status shows the time waited.
    ania = pages["a"]
    ania.goto("/graj/")
    ania.get_by_test_id(f"play-now-{C4}").click()
    expect(ania).to_have_url(re.compile(r"/graj/kolejka/$"))
    expect(ania.get_by_test_id("queue-status")).to_contain_text("Czekasz na przeciwnika")
    expect(ania.get_by_test_id("queue-variants")).to_contain_text("Cztery w rzędzie")
    expect(ania.get_by_test_id("queue-elapsed")).to_have_text(re.compile(r"0:0[1-9]"), timeout=5000)

    # Bartek sees the queue in the lobby, presses the button, and both land in the match.
    bartek = pages["b"]
    bartek.goto("/graj/")
    expect(bartek.get_by_test_id(f"queue-size-{C4}")).to_have_text("czeka: 1")
    bartek.get_by_test_id(f"play-now-{C4}").click()
    for page in (ania, bartek):
        expect(page).to_have_url(re.compile(r"/partia/\d+/$"), timeout=10_000)
        expect(page.locator("#match")).to_have_attribute("data-ready", "1")
        expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    assert ania.url == bartek.url
    found = re.search(r"/partia/(\d+)/", ania.url)
    assert found is not None
    match_id = int(found.group(1))

    # Whoever has the first move is pink.
    expect(ania.get_by_test_id("turn")).to_have_text(re.compile("Twój ruch|przeciwnika"))
    ania_first = "Twój ruch" in ania.get_by_test_id("turn").inner_text()
    pink, blue = (ania, bartek) if ania_first else (bartek, ania)
    winner_name, loser_name = (names["a"], names["b"]) if ania_first else (names["b"], names["a"])

    for ply, (page, column) in enumerate([(pink, 0), (blue, 1), (pink, 0), (blue, 1), (pink, 0), (blue, 1), (pink, 0)]):
        at_ply(page, ply)
        page.locator(f'#board [data-action="{column}"]').first.click()
        at_ply(pink, ply + 1)
        at_ply(blue, ply + 1)
    for page in (pink, blue):
        expect(page.get_by_test_id("result")).to_have_text(re.compile("Wygrywają różowe: cztery w rzędzie"))

    # Profiles: the winner went up, the loser down; one win, one loss, no draw.
    pink.goto(f"/gracz/{winner_name}/")
    winner_rating = int(pink.get_by_test_id(f"rating-value-{C4}").inner_text().rstrip("?"))
    expect(pink.get_by_test_id(f"wins-{C4}")).to_have_text("1")
    expect(pink.get_by_test_id(f"draws-{C4}")).to_have_text("0")
    blue.goto(f"/gracz/{loser_name}/")
    loser_rating = int(blue.get_by_test_id(f"rating-value-{C4}").inner_text().rstrip("?"))
    expect(blue.get_by_test_id(f"losses-{C4}")).to_have_text("1")
    assert winner_rating > 1500 > loser_rating
    expect(blue.get_by_test_id(f"chart-{C4}").locator("svg title")).to_contain_text("Historia rankingu")

    # The record, from the loser's list of matches.
    blue.get_by_test_id("record-link").first.click()
    expect(blue).to_have_url(re.compile(rf"/partia/{match_id}/zapis/$"))
    expect(blue.get_by_test_id("record-result")).to_contain_text("Wygrywają różowe")
    expect(blue.get_by_test_id("rating-after-pink")).to_have_text(str(winner_rating) + "?")
    expect(blue.get_by_test_id("rating-delta-blue")).to_have_text(re.compile(r"^\u2212\d+$"))

    board = blue.get_by_test_id("replay-board")
    position = blue.get_by_test_id("replay-position")
    expect(board).to_have_attribute("data-ply", "7")
    expect(position).to_contain_text("Ruch 7 z 7")
    final = board.inner_html()
    blue.wait_for_load_state("load")  # the replay's script has bound its buttons (a click before did nothing)
    blue.get_by_test_id("replay-first").click()
    expect(board).to_have_attribute("data-ply", "0")
    expect(position).to_have_text("Ruch 0 z 7")
    expect(blue.get_by_test_id("replay-first")).to_be_disabled()
    empty = board.inner_html()
    assert empty != final
    blue.get_by_test_id("replay-next").click()
    expect(board).to_have_attribute("data-ply", "1")
    expect(position).to_contain_text("różowe: ")
    blue.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-ply", "2")
    blue.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-ply", "1")
    blue.get_by_test_id("replay-slider").fill("5")
    expect(board).to_have_attribute("data-ply", "5")
    expect(position).to_contain_text("Ruch 5 z 7")
    blue.get_by_test_id("replay-prev").click()
    expect(board).to_have_attribute("data-ply", "4")
    blue.get_by_test_id("replay-last").click()
    expect(board).to_have_attribute("data-ply", "7")
    assert board.inner_html() == final
    expect(blue.get_by_test_id("replay-next")).to_be_disabled()

    # The JSON export names the players and holds every move.
    data = blue.request.get(f"/partia/{match_id}/eksport.json").json()
    assert data["moves"] == [1, 2, 1, 2, 1, 2, 1] and data["players"]["pink"]["name"] == winner_name
