"""Playing a move, the human's or the computer's, and what running out of time does.

One refusal changes state on purpose: a move that arrives after deadline +
grace applies the timeout first (lila's "Flagged"), commits it, and then
raises ``turn_expired``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import selectors
from games.engine import EngineError, State, other
from games.models import Match, Move
from kropki_site.lib.refusals import Refusal

from . import core, finishing, guard

_END = object()  # match_end's action: the game's end action, read under the lock


@dataclass
class PlayResult:
    match: Match
    duplicate: bool = False  # the same move was already applied (a resend)


def match_play(*, match_id: int, user_id: int | None, ply: Any, action: Any, now: datetime | None = None) -> PlayResult:
    """Play ``action`` for ``user_id`` as the answer to position ``ply``.

    Raises Refusal: not_found, login_required, not_a_player,
    match_not_active, stale_ply, turn_expired (after applying the timeout),
    not_your_turn, player_has_ended, or the engine's code. A resend of the move
    that made the current position returns ``duplicate=True`` and changes nothing.
    """
    return _play(match_id=match_id, side_for=lambda m: core.side_of_user(m, user_id), ply=ply, action=action, now=now)


def match_end(*, match_id: int, user_id: int | None, ply: Any, now: datetime | None = None) -> PlayResult:
    """Kropki's "zakończ": the game's end action for ``user_id`` at position ``ply``, looked
    up from the locked match (the socket's ``end`` and the API's ``/end`` both call this).
    Raises what ``match_play`` raises, and unknown_action in a game without an end."""
    return _play(match_id=match_id, side_for=lambda m: core.side_of_user(m, user_id), ply=ply, action=_END, now=now)


def match_bot_play(*, match_id: int, ply: int, action: int, now: datetime | None = None) -> PlayResult:
    """The computer's move (computed outside the lock by the bot task)."""

    def bot_side(match: Match) -> int:
        side = match.bot_side
        if side is None:
            raise Refusal("not_a_player")
        return side

    return _play(match_id=match_id, side_for=bot_side, ply=ply, action=action, now=now)


def _play(
    *, match_id: int, side_for: Callable[[Match], int], ply: Any, action: Any, now: datetime | None
) -> PlayResult:
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise Refusal("bad_frame")
    expired = False
    with transaction.atomic():
        match = core.lock(match_id)
        side = side_for(match)
        if action is _END:
            action = match.game().end_action
            if action is None:
                raise Refusal("unknown_action")
        now = now or timezone.now()
        if expire_if_due(match, now):
            expired = True
        else:
            core.require_active(match)
            if ply != match.ply:
                if ply == match.ply - 1 and match.history:
                    last = Move.objects.filter(match=match, ply=match.ply).first()
                    if last is not None and last.player == side and last.action == action:
                        return PlayResult(match=match, duplicate=True)
                raise Refusal("stale_ply")
            state = selectors.match_state(match)
            reason = state.illegal_reason(action)
            if reason is None and state.current_player() != side:
                reason = state.turn_refusal(side)
            if reason is not None:
                raise Refusal(reason)
            _apply_move(match, state, side, action, now)
            return PlayResult(match=match)
    if expired:
        raise Refusal("turn_expired")
    raise AssertionError("unreachable")


def _apply_move(match: Match, state: State, side: int, action: int, now: datetime, *, by_timeout: bool = False) -> None:
    """Apply a legal action for ``side`` (the player to move), store it, and end the match if the rules say so."""
    try:
        effect = state.apply_action_for_viewers(action)
    except EngineError as exc:  # guarded by the caller; never store an illegal move
        raise Refusal(exc.code) from exc
    match.ply += 1
    Move.objects.create(match=match, ply=match.ply, player=side, action=action, by_timeout=by_timeout)
    match.history = list(state.history)
    match.last_move_at = now
    match.draw_offer = None
    match.takeback_offer = None  # a move lets a takeback ask lapse (games/play/takeback.py)
    core.set_turn(match, state, now)
    selectors.remember_state(match, state)
    outcome = state.outcome()
    fields = [
        "ply",
        "history",
        "last_move_at",
        "draw_offer",
        "takeback_offer",
        "to_move",
        "pink_score",
        "blue_score",
        "turn_deadline",
    ]
    if match.rated:  # the live-position guard's key of the position standing now ("" once over)
        match.position_key = guard.match_key(match, state) if outcome is None else ""
        fields.append("position_key")
    if outcome is not None:
        match.save(update_fields=fields)
        finishing.finish(
            match,
            status=Match.Status.FINISHED,
            winner=outcome.winner,
            reason=outcome.reason,
            now=now,
            last_move={
                "action": action,
                "by": side,
                "notation": effect.notation,
                "details": effect.details,
                "by_timeout": by_timeout,
            },
        )
        return
    match.save(update_fields=fields)
    # After commit: the frame (queued on daphne's loop); the clock needs nothing (beat's sweep
    # reads turn_deadline), a computer's turn a task published off this thread.
    core.broadcast_on_commit(
        match,
        "moved",
        action=action,
        by=side,
        notation=effect.notation,
        details=effect.details,
        by_timeout=by_timeout,
    )
    core.queue_computer_turn(match)


def match_expire_turn(*, match_id: int, ply: int | None = None, now: datetime | None = None) -> bool:
    """Apply the timeout if ``match`` is still active at ``ply`` (any ply when None)
    and its deadline plus grace has passed. Idempotent: True only if it acted."""
    with transaction.atomic():
        try:
            match = core.lock(match_id)
        except Refusal:
            return False
        now = now or timezone.now()
        if not match.is_active or (ply is not None and match.ply != ply) or not core.turn_expired(match, now):
            return False
        _apply_timeout(match, now)
        return True


def expire_if_due(match: Match, now: datetime) -> bool:
    """Apply the timeout if ``match`` (locked by the caller) is active and its turn has run
    out (deadline plus grace): True if it did. The callers then commit and raise
    ``turn_expired``: the clock ends the turn before a late move or takeback is looked at."""
    if not (match.is_active and core.turn_expired(match, now)):
        return False
    _apply_timeout(match, now)
    return True


def _apply_timeout(match: Match, now: datetime) -> None:
    """The player to move ran out of time (caller holds the lock and checked)."""
    side = match.to_move
    assert side is not None
    if not core.has_moved(match, side):
        # Their first move never came: no result, no rating (docs/rules.md, "The clock").
        finishing.finish(match, status=Match.Status.ABORTED, winner=None, reason=Match.EndReason.ABORTED, now=now)
        return
    state = selectors.match_state(match)
    end_action = state.game.end_action
    if end_action is not None:
        # Kropki: running out of time counts as ending the game; the other may play on.
        _apply_move(match, state, side, end_action, now, by_timeout=True)
        return
    finishing.finish(match, status=Match.Status.FINISHED, winner=other(side), reason=Match.EndReason.TIMEOUT, now=now)
