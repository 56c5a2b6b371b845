"""Games against the computer: starting one, and the computer's turn (think
outside any lock, then play through the move service)."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from datetime import timedelta

import redis
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import bots, catalogue, selectors
from games.live import transport
from games.models import Match
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

from . import botaccounts, botqueue, core, finishing, guard
from .creating import match_create
from .moves import match_bot_play

log = logging.getLogger(__name__)


def computer_match_start(
    *,
    user_id: int,
    variant: str,
    level: str,
    colour: str,
    address: str = "",
    address_guest_ids: set[int] | frozenset[int] = frozenset(),
    options: Mapping[str, str] | None = None,
) -> Match:
    """A match of ``user_id`` against the computer at ``level``; ``colour`` is
    the human's: "pink" (moves first), "blue" or "random"; ``options``: the game's own
    settings (form fields "<game>-<option>", ``catalogue.game_params``).

    Limits (docs/bots.md, "Limits"), each refusing the NEW match with a
    Refusal and never ending anyone else's: ``starting_too_often`` past
    MATCH_STARTS_PER_MINUTE for this player or MATCH_STARTS_PER_ADDRESS_MINUTE
    for ``address``; ``computer_address_busy`` when the other guests made from
    ``address`` (``address_guest_ids``) already hold COMPUTER_MATCHES_PER_GUEST_IP
    unfinished computer matches. The player's own cap (COMPUTER_MATCHES_PER_USER)
    abandons their own oldest in ``match_create``."""
    botaccounts.require_not_bot(user_id)  # a bot plays people and bots, by challenge
    if variant not in catalogue.variant_keys():
        raise Refusal("unknown_variant")
    params = catalogue.game_params(variant, options or {})
    computer_start_allowed(user_id=user_id, address=address, address_guest_ids=address_guest_ids)
    botqueue.remember_address(user_id, address)
    if colour == "random":
        colour = random.choice(["pink", "blue"])
    pink, blue = (user_id, None) if colour == "pink" else (None, user_id)
    return match_create(variant=variant, params=params, pink_id=pink, blue_id=blue, bot_level=level)


def match_start_counted(*, user_id: int, address: str = "") -> None:
    """Count one new match started by ``user_id`` from ``address`` (the computer
    form, a rematch with the computer); ``starting_too_often`` past the rate."""
    window = 60
    if not limits.hit("match-start", str(user_id), limit=settings.MATCH_STARTS_PER_MINUTE, window=window):
        raise Refusal("starting_too_often")
    if address and not limits.hit(
        "match-start-ip", address, limit=settings.MATCH_STARTS_PER_ADDRESS_MINUTE, window=window
    ):
        raise Refusal("starting_too_often")


def computer_start_allowed(*, user_id: int, address: str, address_guest_ids: set[int] | frozenset[int]) -> None:
    """Raise Refusal if ``user_id`` may not start a computer match now (see computer_match_start);
    ``rated_game_in_progress`` while they play a rated match (the live-position guard)."""
    guard.require_no_rated_match(user_id)
    if botqueue.waiting() >= settings.BOT_QUEUE_LIMIT:  # the games being played go first
        raise Refusal("computer_busy")
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
            raise Refusal("computer_address_busy")
    match_start_counted(user_id=user_id, address=address)


def computer_token(*, match_id: int, ply: int) -> bool:
    """One ``bot_move`` task (a token of the fair queue, games/play/botqueue.py):
    claim the fairest computer move that may run now and make it, then send one
    more token if moves still wait. ``match_id``/``ply`` (0, 0 for a bare token)
    name the job the token was sent with: queued here if it is not (a task of an
    earlier release). True if a move was played."""
    if match_id and not botqueue.has_job(match_id):
        match = Match.objects.filter(pk=match_id).first()
        if match is not None and _waits_for_computer(match, ply):
            botqueue.job_add(match_id=match_id, ply=ply, owner=match.pink_id or match.blue_id or 0)
    try:
        claimed = botqueue.job_claim()
    except redis.RedisError as exc:  # no fair queue: play the token's own job
        log.warning("computer queue unavailable (Redis: %s): playing match %s directly", exc, match_id)
        return bool(match_id) and match_bot_turn(match_id=match_id, ply=ply)
    if claimed is None:
        return False
    try:
        played = match_bot_turn(match_id=claimed.match_id, ply=claimed.ply, hurried=claimed.hurried)
    finally:
        botqueue.job_done(claimed.match_id)
    if botqueue.waiting():
        botqueue.kick()
    return played


def _waits_for_computer(match: Match, ply: int) -> bool:
    return match.is_active and match.ply == ply and match.bot_side is not None and match.to_move == match.bot_side


def match_bot_turn(*, match_id: int, ply: int, hurried: bool = False) -> bool:
    """Compute and play the computer's move for position ``ply``; a no-op if
    the match moved on or is over (a duplicate or late job). True if it played.
    Which move is computed when is the fair queue's choice (computer_token);
    ``hurried``: its think is capped at BOT_HURRIED_THINK_SECONDS (botqueue)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not _waits_for_computer(match, ply):
        return False
    return _think_and_play(match, ply, hurried=hurried)


