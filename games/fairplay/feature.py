"""What fair play plugs into at start-up (``games.apps.GamesConfig.ready`` calls ``register``)."""

from __future__ import annotations

from importlib import import_module


def register() -> None:
    from . import models  # noqa: F401  (its rows: Django registers them here)

    for module in ("codes", "admin"):
        import_module(f"{__package__}.{module}")
