"""What fair play plugs into at start-up (``games.apps.GamesConfig.ready`` calls ``register``)."""

from __future__ import annotations

from importlib import import_module

from games import hooks


def register() -> None:
    from . import selectors  # imports the rows (models.py): Django registers them here
    from .checks import fairplay_after_finish

    # refusals; the moderation page; the fairplay queue's task (a worker knows it so)
    for module in ("codes", "admin", "tasks"):
        import_module(f"{__package__}.{module}")
    hooks.account_export("fair_play", selectors.account_part)  # "Download my data"
    hooks.after_finish(fairplay_after_finish)  # engine-use detection after a rated game, off the hot path
