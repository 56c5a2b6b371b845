"""The drain mark of a planned restart (docs/deploy.md, "Planned restart").

``manage.py drain`` records when the drain started in ``VAR_DIR/drain.json``
(a file, not Redis: it must survive a Redis restart; not the database: no
migration for one timestamp). While the mark exists the ranked queue pairs
nobody (seeks wait for the new version). ``manage.py extend_deadlines`` reads
it after the restart, gives every live turn the downtime back and clears it.
Run both commands on the machine (VAR_DIR) that runs the deploy.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.utils import timezone


def _path() -> Path:
    return Path(settings.VAR_DIR) / "drain.json"


def drain_started() -> datetime | None:
    """When the current drain started, or None when the site is not draining."""
    try:
        data = json.loads(_path().read_text())
        return datetime.fromisoformat(data["started_at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def drain_begin(now: datetime | None = None) -> datetime:
    """Mark the drain's start (an existing mark is kept: the earliest start counts)."""
    existing = drain_started()
    if existing is not None:
        return existing
    now = now or timezone.now()
    path = _path()
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"started_at": now.isoformat()}))
    os.replace(tmp, path)
    return now


def drain_end() -> None:
    _path().unlink(missing_ok=True)
