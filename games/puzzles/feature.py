"""What puzzles plug into at start-up (``games.apps.GamesConfig.ready`` calls ``register``;
docs/features.md): its refusal codes, its rows, its part of "Download my data" (a deleted
account's ratings and tries go with the row: CASCADE)."""

from __future__ import annotations

from games import hooks


def register() -> None:
    from . import codes, models  # noqa: F401  (registered when imported)
    from .selectors import account_part

    hooks.account_export("puzzles", account_part)
