"""Games against the computer: starting one, and the computer's turn (think
outside any lock, then play through the move service)."""

from __future__ import annotations

import logging
import random

from django.conf import settings
from django.db.models import Q

from games import catalogue, selectors
from games.engine import other
from games.errors import MatchError
from games.models import Match
from kropki_site import limits

from .creating import match_create
from .moves import match_bot_play

log = logging.getLogger(__name__)

# Fairness (docs/bots.md, "Limits"): at most one computer move is being thought
# about per human player at a time, across every worker process. A task that
# finds its player's lock taken is sent again BUSY_RETRY_SECONDS later instead
# of taking a second pool process, so one player's backlog holds at most one of
# the pool's processes and everyone else's moves go through the others.
THINKING = "bot-thinking"
LOCK_SECONDS = 30  # > the longest budget (1.8 s) with a wide margin; a killed worker's lock expires
BUSY_RETRY_SECONDS = 0.25


def computer_match_start(
    *, user_id: int, variant: str, level: str, colour: str, address: str = "",
    address_guest_ids: set[int] | frozenset[int] = frozenset(),
) -> Match:
    """A match of ``user_id`` against the computer at ``level``; ``colour`` is
    the human's: "pink" (moves first), "blue" or "random".

    Limits (docs/bots.md, "Limits"), each refusing the NEW match with a
    MatchError and never ending anyone else's: ``starting_too_often`` past
    MATCH_STARTS_PER_MINUTE for this player or MATCH_STARTS_PER_ADDRESS_MINUTE
    for ``address``; ``computer_address_busy`` when the other guests made from
    ``address`` (``address_guest_ids``) already hold COMPUTER_MATCHES_PER_GUEST_IP
    unfinished computer matches. The player's own cap (COMPUTER_MATCHES_PER_USER)
    abandons their own oldest in ``match_create``."""
    computer_start_allowed(user_id=user_id, address=address, address_guest_ids=address_guest_ids)
    if colour == "random":
        colour = random.choice(["pink", "blue"])
    pink, blue = (user_id, None) if colour == "pink" else (None, user_id)
    return match_create(variant=variant, pink_id=pink, blue_id=blue, bot_level=level)


def match_start_counted(*, user_id: int, address: str = "") -> None:
    """Count one new match started by ``user_id`` from ``address`` (the computer
    form, a rematch with the computer); ``starting_too_often`` past the rate."""
    window = 60
    if not limits.hit("match-start", str(user_id), limit=settings.MATCH_STARTS_PER_MINUTE, window=window):
        raise MatchError("starting_too_often")
    if address and not limits.hit(
        "match-start-ip", address, limit=settings.MATCH_STARTS_PER_ADDRESS_MINUTE, window=window
    ):
        raise MatchError("starting_too_often")


def computer_start_allowed(*, user_id: int, address: str, address_guest_ids: set[int] | frozenset[int]) -> None:
    """Raise MatchError if ``user_id`` may not start a computer match now (see computer_match_start)."""
    others = set(address_guest_ids) - {user_id}
    if others:
        held = (
            Match.objects.filter(Q(pink_id__in=others) | Q(blue_id__in=others), status=Match.Status.ACTIVE)
            .exclude(bot_level="")
            .count()
        )
        own = (
            Match.objects.filter(Q(pink_id=user_id) | Q(blue_id=user_id), status=Match.Status.ACTIVE)
            .exclude(bot_level="")
            .count()
        )
        if held + min(own + 1, settings.COMPUTER_MATCHES_PER_USER) > settings.COMPUTER_MATCHES_PER_GUEST_IP:
            raise MatchError("computer_address_busy")
    match_start_counted(user_id=user_id, address=address)


class PlayerBusy(Exception):
    """Another computer move for the same human player is being computed now."""


def match_bot_turn(*, match_id: int, ply: int) -> bool:
    """Compute and play the computer's move for position ``ply``; a no-op if
    the match moved on or is over (a duplicate or late task). True if it played.
    Raises PlayerBusy when a move for the same human is being computed (the
    task sends itself again a little later)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.is_active or match.ply != ply or match.bot_side is None:
        return False
    if match.to_move != match.bot_side:
        return False
    human = match.user_id_of(other(match.bot_side))
    who = str(human)  # the lock's key holds it as text
    token = limits.lock_acquire(THINKING, who, ttl=LOCK_SECONDS)
    if token is None:
        raise PlayerBusy(human)
    try:
        return _think_and_play(match, ply)
    finally:
        limits.lock_release(THINKING, who, token)


def _think_and_play(match: Match, ply: int) -> bool:
    match_id = match.pk
    state = selectors.match_state(match)
    action = int(catalogue.variant(match.variant).game_spec.bot.choose(state, match.bot_level, random.Random()))
    try:
        match_bot_play(match_id=match_id, ply=ply, action=action)
    except MatchError as exc:  # the position changed while thinking: the next task handles it
        log.info("bot move for match %s at ply %s refused: %s", match_id, ply, exc.code)
        return False
    return True
