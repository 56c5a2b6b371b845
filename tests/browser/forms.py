"""Forms the browser tests fill the way a person does (by their Polish labels)."""

from __future__ import annotations


def fill_sign_up(page, username: str, password: str) -> None:
    """Fill the sign-up form shown on ``page`` and send it."""
    page.get_by_label("Nazwa użytkownika").fill(username)
    page.get_by_label("E-mail").fill(f"{username.lower()}@example.com")
    page.get_by_label("Hasło", exact=True).fill(password)
    page.get_by_label("Potwierdzenie hasła").fill(password)
    page.get_by_role("button", name="Załóż konto").click()


# The analysis board's "Ask the computer" is answered in the request: up to about 3 s of one core
# (Piłkarzyki: three searches of 20,000 nodes for the value and a line of four steps), and in a
# run of the suite the site has a third of a core or less, so its page may take ten seconds.
EVALUATION_MS = 30_000


def ask_evaluation(page) -> None:
    """Click the analysis board's "Ask the computer" and wait for the evaluated page."""
    page.get_by_test_id("board-evaluate").click(timeout=EVALUATION_MS)
