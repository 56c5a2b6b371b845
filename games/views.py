"""The home page and the rules pages live in games/rules_views.py, the lobby in
games/lobby_views.py (re-exported here for old references)."""

from __future__ import annotations

from games.lobby_views import lobby  # noqa: F401
