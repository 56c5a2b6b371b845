"""What the arenas plug into at start-up (``games.apps.GamesConfig.ready`` calls ``register``)."""

from __future__ import annotations

from importlib import import_module

from games import hooks


def register() -> None:
    from . import scoring, selectors, services  # import the rows (models.py): Django registers them here

    for module in ("admin", "tasks", "codes"):  # staff pages; the beat's tasks (Celery knows them by import); refusals
        import_module(f"{__package__}.{module}")
    hooks.after_finish(scoring.score_match)  # a finished arena game: its points
    hooks.account_export("tournaments", selectors.account_lines)  # "Download my data"
    hooks.mark_changed(scoring.redraw_for_mark)  # a fair-play mark: the player's arenas' standings
    hooks.account_deleted(services.withdraw_deleted)  # a deleted account: out of the arenas not over
    hooks.player_opened(services.game_opened)  # a player saw their arena game (issue 38)
    from .swiss import services as swiss  # Swiss tournaments (docs/tournaments.md "Swiss")

    for module in ("admin", "tasks", "codes"):
        import_module(f"{__package__}.swiss.{module}")
    hooks.after_finish(swiss.board_result)
    hooks.account_deleted(swiss.withdraw_deleted)
    hooks.account_export("swiss", import_module(f"{__package__}.swiss.selectors").account_lines)  # "Download my data"
