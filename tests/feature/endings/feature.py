"""The feature's wiring: what a real feature's ``register`` does at start-up (games.apps)."""

from __future__ import annotations

from typing import Any

from django.db import connection

from games import hooks

# What the hook heard: (match id, status, winner, inside a transaction?), in order.
heard: list[tuple[int, str, int | None, bool]] = []


def on_finish(match: Any) -> None:
    heard.append((match.pk, match.status, match.winner, connection.in_atomic_block))


def export_part(user: Any) -> dict[str, Any]:
    return {"ends_heard": len(heard)}


def register() -> None:
    hooks.after_finish(on_finish)
    hooks.account_export("endings", export_part)


def unregister() -> None:
    hooks.forget(on_finish)
    hooks.forget(export_part)
    heard.clear()
