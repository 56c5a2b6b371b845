"""Resigning, draws and rematches: the offers players make each other.

Offers are bounded (issue 24 item 7): a player offers a draw at most once per
DRAW_OFFER_PLIES plies (``draw_offer_too_soon``), and a rematch once a match
(``rematch_already_offered``); the last offers are remembered in Redis
(``kropki_site/lib/limits.py``). A block stops offers: no draw offer to a player
who blocked you, no rematch between two players either of whom blocked the other.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.blocks import blocked_either_way, has_blocked
from games.engine import other
from games.models import Match
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

from . import core, finishing, trust
from .computer import computer_start_allowed
from .creating import match_create


def match_resign(*, match_id: int, user_id: int | None, now: datetime | None = None) -> Match:
    with transaction.atomic():
        match = core.lock(match_id)
        side = core.side_of_user(match, user_id)
        core.require_active(match)
        finishing.finish(
            match,
            status=Match.Status.FINISHED,
            winner=other(side),
            reason=Match.EndReason.RESIGN,
            now=now or timezone.now(),
        )
        return match


def match_draw(*, match_id: int, user_id: int | None, now: datetime | None = None) -> str:
    """A player's "draw": accept the opponent's standing offer, else offer one, decided
    under the match's row lock (two players offering at once agree, never refuse each
    other). Returns "accepted" or "offered"; raises what the offer or the answer raises."""
    with transaction.atomic():
        match = core.lock(match_id)
        side = core.side_of_user(match, user_id)
        if match.is_active and match.draw_offer == other(side):
            match_answer_draw(match_id=match_id, user_id=user_id, accept=True, now=now)
            return "accepted"
        match_offer_draw(match_id=match_id, user_id=user_id)
        return "offered"


def match_offer_draw(*, match_id: int, user_id: int | None) -> Match:
    with transaction.atomic():
        match = core.lock(match_id)
        side = core.side_of_user(match, user_id)
        core.require_active(match)
        if match.bot_side is not None:
            raise Refusal("draw_unavailable")
        if match.draw_offer is not None:
            raise Refusal("draw_already_offered")
        opponent = match.user_id_of(other(side))
        if user_id is not None and opponent is not None and has_blocked(opponent, user_id):
            raise Refusal("blocked")
        last = limits.last_value("draw-offer", f"{match.pk}:{side}")
        if last is not None and last.isdigit() and match.ply - int(last) < settings.DRAW_OFFER_PLIES:
            raise Refusal("draw_offer_too_soon")
        limits.remember_value("draw-offer", f"{match.pk}:{side}", match.ply, ttl=7 * 86400)
        match.draw_offer = side
        match.save(update_fields=["draw_offer"])
        core.broadcast_on_commit(match, "draw_offered", by=side)
        return match


def match_answer_draw(*, match_id: int, user_id: int | None, accept: bool, now: datetime | None = None) -> Match:
    with transaction.atomic():
        match = core.lock(match_id)
        side = core.side_of_user(match, user_id)
        core.require_active(match)
        if match.draw_offer != other(side):
            raise Refusal("no_draw_offer")
        if accept:
            finishing.finish(
                match,
                status=Match.Status.FINISHED,
                winner=None,
                reason=Match.EndReason.AGREEMENT,
                now=now or timezone.now(),
            )
        else:
            match.draw_offer = None
            match.save(update_fields=["draw_offer"])
            core.broadcast_on_commit(match, "draw_declined", by=side)
        return match


def match_offer_rematch(*, match_id: int, user_id: int | None) -> Match:
    """Offer (or, if the other already offered, accept) a rematch with colours swapped."""
    with transaction.atomic():
        match = core.lock(match_id)
        side = core.side_of_user(match, user_id)
        # An arena's game has no rematch: the arena pairs the players again (docs/tournaments.md).
        if match.is_active or match.rematch_id is not None or match.tournament_id is not None:
            raise Refusal("rematch_unavailable")
        if match.pink_id is not None and match.blue_id is not None and blocked_either_way(match.pink_id, match.blue_id):
            raise Refusal("blocked")
        if match.rated and match.pink_id is not None and match.blue_id is not None:
            # a rated rematch is rated play: neither may carry a fair-play mark (docs/fairplay.md)
            trust.require_unmarked(match.user_id_of(side) or 0, match.user_id_of(other(side)) or 0)
        if match.bot_side is not None:  # starts at once: the computer form's limits (issue 24, items 2, 16)
            computer_start_allowed(user_id=match.user_id_of(side) or 0, address="", address_guest_ids=frozenset())
            return _start_rematch(match)
        if match.rematch_offer == other(side):
            return _start_rematch(match)
        if match.rematch_offer == side:
            return match
        if not limits.hit("rematch-offer", f"{match.pk}:{side}", limit=1, window=7 * 86400):
            raise Refusal("rematch_already_offered")
        match.rematch_offer = side
        match.save(update_fields=["rematch_offer"])
        core.broadcast_on_commit(match, "rematch_offered", by=side)
        return match


def match_decline_rematch(*, match_id: int, user_id: int | None) -> Match:
    with transaction.atomic():
        match = core.lock(match_id)
        side = core.side_of_user(match, user_id)
        if match.rematch_offer != other(side):
            raise Refusal("no_rematch_offer")
        match.rematch_offer = None
        match.save(update_fields=["rematch_offer"])
        core.broadcast_on_commit(match, "rematch_declined", by=side)
        return match


def _start_rematch(match: Match) -> Match:
    new = match_create(
        variant=match.variant,
        params=match.params,
        days=match.days,
        pink_id=match.blue_id,
        blue_id=match.pink_id,
        rated=match.rated,
        bot_level=match.bot_level,
    )
    match.rematch = new
    match.rematch_offer = None
    match.save(update_fields=["rematch", "rematch_offer"])
    core.broadcast_on_commit(match, "rematch", match_url=reverse("match", args=[new.pk]), new_match_id=new.pk)
    return match
