"""What fair play plugs into at start-up (``games.apps.GamesConfig.ready`` calls ``register``)."""

from __future__ import annotations

from importlib import import_module


def register() -> None:
    from . import models  # noqa: F401  (its rows: Django registers them here)

    for module in ("codes", "tasks", "admin"):  # refusal codes; the fairplay queue's task; staff pages
        import_module(f"{__package__}.{module}")
    from games import hooks

    from .services import fairplay_after_finish

    hooks.after_finish(fairplay_after_finish)  # detection after a rated game, off the hot path
