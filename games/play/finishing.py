"""The one door out: every ending of a match goes through ``finish``, which decides
whether the game counts (``Match.counts``: each player made MOVES_TO_COUNT moves of their
own), rates a rated match that counts, once, inside the finishing transaction, then
tells the features that hear a match's end (``hooks.after_finish``: an arena scores it)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count

from games import hooks
from games.live import transport
from games.models import BLUE, PINK, Match, Move
from ratings.services import ratings_apply_result

from . import botaccounts, core, trust

# A game counts (rating, arena points and streak, the new-account gate, statistics) only
# when each player made this many moves of their own (moves made for them on time do not
# count): lichess aborts a game before two moves each. SPEC "Games that count".
MOVES_TO_COUNT = 2


def played_enough(match: Match) -> bool:
    """Whether each player of ``match`` made MOVES_TO_COUNT moves of their own (one query)."""
    own = dict(
        Move.objects.filter(match=match, by_timeout=False)
        .order_by()
        .values("player")
        .annotate(n=Count("id"))
        .values_list("player", "n")
    )
    return all(own.get(side, 0) >= MOVES_TO_COUNT for side in (PINK, BLUE))


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
    match.counts = status == Match.Status.FINISHED and played_enough(match)
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
            "counts",
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
    matches that count (MOVES_TO_COUNT moves by each player)."""
    if not match.rated or match.status != Match.Status.FINISHED or not match.counts:
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
        variant=match.pool,  # a correspondence game: the variant's correspondence pool
        match_id=match.pk,
        pink_id=match.pink_id,
        blue_id=match.blue_id,
        score_pink=score_pink,
        now=match.finished_at,
        halved_sides=frozenset(halved),
    )
