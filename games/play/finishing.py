"""The one door out: every ending of a match goes through ``finish``, which
rates a rated match that was played, once, inside the finishing transaction, then
tells the features that hear a match's end (``hooks.after_finish``: an arena scores it)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from games import hooks
from games.live import transport
from games.models import BLUE, PINK, Match
from ratings.services import ratings_apply_result

from . import botaccounts, core, trust


def finish(
    match: Match,
    *,
    status: str,
    winner: int | None,
    reason: str,
    now: datetime,
    last_move: dict[str, Any] | None = None,
) -> None:
    """End ``match`` (caller holds the lock; the match is active)."""
    assert match.is_active
    match.status = status
    match.winner = winner
    match.end_reason = reason
    match.finished_at = now
    match.turn_deadline = None
    match.to_move = None
    match.draw_offer = None
    match.position_key = ""  # the live-position guard: its position no longer stands
    match.save(
        update_fields=[
            "status",
            "winner",
            "end_reason",
            "finished_at",
            "turn_deadline",
            "to_move",
            "draw_offer",
            "position_key",
        ]
    )
    deltas = rate(match)
    hooks.run_after_finish(match)  # the features' hooks (an arena's game: its points)
    extra: dict[str, Any] = {"rating_deltas": deltas}
    if last_move:
        extra.update(last_move)
    core.broadcast_on_commit(match, "finished", **extra)
    # The players' API event streams (docs/api.md "gameFinish"): the site sockets do not hear it.
    match_id, players = match.pk, [uid for uid in (match.pink_id, match.blue_id) if uid is not None]

    def tell_players() -> None:
        for uid in players:
            transport.send_to_api_user(uid, {"type": "match_finished", "id": match_id})

    transaction.on_commit(tell_players)


def rate(match: Match) -> dict[str, dict[str, Any]] | None:
    """Apply ratings once, inside the finishing transaction, for rated
    matches that were played (a move by each player)."""
    if not match.rated or match.status != Match.Status.FINISHED:
        return None
    if not (core.has_moved(match, PINK) and core.has_moved(match, BLUE)):
        return None
    if not trust.rating_allowed(match):  # a pair's repeated games of the day (rating farming)
        return None
    score_pink = 1.0 if match.winner == PINK else 0.0 if match.winner == BLUE else 0.5
    # A rated match is between two people, and finish() has just set finished_at.
    assert match.pink_id is not None and match.blue_id is not None and match.finished_at is not None
    # A person against a bot gains or loses half (docs/rules.md "Bots"); bot against bot, or two people: all.
    bots = botaccounts.bot_ids([match.pink_id, match.blue_id])
    halved = {
        side
        for side, uid, opp in ((PINK, match.pink_id, match.blue_id), (BLUE, match.blue_id, match.pink_id))
        if uid not in bots and opp in bots
    }
    return ratings_apply_result(
        variant=match.variant,
        match_id=match.pk,
        pink_id=match.pink_id,
        blue_id=match.blue_id,
        score_pink=score_pink,
        now=match.finished_at,
        halved_sides=frozenset(halved),
    )
