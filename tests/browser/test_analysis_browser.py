"""Issue 28 in a real browser (live daphne + Redis + a real Celery worker on the ``analysis``
queue + Chromium): a player asks for the computer's analysis of a finished Kropki match, the
progress arrives over the site socket, the page shows the evaluation curve and its table,
"n" and "p" jump between the marked moves (wrapping round), a mistake says why, the better move is drawn on
the board, and the capture is explained; in Polish, then the same page in English for the other player."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.test_a11y import BLOCKING, axe_violations
from tests.browser.test_after_match import as_player, fits

pytestmark = pytest.mark.usefixtures("celery_worker_proc")

# tests/games/test_analysis.py's KROPKI_DOT_LEFT: blue leaves its dot at (4,4) to be surrounded
# (ply 6, a mistake; the better move is (4,5): "e6"), pink surrounds it at ply 7.
HISTORY = [34, 44, 43, 0, 45, 99, 54, 88]

RECORD_FRAMES = """
window.__analysisFrames = [];
document.addEventListener("kropki:site-frame", function (event) {
  if (event.detail && event.detail.type === "analysis") {
    window.__analysisFrames.push(event.detail.status);
    sessionStorage.setItem("analysisFrames", JSON.stringify(
      JSON.parse(sessionStorage.getItem("analysisFrames") || "[]").concat([event.detail.status])));
  }
});
"""


def test_ask_watch_read_the_curve_jump_to_a_mistake_see_the_better_move_and_the_capture(
    new_context, live_url, live_site
):
    suffix = uuid.uuid4().hex[:6]
    data = live_site.call("analysed_match", pink=f"ola{suffix}", blue=f"piotr{suffix}", history=HISTORY)
    match_id = data["match"]
    context = as_player(new_context, live_url, data, "pink")
    context.add_init_script(RECORD_FRAMES)
    page = context.new_page()
    page.goto(f"/partia/{match_id}/zapis/")
    expect(page.locator("html")).to_have_attribute("data-site", "connected")
    section = page.get_by_test_id("analysis")
    expect(section.get_by_role("heading", name="Analiza komputerowa")).to_be_visible()
    section.get_by_test_id("analysis-ask").click()

    # The progress came over the site socket and the page reloaded with the result.
    expect(page.get_by_test_id("analysis-curve")).to_be_visible(timeout=60_000)
    statuses = page.evaluate("JSON.parse(sessionStorage.getItem('analysisFrames') || '[]')")
    assert "done" in statuses and "running" in statuses, statuses
    expect(section).to_have_attribute("data-status", "done")
    expect(page.locator("svg.review-chart title")).to_have_text("Ocena po każdym ruchu")
    expect(page.locator("svg.review-chart .review-mark").first).to_be_attached()
    rows = page.get_by_test_id("analysis-table").locator("tbody tr")
    expect(rows).to_have_count(len(HISTORY))
    expect(page.get_by_test_id("accuracy-pink")).to_contain_text("%")

    # "n": from the start, each marked move in turn, up to blue's dot left at ply 6; its words
    # and the better move.
    classes = page.evaluate("JSON.parse(document.getElementById('analysis-data').textContent).classes")
    flagged = [ply for ply, cls in enumerate(classes, start=1) if cls in ("inaccuracy", "mistake", "blunder")]
    assert 6 in flagged, classes
    board = page.get_by_test_id("replay-board")
    text = page.get_by_test_id("replay-review-text")
    page.get_by_test_id("replay-first").click()
    expect(board).to_have_attribute("data-ply", "0")
    for ply in flagged[: flagged.index(6) + 1]:
        page.keyboard.press("n")
        expect(board).to_have_attribute("data-ply", str(ply))
    expect(text).to_contain_text("błąd")
    # why (issue 39): pink already threatened to surround the dot, and blue's move did not stop it
    expect(text).to_contain_text(
        "Już wcześniej ruch przeciwnika w e6 zabierał 1 kropkę, a ten ruch temu nie zapobiegł."
    )
    expect(text).to_contain_text("Lepiej: e6")
    expect(page.get_by_test_id("analysis-why").first).to_contain_text("Już wcześniej ruch przeciwnika w e6")
    page.get_by_test_id("review-better").click()
    expect(board).to_have_attribute("data-better", "1")
    expect(board.locator("circle.highlight")).to_have_count(1)
    expect(page.get_by_test_id("review-better")).to_have_text("Pokaż zagrany ruch")
    page.get_by_test_id("review-better").click()
    expect(board).not_to_have_attribute("data-better", "1")

    # The capture explained: ply 7 surrounds one dot, marked on the board.
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-ply", "7")
    explain = page.get_by_test_id("replay-explain")
    expect(explain).to_contain_text("Różowe zamykają okrążenie ruchem e6")
    expect(explain).to_contain_text("i zdobywają 1 kropkę: e5.")
    expect(board.locator("circle.highlight")).to_have_count(1)

    # From any position: "n" past the last marked move wraps to the first, "p" back to the last
    page.get_by_test_id("replay-last").click()
    expect(board).to_have_attribute("data-ply", str(len(HISTORY)))
    page.keyboard.press("n")
    expect(board).to_have_attribute("data-ply", str(flagged[0]))
    page.keyboard.press("p")
    expect(board).to_have_attribute("data-ply", str(flagged[-1]))
    page.get_by_test_id("review-prev").click()
    expect(board).to_have_attribute("data-ply", str(flagged[-2] if len(flagged) > 1 else flagged[-1]))

    # axe on the analysed record (a context of its own: bypass_csp lets the axe script in).
    checked = as_player(new_context, live_url, data, "pink", bypass_csp=True).new_page()
    checked.goto(f"/partia/{match_id}/zapis/")
    expect(checked.get_by_test_id("analysis-curve")).to_be_visible()
    blocking = [v for v in axe_violations(checked) if v["impact"] in BLOCKING]
    assert not blocking, blocking

    # The other player reads the same analysis in English (their language), asked by nobody again,
    # on a phone.
    english = as_player(
        new_context, live_url, data, "blue", locale="en-US", viewport={"width": 360, "height": 740}
    ).new_page()
    english.goto(f"/partia/{match_id}/zapis/")
    expect(english.get_by_role("heading", name="Computer analysis")).to_be_visible()
    expect(english.get_by_test_id("analysis-curve")).to_be_visible()
    fits(english.get_by_test_id("analysis-curve"))
    fits(english.get_by_test_id("replay"))
    english.get_by_test_id("replay-first").click()
    for _ in range(7):
        english.keyboard.press("ArrowRight")
    expect(english.get_by_test_id("replay-board")).to_have_attribute("data-ply", "7")
    expect(english.get_by_test_id("replay-explain")).to_contain_text("Pink close the ring with e6")
    expect(english.get_by_test_id("replay-explain")).to_contain_text("and take 1 dot: e5.")
    english.get_by_test_id("replay-first").click()
    for ply in flagged[: flagged.index(6) + 1]:
        english.get_by_test_id("review-next").click()
        expect(english.get_by_test_id("replay-board")).to_have_attribute("data-ply", str(ply))
    english_text = english.get_by_test_id("replay-review-text")
    expect(english_text).to_contain_text("The opponent could already take 1 dot with a move at e6")
    expect(english_text).to_contain_text("Better: e6")
