"""The one refusal of the site: ``Refusal(code)``, and the register of the codes' tables.

A service that says no raises ``Refusal("chat_too_long")``. The code is stable (sockets send
it in their error frame, the API in its JSON error, tests match it); its words and its HTTP
status are looked up here, in the table of the part that owns the code. Each part declares
its own table in its own folder and registers it at start-up (docs/features.md "Refusal
codes"): ``register("chat", {"chat_empty": (_("The message is empty."), 400), ...})``.

A code belongs to one table: registering it twice is an error, so two parts can never
word (or answer) the same code differently. Here because every app may raise one and
``accounts`` imports nothing of ``games`` (the ``layers`` contract in pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The API's status of a code whose table names none, and of a code nobody registered.
DEFAULT_STATUS = 400


@dataclass(frozen=True)
class Code:
    """One registered code: its words (lazy gettext, worded when read), HTTP status and table."""

    code: str
    words: Any
    status: int
    table: str


_CODES: dict[str, Code] = {}
_TABLES: dict[str, tuple[str, ...]] = {}


def register(table: str, codes: Mapping[str, tuple[Any, int]]) -> None:
    """Add ``table``'s codes: code -> (words, HTTP status). ValueError if the table or any
    of its codes is registered already (nothing is added then)."""
    if table in _TABLES:
        raise ValueError(f"refusal table {table!r} is already registered")
    for code in codes:
        if code in _CODES:
            raise ValueError(f"refusal code {code!r} of {table!r} is already registered by {_CODES[code].table!r}")
    for code, (words, status) in codes.items():
        _CODES[code] = Code(code=code, words=words, status=status, table=table)
    _TABLES[table] = tuple(codes)


def forget(table: str) -> None:
    """Remove ``table`` and its codes (a game unregistered, a test's table)."""
    for code in _TABLES.pop(table, ()):
        _CODES.pop(code, None)


def registered() -> dict[str, Code]:
    """Every registered code (a copy), for the tests that walk them."""
    return dict(_CODES)


def words(code: str) -> str:
    """The words of ``code`` in the active language; the code itself if nobody words it."""
    entry = _CODES.get(code)
    return str(entry.words) if entry is not None else code


def status(code: str) -> int:
    """The HTTP status the API (and a page that needs one) answers ``code`` with."""
    entry = _CODES.get(code)
    return entry.status if entry is not None else DEFAULT_STATUS


class Refusal(Exception):
    """A refused request. ``code`` is stable; ``message`` is for people: the words given
    (a str or lazy gettext), else the code's words from its table."""

    def __init__(self, code: str, message: Any = None) -> None:
        self.code = code
        self._message = message
        super().__init__(code if message is None else f"{code}: {message}")

    @property
    def message(self) -> str:
        """In the language active where it is read (a socket's, a page's)."""
        return str(self._message) if self._message is not None else words(self.code)

    @property
    def status(self) -> int:
        return status(self.code)
