"""Kropki: when a player's clock runs out, the clock ends their game (docs/rules.md, "The clock"; "What
a timeout does"), and the pages say so, in Polish and in English: the notice
and the move list live and after a reload, the result, and the record page.

A site of its own with a short clock (MOVE_SECONDS = 10; the opponent's page
claims the timeout, so no Celery is needed) and its own Redis."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import live

from .test_match_browser import at_ply, click

MOVE_SECONDS = 10
P = lambda x, y: y * 10 + x  # noqa: E731 - a Kropki 10x10 point as its action id

WORDS = {
    "pl": {
        # to the player who plays on, from their own point of view (issue 25, item 10)
        "their": "{name}: czas na ruch minął, więc to koniec gry; możesz grać dalej w pojedynkę.",
        "yours": "Twój czas na ruch minął, więc to koniec gry dla Ciebie; przeciwnik może grać dalej.",
        "move": "czas minął",
        "end": "zakończ",
        "result": "Remis przy równym wyniku. {name}: czas na ruch minął.",
    },
    "en": {
        "their": "{name} ran out of time, which ends their game; you may play on alone.",
        "yours": "Your time ran out, which ends your game; your opponent may play on.",
        "move": "time ran out",
        "end": "end",
        "result": "Draw on equal score. {name} ran out of time.",
    },
}


@pytest.fixture(scope="module")
def clock_url():
    with live.own_site("clock-words", MOVE_SECONDS=str(MOVE_SECONDS), MOVE_GRACE_SECONDS="1") as site:
        _proc, url = site.start_daphne()
        yield site, url


def open_page(browser, url: str, data: dict, colour: str, lang: str):
    context = browser.new_context(base_url=url, locale="pl-PL" if lang == "pl" else "en-GB", service_workers="block")
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": data["cookie_name"], "value": data[colour]["cookie"], "url": url}])
    page = context.new_page()
    page.goto(f"/partia/{data['match']}/")
    ready(page)
    return page


def ready(page) -> None:
    expect(page.locator("#match")).to_have_attribute("data-ready", "1")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")


def words_of(items: list[str]) -> list[str]:
    """Move-list items without their number or colour ("3. pink: end" -> "end")."""
    return [re.sub(r"^(\d+\.\s*)?([^:]*:\s+)?", "", item.strip()) for item in items]


def move_list(page) -> list[str]:
    return words_of(page.get_by_test_id("moves").locator("li").all_inner_texts())


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_a_kropki_player_whose_clock_ran_out_is_told_so(browser, clock_url, lang):
    site, url = clock_url
    data = site.call("clock_words_players", lang=lang)
    words = {key: text.format(name=data["pink"]["name"]) for key, text in WORDS[lang].items()}
    pink, blue = (open_page(browser, url, data, colour, lang) for colour in ("pink", "blue"))
    try:
        click(pink, P(4, 4))
        at_ply(blue, 1)
        click(blue, P(5, 4))
        at_ply(pink, 2)
        # pink lets the clock run out: blue's page claims it, and the clock plays pink's "end"
        expect(blue.locator("#match")).to_have_attribute("data-ply", "3", timeout=(MOVE_SECONDS + 8) * 1000)
        at_ply(pink, 3)
        expect(blue.get_by_test_id("notice")).to_have_text(words["their"])
        expect(pink.get_by_test_id("notice")).to_have_text(words["yours"])
        for page in (pink, blue):
            assert move_list(page)[-1] == words["move"]
            expect(page.locator("#announce")).to_contain_text(words["move"])
        pink.reload()  # the snapshot says the same
        ready(pink)
        expect(pink.get_by_test_id("notice")).to_have_text(words["yours"])
        assert move_list(pink)[-1] == words["move"]
        # blue ends the game: the result says whose clock ran out
        blue.get_by_test_id("btn-end").click()
        blue.get_by_test_id("confirm-yes").click()
        for page in (pink, blue):
            at_ply(page, 4)
            expect(page.get_by_test_id("result")).to_have_text(words["result"])
            assert move_list(page)[-2:] == [words["move"], words["end"]]
        blue.reload()
        ready(blue)
        expect(blue.get_by_test_id("result")).to_have_text(words["result"])
        assert move_list(blue)[-2:] == [words["move"], words["end"]]
        blue.goto(reverse("record", args=[data["match"]]))
        expect(blue.locator("main")).to_contain_text(words["result"])
        items = blue.get_by_test_id("record-moves").locator("li").all_inner_texts()
        assert words_of(items)[-2:] == [words["move"], words["end"]]
    finally:
        pink.context.close()
        blue.context.close()
