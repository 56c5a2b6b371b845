"""Puzzles in a real browser (issue 39: "a puzzle solved and failed, the rating moving"), on a
live daphne: a player in Polish solves a Cztery w rzędzie win in 2 (blue's) by clicking the board (the
opponent's answer comes, then the four), the rating rises; a player in English fails a Kropki
capture by clicking another point, the solution is shown and the rating falls; a visitor solves
by keyboard without a rating."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.games.puzzles.test_finders import CLOSE, KROPKI, WALL, WIN_2

KROPKI_CAPTURE = [*WALL, KROPKI.action_for(9, 0)]


def solver_context(new_context, live_url, live_site, lang: str):
    data = live_site.call("puzzle_solver", username=f"zad{lang}{uuid.uuid4().hex[:6]}", language=lang)
    context = new_context(locale="pl-PL" if lang == "pl" else "en-GB")
    context.add_cookies([{"name": data["cookie_name"], "value": data["cookie"], "url": live_url}])
    return context


def test_a_win_in_two_solved_by_clicks_and_the_rating_rises(new_context, live_url, live_site):
    puzzle = live_site.call("puzzle_made", variant="cztery-w-rzedzie", history=WIN_2)
    page = solver_context(new_context, live_url, live_site, "pl").new_page()
    page.goto(f"/zadania/{puzzle['id']}/")
    expect(page.get_by_test_id("puzzle-task")).to_contain_text("Ruch niebieskich: znajdź najlepszy ruch.")
    expect(page.get_by_test_id("puzzle-task")).to_contain_text("Wygrana w 2")
    first, _reply, last = puzzle["line"]
    assert page.locator(f"#board [data-action='{first}']").evaluate("t => getComputedStyle(t).cursor") == "pointer"
    with page.expect_navigation():  # to "load": the next page's deferred script binds the board
        page.locator(f"#board [data-action='{first}']").first.click()
    expect(page.get_by_test_id("puzzle-going")).to_have_text(
        "Dobrze. Dalej: odpowiedź przeciwnika już jest na planszy."
    )
    expect(page.get_by_test_id("puzzle-played")).to_contain_text(" ")  # the move and the answer
    page.locator(f"#board [data-action='{last}']").first.click()
    expect(page.get_by_test_id("puzzle-solved")).to_be_visible()
    expect(page.get_by_test_id("puzzle-rating-change")).to_contain_text("Twój ranking zadań: 1500 →")
    after = int(page.get_by_test_id("puzzle-rating-change").inner_text().split("→")[1])
    assert after > 1500
    page.get_by_role("link", name="Wszystkie zadania").click()
    expect(page.get_by_test_id("puzzle-rating-connect4")).to_contain_text(f"{after} (rozwiązane: 1 z 1)")


def test_a_capture_failed_shows_the_solution_and_the_rating_falls(new_context, live_url, live_site):
    puzzle = live_site.call("puzzle_made", variant="kropki-10", history=KROPKI_CAPTURE)
    page = solver_context(new_context, live_url, live_site, "en").new_page()
    page.goto(f"/zadania/{puzzle['id']}/")
    expect(page.get_by_test_id("puzzle-task")).to_contain_text("Capture. Pink to move: find the best move.")
    page.locator(f"#board [data-action='{KROPKI.action_for(7, 7)}']").click()
    if page.get_by_test_id("confirm-move").count():  # Kropki's tap-to-confirm, where the page asks
        page.get_by_test_id("confirm-move").click()
    expect(page.get_by_test_id("puzzle-failed")).to_have_text("Not this one.")
    expect(page.get_by_test_id("puzzle-solution")).to_have_text(f"Solution: {KROPKI.action_to_string(CLOSE)}")
    change = page.get_by_test_id("puzzle-rating-change").inner_text()
    assert change.startswith("Your puzzle rating: 1500 →") and int(change.split("→")[1]) < 1500
    # a second try is not rated
    with page.expect_navigation():  # to "load", as above
        page.get_by_test_id("puzzle-again").click()
    page.locator(f"#board [data-action='{CLOSE}']").click()
    expect(page.get_by_test_id("puzzle-solved")).to_be_visible()
    expect(page.get_by_test_id("puzzle-rating")).to_contain_text("only the first try at a puzzle counts")


def test_a_visitor_solves_by_keyboard_without_a_rating(page, live_site):
    puzzle = live_site.call("puzzle_made", variant="kropki-10", history=KROPKI_CAPTURE)
    page.goto(f"/zadania/{puzzle['id']}/")
    page.get_by_label("Ruch").select_option(str(CLOSE))
    page.get_by_label("Ruch").press("Tab")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("puzzle-solved")).to_be_visible()
    expect(page.get_by_text("Załóż konto, aby mieć ranking zadań.")).to_be_visible()
