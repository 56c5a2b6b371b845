"""The live-position guard (docs/fairplay.md, "The live-position guard"): while a position
stands in an active rated match, the site's computer neither moves nor evaluates in it, for
anyone (computer matches, the review), and a player with an active rated match cannot start
a computer match or ask for a review.

A position is keyed by ``position_key``: a 16-byte BLAKE2b digest (32 hex characters) of the
game, its rules' parameters and the engine's canonical position (``State.canonical()``: the board,
who is to move, what counts so far, folded over symmetries where the game does; never the
move list, so a transposition, or the same position set up in the analysis board's editor, has
the same key). Positions of the game's exempt opening (``GameSpec.opening_plies``: positions
many unrelated games pass through; a set-up's pieces count as its plies) have the key "".

An active rated match keeps the key of the position standing now in ``Match.position_key``:
set at its creation and by every move inside the move's transaction (``match_key``), cleared
when it ends (games/play/finishing.py). The guard's question is then one query on the
(position_key, status) index (``standing``). ``FAIR_PLAY_GUARD`` off (bench/guard.py's
baseline) answers every question with "free" and keeps no keys.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from hashlib import blake2b
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Q

from games import catalogue
from games.engine import EngineError, State
from games.models import Match
from kropki_site.lib.refusals import Refusal


def enabled() -> bool:
    return bool(settings.FAIR_PLAY_GUARD)


def _game_prefix(state: State) -> bytes:
    """The game and its rules' parameters: the same board in another game or size is another
    position. Not the variant: two variants of the same game and size (a quick clock) share
    positions. Not what places pieces (a set-up, Kropki's start: ``Game.position_params``):
    the canonical position says those, so an edited position is the live one it equals."""
    params = json.dumps(state.game.rules_params(), sort_keys=True, separators=(",", ":"))
    return f"{state.game.slug}:{params}:".encode()


def opening_plies(variant: str) -> int:
    """How many plies of ``variant``'s game are its exempt opening."""
    return catalogue.variant(variant).game_spec.opening_plies


def position_key(variant: str, state: State) -> str:
    """The key of ``state`` (a position of ``variant``'s game): "" in the exempt opening and
    for a finished game, else 32 hex characters, equal for the same position however reached."""
    if state.plies() <= opening_plies(variant) or state.is_terminal():
        return ""
    return blake2b(_game_prefix(state) + state.canonical(), digest_size=16).hexdigest()


def history_keys(variant: str, history: list[int], params: dict[str, Any] | None = None) -> list[str]:
    """The key of every position of a game (after 0, 1, ... moves; ``params``: its own options,
    Match.params), by one replay; a broken history's keys stop at its first bad move (what
    follows is no position)."""
    game = catalogue.variant(variant).game(params)
    state = game.new_initial_state()
    keys = [position_key(variant, state)]
    for action in history:
        try:
            state.apply_action(action)
        except EngineError:
            break
        keys.append(position_key(variant, state))
    return keys


def match_key(match: Match, state: State) -> str:
    """What ``match.position_key`` holds with ``state`` standing: its key while the match is
    active and rated, else ""."""
    if not match.rated or not match.is_active or not enabled():
        return ""
    return position_key(match.variant, state)


def standing_keys(keys: Iterable[str], *, exclude_match_id: int | None = None) -> set[str]:
    """Which of ``keys`` stand now in an active rated match (other than ``exclude_match_id``):
    one query on the guard's index."""
    wanted = {key for key in keys if key}
    if not wanted or not enabled():
        return set()
    found = Match.objects.filter(position_key__in=wanted, status=Match.Status.ACTIVE)
    if exclude_match_id is not None:
        found = found.exclude(pk=exclude_match_id)
    return set(found.values_list("position_key", flat=True))


def standing(variant: str, state: State, *, exclude_match_id: int | None = None) -> bool:
    """Whether ``state`` stands now in an active rated match other than ``exclude_match_id``:
    then the site's computer must not move or evaluate in it. False in the exempt opening
    (no query at all)."""
    if not enabled():
        return False
    key = position_key(variant, state)
    if not key:
        return False
    # One indexed lookup, written out: the ORM's query building was most of its cost (bench/guard.py).
    with connection.cursor() as cursor:
        cursor.execute(_standing_sql(), [key, Match.Status.ACTIVE.value, exclude_match_id or 0])
        return cursor.fetchone() is not None


@cache
def _standing_sql() -> str:
    meta, quote = Match._meta, connection.ops.quote_name
    key, status, pk = (
        quote(str(field.column)) for field in (Match.position_key.field, Match.status.field, meta.pk) if field
    )
    return f"SELECT 1 FROM {quote(meta.db_table)} WHERE {key} = %s AND {status} = %s AND {pk} <> %s LIMIT 1"


def standing_plies(
    variant: str, history: list[int], *, exclude_match_id: int | None = None, params: dict[str, Any] | None = None
) -> set[int]:
    """The plies of a game (``history``) whose position stands now in an active rated match
    (0: the start, ``len(history)``: the last position); one replay and one query."""
    if not enabled():
        return set()
    keys = history_keys(variant, history, params)
    live = standing_keys(keys, exclude_match_id=exclude_match_id)
    return {ply for ply, key in enumerate(keys) if key and key in live}


def has_active_rated_match(user_id: int | None) -> bool:
    """Whether ``user_id`` plays in an active rated match now (ranked, a rated challenge, an arena)."""
    if user_id is None or not enabled():
        return False
    return Match.objects.filter(
        Q(pink_id=user_id) | Q(blue_id=user_id), status=Match.Status.ACTIVE, rated=True
    ).exists()


def require_no_rated_match(user_id: int | None) -> None:
    """Raise Refusal ``rated_game_in_progress`` if ``user_id`` has an active rated match: while
    it lasts they start no computer match and ask for no review."""
    if has_active_rated_match(user_id):
        raise Refusal("rated_game_in_progress")