def _think_and_play(match: Match, ply: int, *, hurried: bool) -> bool:
    match_id = match.pk
    state = selectors.match_state(match)
    if guard.standing(match.variant, state, exclude_match_id=match_id):
        _hold(match, ply)
        return False
    budget = None
    if hurried:
        budget = min(bots.default_budget(state.game.slug, match.bot_level), settings.BOT_HURRIED_THINK_SECONDS)
    action = bots.choose_action(state, match.bot_level, budget_s=budget)
    # A rated match may have reached the position while the computer thought: its move is
    # not shown then either (asked again: one more indexed query, no new think until it lifts).
    if guard.standing(match.variant, state, exclude_match_id=match_id):
        _hold(match, ply)
        return False
    try:
        match_bot_play(match_id=match_id, ply=ply, action=action)
    except Refusal as exc:  # the position changed while thinking: the next task handles it
        log.info("bot move for match %s at ply %s refused: %s", match_id, ply, exc.code)
        return False
    return True


def _hold(match: Match, ply: int) -> None:
    """The live-position guard (docs/fairplay.md): the position stands in an active rated match,
    so the computer does not think. Its move is held and tried again in GUARD_RETRY_SECONDS
    (botqueue.retry_later) until that match moves on or ends; the human sees the computer
    thinking, and once the match's sockets hear ``computer_waits``. A move held longer than
    GUARD_HOLD_SECONDS since the position arose (only a stuck rated match: its clock is
    MOVE_SECONDS plus the grace) ends the computer match as aborted, with the reason."""
    since = match.last_move_at or match.created_at
    if timezone.now() - since > timedelta(seconds=settings.GUARD_HOLD_SECONDS):
        _give_up(match.pk, ply)
        return
    if botqueue.retry_later(match.pk, ply):
        log.info("computer move of match %s at ply %s held: the position stands in a rated match", match.pk, ply)
        transport.send_to_match(match.pk, {"type": "computer_waits", "ply": ply, "code": "position_in_rated_match"})


def _give_up(match_id: int, ply: int) -> None:
    """End the computer match held too long at ``ply`` (aborted: no result, it was never rated)."""
    with transaction.atomic():
        match = core.lock(match_id)
        if not _waits_for_computer(match, ply):
            return
        log.warning("computer match %s aborted: held %ss at ply %s", match_id, settings.GUARD_HOLD_SECONDS, ply)
        frame = {"type": "computer_waits", "ply": ply, "code": "position_in_rated_match", "gave_up": True}
        transaction.on_commit(lambda: transport.send_to_match(match_id, frame))
        finishing.finish(
            match, status=Match.Status.ABORTED, winner=None, reason=Match.EndReason.ABORTED, now=timezone.now()
        )
