"""Matches built through the services themselves (never hand-made rows)."""

from __future__ import annotations

import pytest

from games import play as services


@pytest.fixture
def make_match(alice, bob):
    def make(variant: str = "cztery-w-rzedzie", *, pink=None, blue=None, rated: bool = False, **kwargs):
        return services.match_create(
            variant=variant, pink_id=(pink or alice).pk, blue_id=(blue or bob).pk, rated=rated, **kwargs
        )

    return make


def play(match, user, action, *, ply=None, **kwargs):
    """Play ``action`` for ``user`` at the match's current ply (re-read from the database)."""
    match.refresh_from_db()
    return services.match_play(
        match_id=match.pk, user_id=user.pk, ply=match.ply if ply is None else ply, action=action, **kwargs
    )
