"""The analysis board's position editor in a real browser (live daphne + Chromium; issue 39 item
3), in Polish and in English: from the analysis board to an empty board, a position built by
clicks, by the keyboard on the board and by the form's list, a position that cannot be analysed
said so and mended, "Analyse" to the analysis board at the set-up, the computer's evaluation
there, and the link to share that opens the same position in another browser."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.forms import ask_evaluation
from tests.browser.test_after_match import fits

pytestmark = pytest.mark.usefixtures("celery_worker_proc")  # the analysis worker makes the evaluations

WORDS = {
    "pl": {
        "editor": "Edytor pozycji",
        "blue": "Niebieskie",
        "pink": "Różowe",
        "remove": "Usuń",
        "not ready": "Jeszcze nie do analizy",
        "ready": "Tę pozycję można analizować.",
        "blue to move": "Ruch niebieskich.",
        "pink to move": "Ruch różowych.",
    },
    "en": {
        "editor": "Position editor",
        "blue": "Blue",
        "pink": "Pink",
        "remove": "Remove",
        "not ready": "Not ready to analyse",
        "ready": "This position can be analysed.",
        "blue to move": "Blue to move.",
        "pink to move": "Pink to move.",
    },
}


def in_language(new_context, live_url: str, lang: str, **kwargs):
    context = new_context(locale="pl-PL" if lang == "pl" else "en-GB", **kwargs)
    context.add_cookies([{"name": "kropki_language", "value": lang, "url": live_url}])
    return context


def place(page, action: int) -> None:
    """Click the board's place ``action`` and wait for the editor to come back."""
    with page.expect_navigation():
        page.locator(f'#board [data-action="{action}"]').click()


def tool(page, words: dict[str, str], name: str) -> None:
    page.get_by_test_id("editor-form").get_by_role("radio", name=words[name], exact=True).first.check()


def setup_of(url: str) -> dict:
    return json.loads(parse_qs(urlsplit(url).query)["opcje"][0])["setup"]


def test_connect_four_built_analysed_and_shared_in_polish(new_context, live_url):
    words = WORDS["pl"]
    page = in_language(new_context, live_url, "pl").new_page()
    page.goto("/analiza/cztery-w-rzedzie/?ruchy=3")
    # a column to play says so under the pointer (a rule for a match's turns once hid it here)
    assert page.locator("#board [data-action='2']").evaluate("t => getComputedStyle(t).cursor") == "pointer"
    with page.expect_navigation():  # to "load": the editor's deferred script has bound the board
        page.get_by_test_id("board-setup").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(words["editor"])
    board = page.get_by_test_id("editor-board")
    expect(board.locator("svg")).to_have_attribute("role", "group")

    # Pink twice in a row: said, not ready; Remove takes the top disc out again.
    place(page, 3)
    place(page, 3)
    expect(page.get_by_test_id("editor-problem")).to_contain_text(words["not ready"])
    tool(page, words, "remove")
    place(page, 3)
    expect(page.get_by_test_id("editor-ready")).to_contain_text(words["ready"])

    # Blue by the keyboard on the board: the focus comes back to the column used, the arrows move
    # it, Enter drops the disc.
    tool(page, words, "blue")
    place(page, 2)
    focused = "document.activeElement && document.activeElement.getAttribute('data-action')"
    assert page.evaluate(focused) == "2"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "4"
    tool(page, words, "pink")
    page.locator('#board [data-action="4"]').focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    # and by the form's list, as without scripts
    tool(page, words, "blue")
    page.get_by_test_id("editor-where").select_option("3")
    with page.expect_navigation():
        page.get_by_test_id("editor-apply").click()
    expect(page.get_by_test_id("editor-ready")).to_contain_text(words["pink to move"])

    with page.expect_navigation():
        page.get_by_test_id("editor-analyse").click()
    assert urlsplit(page.url).path == "/analiza/cztery-w-rzedzie/"
    cells = setup_of(page.url)["cells"]
    assert cells[-14:] == "...2.....211..", cells  # blue on pink in column 4; blue, pink, pink below
    expect(page.get_by_test_id("board-set-up")).to_be_visible()
    expect(page.get_by_test_id("board-to-move")).to_have_text(words["pink to move"])

    ask_evaluation(page)
    expect(page.get_by_test_id("board-evaluation")).to_be_visible()
    expect(page.get_by_test_id("board-expected")).to_contain_text("Oczekiwany wynik")
    expect(page.get_by_test_id("board-line")).to_be_visible()

    shared = page.get_by_test_id("board-share").input_value()
    other = in_language(new_context, live_url, "pl").new_page()
    other.goto(shared)
    assert setup_of(other.url) == setup_of(page.url)
    assert other.locator("#board svg").inner_html() == page.locator("#board svg").inner_html()
    expect(other.get_by_test_id("board-to-move")).to_have_text(words["pink to move"])


