"""Forms the browser tests fill the way a person does (by their Polish labels)."""

from __future__ import annotations


def fill_sign_up(page, username: str, password: str) -> None:
    """Fill the sign-up form shown on ``page`` and send it."""
    page.get_by_label("Nazwa użytkownika").fill(username)
    page.get_by_label("E-mail").fill(f"{username.lower()}@example.com")
    page.get_by_label("Hasło", exact=True).fill(password)
    page.get_by_label("Potwierdzenie hasła").fill(password)
    page.get_by_role("button", name="Załóż konto").click()


# The analysis board's "Ask the computer": the analysis worker makes the evaluation (up to about
# 3 s of one core: Piłkarzyki's three searches of 20,000 nodes), and in a run of the suite the site
# has a third of a core or less, so it may take ten seconds to appear on the page.
EVALUATION_MS = 30_000


def ask_evaluation(page) -> None:
    """Click the analysis board's "Ask the computer" and wait until the page shows the evaluation
    (its slot asks for it every second while it is made) or the refusal."""
    page.get_by_test_id("board-evaluate").click()
    page.locator('[data-testid="board-evaluation"], [data-testid="board-error"]').first.wait_for(timeout=EVALUATION_MS)
