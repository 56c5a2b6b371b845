"""What the whole-site tests do in a live site's database: set-ups (players, their session
cookies, matches, tournaments) and read-backs (a match's rows, counts), as plain Django functions.

A live site's processes have a database of their own, so the tests cannot use the ORM in their
own process; they run one of these functions in a subprocess with the site's environment::

    python -m tests.sitecalls NAME '{"keyword": "arguments as JSON"}'

which sets Django up with the environment's settings (``DJANGO_SETTINGS_MODULE``, by default
``kropki_site.settings``; the site's ``DATABASE_URL``, ``REDIS_URL``…), calls ``NAME`` with those
keyword arguments and prints what it returns (a JSON-able dict) on one line: ``JSON:`` and the
JSON. ``LiveSite.call(NAME, **kwargs)`` in tests/live.py runs it and returns the dict.

The functions, one family a module (each module's ``__all__`` is what may be called):

- ``players``: accounts and their session cookies, matches between them, a match's rows;
- ``clock``: the clock's task sent by hand, a turn's end tried again;
- ``pages``: what the browser tests' pages need (tests/browser);
- ``tournaments``: arenas and what became of them;
- ``screenshots``: the site tests/screenshots.py takes pictures of;
- ``puzzles``: puzzles cut from given positions, and their solvers.

This module imports no Django (the runner sets Django up first); the families do.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

PASSWORD = "kropka-Trudna-2024"  # every account the calls make, unless told otherwise
FAMILIES = ("players", "clock", "pages", "tournaments", "screenshots", "swiss", "puzzles")


def names() -> dict[str, Callable[..., dict[str, Any]]]:
    """Every callable function by name (imports the families: Django must be set up)."""
    found: dict[str, Callable[..., dict[str, Any]]] = {}
    for family in FAMILIES:
        module = importlib.import_module(f"{__name__}.{family}")
        for name in module.__all__:
            if name in found:
                raise RuntimeError(f"two site calls named {name!r}")
            found[name] = getattr(module, name)
    return found


def function(name: str) -> Callable[..., dict[str, Any]]:
    calls = names()
    if name not in calls:
        raise LookupError(f"no site call {name!r}; there are: {', '.join(sorted(calls))}")
    return calls[name]
