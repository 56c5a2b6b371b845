"""The engine state of a match: a replay of its history, with a per-process cache that is
only ever a shortcut for the replay (no query: the match row is the caller's)."""

from __future__ import annotations

import contextlib
import json

from games.engine import State
from games.models import Match

# Keyed by (id, variant, the match's own parameters) and checked against the full
# history: a cached state is only ever a shortcut for the replay, never trusted on
# its own (ids can be reused after a rollback or a restore).
_STATE_CACHE: dict[tuple[int, str, str], State] = {}
_STATE_CACHE_MAX = 512


def match_state(match: Match) -> State:
    """The engine state of ``match`` (a private copy: callers may mutate it).

    Replays ``match.history``; a per-process cache skips the replay when it
    already holds that exact history (never trusted otherwise).
    """
    cached = _STATE_CACHE.get(_key(match)) if match.pk else None
    if cached is not None and cached.history == match.history:
        return cached.clone()
    state = match.game().state_from_history(match.history)
    if match.pk:
        remember_state(match, state)
    return state


def remember_state(match: Match, state: State) -> None:
    """Keep a copy of ``state`` as the state of ``match`` (after a committed move)."""
    if len(_STATE_CACHE) >= _STATE_CACHE_MAX:
        with contextlib.suppress(
            StopIteration, RuntimeError
        ):  # consumers call services from a thread pool: another thread may evict first
            _STATE_CACHE.pop(next(iter(_STATE_CACHE)), None)
    _STATE_CACHE[_key(match)] = state.clone()


def _key(match: Match) -> tuple[int, str, str]:
    return match.pk, match.variant, json.dumps(match.params, sort_keys=True) if match.params else ""
