"""What fair play plugs into at start-up (``games.apps.GamesConfig.ready`` calls ``register``)."""

from __future__ import annotations

from importlib import import_module

from games import hooks


def register() -> None:
    from . import selectors  # imports the rows (models.py): Django registers them here

    for module in ("codes", "admin"):  # refusals; the moderation page
        import_module(f"{__package__}.{module}")
    hooks.account_export("fair_play", selectors.account_part)  # "Download my data"