def test_kropki_built_analysed_and_shared_in_english_on_a_phone(new_context, live_url):
    words = WORDS["en"]
    page = in_language(new_context, live_url, "en", viewport={"width": 360, "height": 740}).new_page()
    page.goto("/analiza/kropki-10/?ruchy=44,45")
    with page.expect_navigation():  # to "load" (a click on the board before its script ran did nothing)
        page.get_by_test_id("board-edit").click()  # from the board's position: its two dots come along
    expect(page.get_by_role("heading", level=1)).to_contain_text(words["editor"])
    fits(page.get_by_test_id("editor-board"))
    fits(page.get_by_test_id("editor-form"))
    editing = json.loads(parse_qs(urlsplit(page.url).query)["uklad"][0])
    assert editing["dots"][44] == "1" and editing["dots"][45] == "2" and editing["to_move"] == 1

    # Pink's diamond around its dot e5 (44) stands (an empty ring); made blue, e5 is surrounded:
    # a capture is no set-up. Removed, the ring is empty again.
    for point in (34, 54, 43, 45):  # pink on blue's f5 (45) too
        place(page, point)
    expect(page.get_by_test_id("editor-ready")).to_be_visible()
    tool(page, words, "blue")
    place(page, 44)
    expect(page.get_by_test_id("editor-problem")).to_contain_text("surround a dot of the other colour")
    tool(page, words, "remove")
    place(page, 44)
    expect(page.get_by_test_id("editor-ready")).to_be_visible()
    tool(page, words, "blue")
    place(page, 0)

    # Blue to move, and the dots taken before as the score.
    page.get_by_test_id("editor-mover-2").check()
    page.get_by_test_id("editor-score-1").fill("2")
    page.get_by_test_id("editor-score-2").fill("1")
    with page.expect_navigation():
        page.get_by_test_id("editor-analyse").click()
    setup = setup_of(page.url)
    assert setup["to_move"] == 2 and setup["score"] == [2, 1]
    assert (setup["dots"].count("1"), setup["dots"].count("2"), setup["dots"][44]) == (4, 1, ".")
    expect(page.get_by_test_id("board-to-move")).to_have_text(words["blue to move"])
    ask_evaluation(page)
    expect(page.get_by_test_id("board-expected")).to_contain_text("Expected result for the side to move")

    shared = page.get_by_test_id("board-share").input_value()
    other = in_language(new_context, live_url, "en").new_page()
    other.goto(shared)
    assert setup_of(other.url) == setup
    expect(other.get_by_test_id("board-to-move")).to_have_text(words["blue to move"])
    assert other.locator("#board svg desc").text_content() == page.locator("#board svg desc").text_content()


@pytest.mark.parametrize("variant", ["kropki-i-kwadraty", "pilkarzyki"])
def test_the_other_games_set_up_by_clicks(new_context, live_url, variant):
    """Kropki i kwadraty's lines and a box, Piłkarzyki's lines walked by the ball: analysed."""
    page = in_language(new_context, live_url, "en").new_page()
    page.goto(f"/analiza/{variant}/edytor/")
    for i in range(3):  # the first, second and third place offered each time
        place(page, int(page.locator("#board [data-action]").nth(i).get_attribute("data-action") or -1))
    expect(page.get_by_test_id("editor-ready")).to_be_visible()
    with page.expect_navigation():
        page.get_by_test_id("editor-analyse").click()
    setup = setup_of(page.url)
    assert len(setup["by"] if variant == "pilkarzyki" else setup["lines"].replace(".", "")) == 3, setup
    ask_evaluation(page)
    expect(page.get_by_test_id("board-evaluation")).to_be_visible()
