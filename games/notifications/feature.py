"""What notifications plug into at start-up (``games.apps.GamesConfig.ready`` calls ``register``;
docs/features.md): the listener of every notice, its refusal codes, its rows and task, its part
of "Download my data", and a deleted account's rows gone."""

from __future__ import annotations

from games import hooks


def register() -> None:
    from . import codes, models, tasks  # noqa: F401  (registered when imported)
    from .selectors import account_part
    from .services import forget_account, notify_many

    hooks.on_notice(notify_many)
    hooks.account_export("notifications", account_part)
    hooks.account_deleted(forget_account)
