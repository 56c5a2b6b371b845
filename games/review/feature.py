"""What the computer's review plugs into at start-up (``games.apps.GamesConfig.ready`` calls
``register``; docs/features.md). Deleting an account needs nothing of the review: an analysis
serves everyone and keeps the asker's row, which the deletion anonymises (docs/privacy.md)."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games import hooks


def analyses_asked(user: User) -> list[dict[str, Any]]:
    """The review's part of "Download my data": the analyses ``user`` asked for."""
    from .models import Analysis

    return [
        {"match": a.match_id, "status": a.status, "at": a.requested_at.isoformat()}
        for a in Analysis.objects.filter(requested_by=user).order_by("requested_at")
    ]


def register() -> None:
    # its refusal codes (registered when imported), its row (Django registers it here), the analysis worker's tasks
    from . import codes, models, tasks  # noqa: F401

    hooks.account_export("analyses_asked", analyses_asked)
