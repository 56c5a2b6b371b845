"""Whole numbers read from an address or a form: ASCII digits only ("²" is a digit to
``str.isdigit`` but no number to ``int``: a 500 where a refusal was meant)."""

from __future__ import annotations


def number(text: str, digits: int = 9) -> int | None:
    """A whole number of at most ``digits`` ASCII digits, else None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= digits else None


def number_list(text: str, *, most: int, digits: int = 5) -> list[int] | None:
    """Comma-separated whole numbers (none for ""), at most ``most`` of them, else None."""
    if not text:
        return []
    found = [number(part, digits) for part in text.split(",")]
    if len(found) > most or None in found:
        return None
    return [n for n in found if n is not None]
