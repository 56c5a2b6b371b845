"""Takeback (SPEC "Takeback"; docs/protocol.md "Takeback"): by agreement, in casual games and
against the computer only, never in rated or tournament games, TAKEBACKS_PER_PLAYER asks per
player per game.

A takeback undoes the asking player's last move and every move after it (the opponent's reply,
a bounce's extra kicks), so it is their turn again in the position before that move. Against the
computer it is granted at once, once the computer has replied (``takeback_wait`` while it thinks);
between people the opponent is asked (``takeback_offered``) and accepts or refuses, and a move
made meanwhile lets the ask lapse. Every ask counts towards the limit, granted or not.

The Move rows are the truth: the undone rows are deleted, and the match row (ply, history, turn,
clock, scores, position key) is rewritten from the engine state replayed from the rows that stay,
in one transaction under the match's row lock.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.blocks import has_blocked
from games import selectors
from games.engine import other
from games.models import PINK, Match, Move
from kropki_site.lib.refusals import Refusal

from . import core, guard, moves


def match_takeback(*, match_id: int, user_id: int | None, now: datetime | None = None) -> str:
    """A player's "take back": against the computer undone at once ("taken_back"), else the
    opponent is asked ("offered"), or, if the opponent's own ask stands, that is accepted
    ("taken_back"). Raises Refusal: takeback_not_allowed, takeback_limit, takeback_nothing,
    takeback_wait, takeback_already_offered, blocked, rated_game_in_progress, turn_expired (after
    applying the timeout: a turn run out ends by the clock, never restarts), or a match's code."""
    now = now or timezone.now()
    with transaction.atomic():
        match, side = core.lock_active_player(match_id, user_id)
        expired = moves.expire_if_due(match, now)
        if not expired:
            return _ask(match, side, user_id, now)
    raise Refusal("turn_expired")  # after the timeout's commit


def _ask(match: Match, side: int, user_id: int | None, now: datetime) -> str:
    _require_allowed(match)
    if match.takeback_offer == other(side):
        _grant(match, other(side), now)
        return "taken_back"
    if match.takeback_offer == side:
        raise Refusal("takeback_already_offered")
    if match.takebacks_of(side) >= settings.TAKEBACKS_PER_PLAYER:
        raise Refusal("takeback_limit")
    if match.bot_side is not None:
        guard.require_no_rated_match(user_id)  # no probing the computer's replies meanwhile
        if match.to_move != side:
            raise Refusal("takeback_wait")
    _first_undone(match, side)  # takeback_nothing
    opponent = match.user_id_of(other(side))
    if user_id is not None and opponent is not None and has_blocked(opponent, user_id):
        raise Refusal("blocked")
    _count(match, side)
    if match.bot_side is not None:
        _grant(match, side, now)
        return "taken_back"
    match.takeback_offer = side
    match.save(update_fields=["takeback_offer", "pink_takebacks", "blue_takebacks"])
    core.broadcast_on_commit(match, "takeback_offered", by=side)
    return "offered"


def match_answer_takeback(*, match_id: int, user_id: int | None, accept: bool, now: datetime | None = None) -> Match:
    """The opponent's answer to a standing ask: accepted, the moves are undone ("taken_back"),
    refused, the ask goes ("takeback_declined"). Raises Refusal ``no_takeback_offer``, or
    ``turn_expired`` (after applying the timeout) once the turn has run out."""
    now = now or timezone.now()
    with transaction.atomic():
        match, side = core.lock_active_player(match_id, user_id)
        expired = moves.expire_if_due(match, now)
        if not expired:
            if match.takeback_offer != other(side):
                raise Refusal("no_takeback_offer")
            if accept:
                _grant(match, other(side), now)
            else:
                match.takeback_offer = None
                match.save(update_fields=["takeback_offer"])
                core.broadcast_on_commit(match, "takeback_declined", by=side)
            return match
    raise Refusal("turn_expired")  # after the timeout's commit


def _require_allowed(match: Match) -> None:
    if match.rated or match.tournament_id is not None:
        raise Refusal("takeback_not_allowed")


def _count(match: Match, side: int) -> None:
    if side == PINK:
        match.pink_takebacks += 1
    else:
        match.blue_takebacks += 1


def _first_undone(match: Match, side: int) -> int:
    """The ply of ``side``'s last move (it and all after it are undone); takeback_nothing when
    ``side`` has made none, or a move of the clock's would be undone."""
    last = (
        Move.objects.filter(match=match, player=side, by_timeout=False).order_by("-ply").values_list("ply", flat=True)
    ).first()
    if last is None or Move.objects.filter(match=match, ply__gte=last, by_timeout=True).exists():
        raise Refusal("takeback_nothing")
    return last


def _grant(match: Match, side: int, now: datetime) -> None:
    """Undo ``side``'s last move and all after it; the caller holds the lock."""
    first = _first_undone(match, side)
    undone = match.ply - first + 1
    Move.objects.filter(match=match, ply__gte=first).delete()
    history = list(Move.objects.filter(match=match).order_by("ply").values_list("action", flat=True))
    state = match.game().state_from_history(history)  # rebuilt from the rows
    match.ply = len(history)
    match.history = list(state.history)
    match.last_move_at = now
    match.draw_offer = None
    match.takeback_offer = None
    match.takebacks_done += 1
    core.set_turn(match, state, now)
    match.position_key = guard.match_key(match, state)  # "" here: never rated
    selectors.remember_state(match, state)
    match.save(
        update_fields=[
            "ply",
            "history",
            "last_move_at",
            "draw_offer",
            "takeback_offer",
            "pink_takebacks",
            "blue_takebacks",
            "takebacks_done",
            "to_move",
            "pink_score",
            "blue_score",
            "turn_deadline",
            "position_key",
        ]
    )
    core.broadcast_on_commit(match, "taken_back", by=side, undone=undone)
    core.queue_computer_turn(match)
