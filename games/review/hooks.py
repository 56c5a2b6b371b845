"""What the review gives the core, which imports nothing of it: registered as the app loads
(games/apps.py imports this module).

The account's export ("Download my data", games/display/export.py) lists the analyses the
user asked for. Deleting an account needs nothing of the review: an analysis serves
everyone and keeps the asker's row, which the deletion anonymises (docs/privacy.md).
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.display import export

from .models import Analysis


def analyses_asked(user: User) -> list[dict[str, Any]]:
    return [
        {"match": a.match_id, "status": a.status, "at": a.requested_at.isoformat()}
        for a in Analysis.objects.filter(requested_by=user).order_by("requested_at")
    ]


export.account_part("analyses_asked", analyses_asked)
