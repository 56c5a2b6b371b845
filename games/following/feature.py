"""What following plugs into at start-up (``games.apps.GamesConfig.ready`` calls ``register``;
docs/features.md): its refusal codes, its row, its part of "Download my data", and a deleted
account's follows gone both ways."""

from __future__ import annotations

from games import hooks


def register() -> None:
    from . import codes, models  # noqa: F401  (registered when imported)
    from .selectors import account_part
    from .services import forget_account, tell_followers

    hooks.account_export("following", account_part)
    hooks.account_deleted(forget_account)
    hooks.matches_started(tell_followers)
