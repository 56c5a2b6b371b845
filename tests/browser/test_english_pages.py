"""English pages stay English through a whole match: English players and an
English anonymous spectator watch Cztery w rzędzie to a win and to a
resignation, with reloads, and no text on their pages is ever Polish (live
frames carry codes; state frames are worded in each socket's language)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from .frames import wait_frames
from .test_match_browser import at_ply, click

# Words of the Polish pages, and any Polish letter. The games have English names on
# English pages (issue 25 item 9: "Four in a Row"); only the site's name, Kropki, is left out.
POLISH = re.compile(
    r"[ąęłńóśźżćĄĘŁŃÓŚŹŻĆ]|\b(?:wygrywają|różowe|niebieskie|przeciwnik\w*|poddał\w*|poddaj\w*|zakończ\w*|ruch|ruchy|"
    r"twój|remis\w*|partia|partii|gracze|zasady|graj|łączenie|oglądasz|wyloguj|zaloguj|kolumna|plansza|wynik|"
    r"czas|minął|dodatkowy|rewanż|przyjmij|odrzuć|anuluj|tak|na pewno)\b",
    re.IGNORECASE,
)
PROPER_NAMES = ("Kropki",)

PAGE_TEXT = """() => {
  const parts = [document.title, document.body.innerText];
  document.querySelectorAll("svg title, svg desc, svg text").forEach(e => parts.push(e.textContent));
  document.querySelectorAll("[aria-label], [title], [alt], [placeholder]").forEach(e => {
    for (const a of ["aria-label", "title", "alt", "placeholder"]) if (e.getAttribute(a)) parts.push(e.getAttribute(a));
  });
  const announce = document.getElementById("announce");
  if (announce) parts.push(announce.textContent);
  return parts.join("\\n");
}"""


def polish_on(page) -> list[str]:
    text = page.evaluate(PAGE_TEXT)
    for name in PROPER_NAMES:
        text = text.replace(name, "")
    return sorted({m.group(0) for m in POLISH.finditer(text)})


def assert_english(pages: dict, when: str) -> None:
    for who, page in pages.items():
        expect(page.locator("html")).to_have_attribute("lang", "en")
        found = polish_on(page)
        assert not found, f"Polish on {who}'s page {when}: {found}"


@pytest.fixture(scope="module")
def english(live_site):
    return live_site.call("english_players")


def open_pages(new_context, live_url, english, match_id: int) -> dict:
    pages = {}
    for who in ("eng_pink", "eng_blue", "spectator"):
        context = new_context(locale="en-GB")
        if who == "spectator":  # anonymous: the language cookie the language switch sets
            context.add_cookies([{"name": "kropki_language", "value": "en", "url": live_url}])
        else:
            context.add_cookies([{"name": english["cookie_name"], "value": english[who], "url": live_url}])
        page = context.new_page()
        page.goto(f"/partia/{match_id}/")
        pages[who] = page
    for page in pages.values():
        ready(page)
    return pages


def ready(page) -> None:
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")


def reload_all(pages: dict, ply: int) -> None:
    for page in pages.values():
        page.reload()
        ready(page)
        at_ply(page, ply)


def test_english_pages_stay_english_through_a_win(new_context, live_url, english):
    match_id = english["matches"][0]
    pages = open_pages(new_context, live_url, english, match_id)
    assert_english(pages, "at the start")
    moves = [
        ("eng_pink", 0),
        ("eng_blue", 1),
        ("eng_pink", 0),
        ("eng_blue", 1),
        ("eng_pink", 0),
        ("eng_blue", 1),
        ("eng_pink", 0),
    ]
    for ply, (who, column) in enumerate(moves, start=1):
        at_ply(pages[who], ply - 1)
        click(pages[who], column)
        for page in pages.values():
            at_ply(page, ply)
        assert_english(pages, f"after move {ply}")
        if ply == 3:
            reload_all(pages, ply)
            assert_english(pages, "after a reload mid-game")
    for page in pages.values():
        expect(page.get_by_test_id("result")).to_have_text(re.compile("Pink wins: four in a row"))
    assert_english(pages, "at the end")
    reload_all(pages, len(moves))
    for page in pages.values():
        expect(page.get_by_test_id("result")).to_have_text(re.compile("Pink wins: four in a row"))
        wait_frames(page, after=0, type="state")  # its state frame rewrites the result: it must stay English
    assert_english(pages, "after a reload at the end")
    watcher = pages["spectator"]
    watcher.goto(reverse("record", args=[match_id]))
    expect(watcher.get_by_test_id("record-moves").locator("li")).to_have_count(len(moves))
    assert_english({"spectator on the record": watcher}, "")
    # the check can fail: a Polish spectator's page of the same match is caught
    polish = new_context().new_page()
    polish.goto(f"/partia/{match_id}/")
    ready(polish)
    expect(polish.get_by_test_id("result")).to_have_text(re.compile("Wygrywają różowe"))
    assert {"Wygrywają", "różowe"} <= set(polish_on(polish))


def test_english_pages_stay_english_through_a_resignation(new_context, live_url, english):
    match_id = english["matches"][1]
    pages = open_pages(new_context, live_url, english, match_id)
    for ply, (who, column) in enumerate([("eng_pink", 3), ("eng_blue", 3)], start=1):
        at_ply(pages[who], ply - 1)
        click(pages[who], column)
        for page in pages.values():
            at_ply(page, ply)
        assert_english(pages, f"after move {ply}")
    blue = pages["eng_blue"]
    blue.get_by_test_id("btn-resign").click()
    expect(blue.get_by_test_id("confirm")).to_be_visible()
    assert_english({"eng_blue (confirming)": blue}, "")
    blue.get_by_test_id("confirm-yes").click()
    for page in pages.values():
        expect(page.get_by_test_id("result")).to_have_text(re.compile("Pink wins: the opponent resigned"))
    assert_english(pages, "after the resignation")
    reload_all(pages, 2)
    for page in pages.values():
        expect(page.get_by_test_id("result")).to_have_text(re.compile("Pink wins: the opponent resigned"))
        wait_frames(page, after=0, type="state")  # the socket's state frame: the result stays English
    assert_english(pages, "after a reload at the end")
