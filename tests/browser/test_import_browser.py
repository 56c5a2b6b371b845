"""Issue 39 in a real browser (live daphne + Redis + a real Celery worker with the ``analysis``
queue + Chromium): a Kropki game in SGF (``GM[40]``, as zagram writes it) imported through the
/import/ page, pasted by a visitor without an account in Polish and uploaded as a file by an
account in English; replayed on its record page step by step (the capture told); its computer
review asked for (the visitor becomes a guest, the visitors' allowance: docs/analysis.md) and
shown, its progress over the site socket; then the analysis board opened from the record at the
ply shown, a move played by a click on the board, the computer's evaluation asked for, and the
link to share it opening the same position, with the same figures, in a fresh context."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.forms import ask_evaluation
from tests.browser.test_a11y import BLOCKING, axe_violations
from tests.browser.test_after_match import as_player, fits

pytestmark = pytest.mark.usefixtures("celery_worker_proc")

# Kropki 10x10 as zagram exports it (B is pink, coordinates column then row from the top left):
# blue leaves its dot at e5 to be surrounded (ply 6, a mistake), pink rings it at ply 7 with e6.
# The moves of tests/browser/test_analysis_browser.py's HISTORY: 34 44 43 0 45 99 54 88.
SGF = (
    "(;GM[40]FF[4]CA[UTF-8]AP[zagram]SZ[10]PB[Ola z zagramu]PW[Piotr z playdots]RE[B+1]DT[2026-12-01]"
    ";B[ed];W[ee];B[de];W[aa];B[fe];W[jj];B[ef];W[ii])"
)
PLIES = 8

# The page's site-socket frames of the review, kept across the reload that shows the result.
REVIEW_FRAMES = """
document.addEventListener("kropki:site-frame", function (event) {
  if (event.detail && event.detail.type === "analysis") {
    sessionStorage.setItem("analysisFrames", JSON.stringify(
      JSON.parse(sessionStorage.getItem("analysisFrames") || "[]").concat([event.detail.status])));
  }
});
"""


def step_through(page, plies: int) -> None:
    """From the start to the end of the replay with "next", one move at a time."""
    board = page.get_by_test_id("replay-board")
    page.get_by_test_id("replay-first").click()
    expect(board).to_have_attribute("data-ply", "0")
    for ply in range(1, plies + 1):
        page.get_by_test_id("replay-next").click()
        expect(board).to_have_attribute("data-ply", str(ply))


def ask_and_read_the_review(page) -> None:
    """Ask for the review; the progress comes over the site socket and the page shows the result."""
    section = page.get_by_test_id("analysis")
    section.get_by_test_id("analysis-ask").click()
    expect(page.get_by_test_id("analysis-curve")).to_be_visible(timeout=90_000)
    expect(section).to_have_attribute("data-status", "done")
    statuses = page.evaluate("JSON.parse(sessionStorage.getItem('analysisFrames') || '[]')")
    assert "done" in statuses, statuses  # pushed, not found by reloading
    expect(page.get_by_test_id("analysis-table").locator("tbody tr")).to_have_count(PLIES)
    expect(page.get_by_test_id("accuracy-pink")).to_contain_text("%")


def figures(page) -> tuple[str, str]:
    """The evaluation's figure and best line as shown, apart from the language's words."""
    expected = re.search(r"\d[.,]\d\d", page.get_by_test_id("board-expected").inner_text())
    line = page.get_by_test_id("board-line").inner_text().split(":", 1)[1].strip()
    assert expected is not None
    return expected.group(0).replace(",", "."), line


def test_a_visitor_pastes_an_sgf_replays_it_has_it_reviewed_and_analyses_a_position(new_context):
    context = new_context()
    context.add_init_script(REVIEW_FRAMES)
    page = context.new_page()
    page.goto("/import/")
    expect(page.get_by_role("heading", name="Zaimportuj partię")).to_be_visible()
    page.get_by_label("Tekst partii").fill(SGF)
    page.get_by_test_id("import-submit").click()

    # The record: the file's players and result, the replay one move at a time, the capture told
    expect(page).to_have_url(re.compile(r"/partia/\d+/zapis/$"))
    expect(page.get_by_test_id("record-imported")).to_contain_text("Partia zaimportowana (SGF)")
    expect(page.get_by_test_id("record-imported")).to_contain_text("B+1")
    expect(page.get_by_test_id("record-players")).to_contain_text("Ola z zagramu")
    step_through(page, PLIES)
    page.get_by_test_id("replay-prev").click()
    expect(page.get_by_test_id("replay-position")).to_contain_text("Ruch 7 z 8")
    expect(page.get_by_test_id("replay-explain")).to_contain_text("Różowe zamykają okrążenie ruchem e6")
    expect(page.get_by_test_id("replay-explain")).to_contain_text("i zdobywają 1 kropkę: e5.")

    # The review, asked without an account: the page says the allowance, the visitor becomes a guest
    expect(page.get_by_test_id("analysis-visitor")).to_contain_text(re.compile(r"bez konta: \d+ anali\w+ dziennie"))
    ask_and_read_the_review(page)
    expect(page.get_by_test_id("guest-label")).to_have_text("Gość")
    classes = page.evaluate("JSON.parse(document.getElementById('analysis-data').textContent).classes")
    assert classes[5] in ("inaccuracy", "mistake", "blunder"), classes  # blue's dot left at ply 6

    # The analysis board from the record at the ply shown (4), a move by a click on the board
    board = page.get_by_test_id("replay-board")
    page.get_by_test_id("replay-first").click()
    for ply in range(1, 5):
        page.keyboard.press("ArrowRight")
        expect(board).to_have_attribute("data-ply", str(ply))
    with page.expect_navigation():  # to "load": the board's deferred script has bound its clicks (CI once
        page.get_by_test_id("to-analysis-board").click()  # clicked the board before, and nothing moved)
    expect(page).to_have_url(re.compile(r"/analiza/kropki-10/\?ruchy=34%2C44%2C43%2C0$"))
    expect(page.get_by_test_id("board-moves").locator("li")).to_have_count(4)
    expect(page.get_by_test_id("board-to-move")).to_have_text("Ruch różowych.")
    page.locator("#board [data-action='55']").click()  # f6
    expect(page).to_have_url(re.compile(r"\?ruchy=34%2C44%2C43%2C0%2C55$"))
    expect(page.get_by_test_id("board-to-move")).to_have_text("Ruch niebieskich.")
    ask_evaluation(page)
    expect(page.get_by_test_id("board-evaluation")).to_be_visible(timeout=30_000)
    shown = figures(page)
    share = page.get_by_test_id("board-share").input_value()
    assert "ruchy=34%2C44%2C43%2C0%2C55" in share and "ocena" not in share

    # The shared link in a fresh context (another visitor, in English): the same position, the same figures
    other = new_context(locale="en-US").new_page()
    other.goto(share)
    expect(other.get_by_test_id("board-moves").locator("li")).to_have_count(5)
    expect(other.get_by_test_id("board-to-move")).to_have_text("Blue to move.")
    assert other.get_by_test_id("board-moves").inner_text() == page.get_by_test_id("board-moves").inner_text()
    ask_evaluation(other)
    expect(other.get_by_test_id("board-evaluation")).to_be_visible(timeout=30_000)
    assert figures(other) == shown


def test_an_account_uploads_the_sgf_in_english_replays_it_and_has_it_reviewed(new_context, live_url, live_site):
    name = f"importer{uuid.uuid4().hex[:6]}"
    live_site.call("user_create", username=name, email=f"{name}@example.com")
    live_site.call("user_update", username=name, language="en")
    signed = live_site.call("players_signed_in", names=[name])
    data = {"cookie_name": signed[name]["cookie_name"], name: signed[name]}
    context = as_player(new_context, live_url, data, name, locale="en-US", viewport={"width": 360, "height": 740})
    context.add_init_script(REVIEW_FRAMES)
    page = context.new_page()
    page.goto("/import/")
    expect(page.get_by_role("heading", name="Import a game")).to_be_visible()
    page.get_by_label("or a file (.sgf, .json)").set_input_files(
        {"name": "ola-piotr.sgf", "mimeType": "application/x-go-sgf", "buffer": SGF.encode()}
    )
    page.get_by_test_id("import-submit").click()
    expect(page).to_have_url(re.compile(r"/partia/\d+/zapis/$"))
    expect(page.get_by_test_id("record-imported")).to_contain_text("An imported game (SGF)")
    step_through(page, PLIES)
    expect(page.get_by_test_id("replay-position")).to_contain_text("Move 8 of 8")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("replay-explain")).to_contain_text("Pink close the ring with e6")
    fits(page.get_by_test_id("replay"))

    expect(page.get_by_test_id("analysis-visitor")).to_have_count(0)  # an account: no allowance to tell
    ask_and_read_the_review(page)
    fits(page.get_by_test_id("analysis-curve"))
    page.get_by_test_id("replay-first").click()
    page.get_by_test_id("review-next").click()
    expect(page.get_by_test_id("replay-board")).not_to_have_attribute("data-ply", "0")
    expect(page.get_by_test_id("replay-review-text")).to_contain_text("Better:")

    # axe on the imported, reviewed record (a context of its own: bypass_csp lets the axe script in)
    checked = as_player(new_context, live_url, data, name, locale="en-US", bypass_csp=True).new_page()
    checked.goto(page.url)
    expect(checked.get_by_test_id("analysis-curve")).to_be_visible()
    blocking = [v for v in axe_violations(checked) if v["impact"] in BLOCKING]
    assert not blocking, blocking
