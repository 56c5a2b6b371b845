"""Fixtures of the bot tests (no database, no Django)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    """``../shared/vectors`` next to the repository, or ``$SHARED_VECTORS_DIR``."""
    override = os.environ.get("SHARED_VECTORS_DIR")
    path = Path(override) if override else Path(__file__).resolve().parents[4] / "shared" / "vectors"
    assert path.is_dir(), f"reference vectors not found at {path} (set SHARED_VECTORS_DIR)"
    return path
