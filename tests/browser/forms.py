"""Forms the browser tests fill the way a person does (by their Polish labels)."""

from __future__ import annotations


def fill_sign_up(page, username: str, password: str) -> None:
    """Fill the sign-up form shown on ``page`` and send it."""
    page.get_by_label("Nazwa użytkownika").fill(username)
    page.get_by_label("E-mail").fill(f"{username.lower()}@example.com")
    page.get_by_label("Hasło", exact=True).fill(password)
    page.get_by_label("Potwierdzenie hasła").fill(password)
    page.get_by_role("button", name="Załóż konto").click()
