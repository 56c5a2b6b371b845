"""THE match service: every change to a Match, Move or Challenge goes through here.

Each public function runs in one transaction holding the match's row lock
(``select_for_update``; on SQLite the IMMEDIATE transaction mode serialises
writers), checks its guards, writes, and registers the broadcast (and a
computer's move) with ``transaction.on_commit`` so clients only hear of
committed state. The clock is the deadline column, swept every second.
Every ending goes through ``_finish``.

Refusals raise MatchError. One refusal changes state on purpose: a move that
arrives after deadline + grace applies the timeout first (lila's "Flagged"),
commits it, and then raises ``turn_expired``.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import realtime
from games.engine import EngineError, State, other
from games.errors import MatchError
from games.models import BLUE, PINK, Challenge, Match, Move
from games.variants import VARIANTS, get_variant

log = logging.getLogger(__name__)


# -- clock ---------------------------------------------------------------------


def move_time() -> timedelta:
    return timedelta(seconds=settings.MOVE_SECONDS)


def grace() -> timedelta:
    return timedelta(seconds=settings.MOVE_GRACE_SECONDS)


def turn_expired(match: Match, now: datetime) -> bool:
    """The one predicate of expiry: past the deadline plus the grace."""
    return match.turn_deadline is not None and now >= match.turn_deadline + grace()


# -- engine state --------------------------------------------------------------

# Keyed by (id, variant) and checked against the full history: a cached state
# is only ever a shortcut for the replay, never trusted on its own (ids can be
# reused after a rollback or a restore).
_STATE_CACHE: dict[tuple[int, str], State] = {}
_STATE_CACHE_MAX = 512


def match_state(match: Match) -> State:
    """The engine state of ``match`` (a private copy: callers may mutate it).

    Replays ``match.history``; a per-process cache skips the replay when it
    already holds that exact history (never trusted otherwise).
    """
    cached = _STATE_CACHE.get((match.pk, match.variant)) if match.pk else None
    if cached is not None and cached.history == match.history:
        return cached.clone()
    state = get_variant(match.variant).game().state_from_history(match.history)
    if match.pk:
        if len(_STATE_CACHE) >= _STATE_CACHE_MAX:
            try:  # consumers call services from a thread pool: another thread may evict first
                _STATE_CACHE.pop(next(iter(_STATE_CACHE)), None)
            except (StopIteration, RuntimeError):
                pass
        _STATE_CACHE[(match.pk, match.variant)] = state.clone()
    return state


def _remember(match: Match, state: State) -> None:
    _STATE_CACHE[(match.pk, match.variant)] = state.clone()


# -- helpers -------------------------------------------------------------------


def _lock(match_id: int) -> Match:
    # The match row alone: frames carry its header, never the players' names.
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError("not_found") from None


def _side(match: Match, user_id: int | None) -> int:
    if user_id is None:
        raise MatchError("login_required")
    side = match.side_of(user_id)
    if side is None:
        raise MatchError("not_a_player")
    return side


def _require_active(match: Match) -> None:
    if not match.is_active:
        raise MatchError("match_not_active")


def _has_moved(match: Match, side: int) -> bool:
    return Move.objects.filter(match=match, player=side, by_timeout=False).exists()


def _broadcast_on_commit(match: Match, kind: str, **extra: Any) -> None:
    """After commit, the frame of ``match`` as this transaction leaves it (no re-read)."""
    transaction.on_commit(lambda: realtime.broadcast_match(match, kind, **extra))


def _queue_computer_turn(match: Match) -> None:
    """After commit: the computer's move if it is its turn.

    A human turn needs nothing here: its clock is the row's ``turn_deadline``,
    which the sweeps (``sweep_expired``, every second) read through the
    (status, turn_deadline) index. So a human move publishes nothing to the broker.
    """
    if match.is_active and match.bot_side is not None and match.to_move == match.bot_side:
        match_id, ply = match.pk, match.ply
        transaction.on_commit(lambda: _enqueue_bot(match_id, ply))


def _enqueue_bot(match_id: int, ply: int) -> None:
    """Queue the computer's move for position ``ply`` without waiting for the broker:
    the publish runs on a background thread (games/publisher.py), errors are logged,
    and ``sweep_expired`` re-enqueues a computer move that never came."""
    from games import publisher
    from games.tasks import bot_move as bot_move_task

    publisher.publish(bot_move_task, (match_id, ply))


def _set_turn(match: Match, state: State, now: datetime) -> None:
    match.to_move = state.current_player()
    match.pink_score, match.blue_score = state.scores()
    human_to_move = match.to_move is not None and match.to_move != match.bot_side
    match.turn_deadline = now + move_time() if human_to_move else None


# -- creating ------------------------------------------------------------------


def match_create(
    *,
    variant: str,
    pink_id: int | None,
    blue_id: int | None,
    rated: bool = False,
    bot_level: str = "",
    now: datetime | None = None,
) -> Match:
    """Start a match. Exactly one side may be the computer (its user id None, ``bot_level`` set)."""
    if variant not in VARIANTS:
        raise MatchError("unknown_variant")
    if bot_level:
        if (pink_id is None) == (blue_id is None):
            raise ValueError("a computer match needs exactly one human")
        rated = False  # computer matches are never rated
    elif pink_id is None or blue_id is None or pink_id == blue_id:
        raise ValueError("a match needs two different players")
    now = now or timezone.now()
    with transaction.atomic():
        match = Match(variant=variant, pink_id=pink_id, blue_id=blue_id, rated=rated, bot_level=bot_level)
        state = get_variant(variant).game().new_initial_state()
        _set_turn(match, state, now)
        match.save()
        _queue_computer_turn(match)
        _broadcast_on_commit(match, "created")
        if bot_level:
            computer_matches_trim(user_ids=[pink_id or blue_id], keep=settings.COMPUTER_MATCHES_PER_USER, now=now)
    return match


def computer_matches_trim(*, user_ids: Any, keep: int, now: datetime | None = None) -> list[int]:
    """Abandon the oldest unfinished computer matches of ``user_ids`` beyond the
    newest ``keep`` (docs/bots.md, "Limits"): each ends as aborted (no result;
    computer matches are never rated), its sockets hear "finished", and a
    computer move still queued for it finds it over and does nothing.
    Returns the ids it ended."""
    ids = [pk for pk in user_ids if pk is not None]
    if not ids:
        return []
    now = now or timezone.now()
    ended = []
    with transaction.atomic():
        over = list(
            Match.objects.filter(Q(pink_id__in=ids) | Q(blue_id__in=ids), status=Match.Status.ACTIVE)
            .exclude(bot_level="")
            .order_by("-created_at", "-pk")
            .values_list("pk", flat=True)[keep:]
        )
        for match_id in over:
            match = _lock(match_id)
            if match.is_active:
                _finish(match, status=Match.Status.ABORTED, winner=None, reason=Match.EndReason.ABORTED, now=now)
                ended.append(match_id)
    return ended


def matches_delete_unfinished_of(*, user_ids: list[int]) -> int:
    """Delete the matches of ``user_ids`` that never got a result (aborted, or
    still active), with their moves: only for deleting stale guests
    (accounts/guests.py), whose finished matches keep them. Returns how many."""
    matches = Match.objects.filter(Q(pink_id__in=user_ids) | Q(blue_id__in=user_ids)).exclude(
        status=Match.Status.FINISHED
    )
    return matches.delete()[1].get(Match._meta.label, 0)


# -- moves ---------------------------------------------------------------------


@dataclass
class PlayResult:
    match: Match
    duplicate: bool = False  # the same move was already applied (a resend)


def match_play(*, match_id: int, user_id: int | None, ply: Any, action: Any, now: datetime | None = None) -> PlayResult:
    """Play ``action`` for ``user_id`` as the answer to position ``ply``.

    Raises MatchError: not_found, login_required, not_a_player,
    match_not_active, stale_ply, turn_expired (after applying the timeout),
    not_your_turn, player_has_ended, or the engine's code. A resend of the move
    that made the current position returns ``duplicate=True`` and changes nothing.
    """
    return _play(match_id=match_id, side_for=lambda m: _side(m, user_id), ply=ply, action=action, now=now)


def match_bot_play(*, match_id: int, ply: int, action: int, now: datetime | None = None) -> PlayResult:
    """The computer's move (computed outside the lock by the bot task)."""

    def bot_side(match: Match) -> int:
        side = match.bot_side
        if side is None:
            raise MatchError("not_a_player")
        return side

    return _play(match_id=match_id, side_for=bot_side, ply=ply, action=action, now=now)


def _play(*, match_id: int, side_for, ply: Any, action: Any, now: datetime | None) -> PlayResult:
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise MatchError("bad_frame")
    expired = False
    with transaction.atomic():
        match = _lock(match_id)
        side = side_for(match)
        now = now or timezone.now()
        if match.is_active and turn_expired(match, now):
            _apply_timeout(match, now)
            expired = True
        else:
            _require_active(match)
            if ply != match.ply:
                if ply == match.ply - 1 and match.history:
                    last = Move.objects.filter(match=match, ply=match.ply).first()
                    if last is not None and last.player == side and last.action == action:
                        return PlayResult(match=match, duplicate=True)
                raise MatchError("stale_ply")
            state = match_state(match)
            reason = state.illegal_reason(action)
            if reason is None and state.current_player() != side:
                has_ended = getattr(state, "has_ended", None)
                reason = "player_has_ended" if has_ended is not None and has_ended(side) else "not_your_turn"
            if reason is not None:
                raise MatchError(reason)
            _apply_move(match, state, side, action, now)
            return PlayResult(match=match)
    if expired:
        raise MatchError("turn_expired")
    raise AssertionError("unreachable")


def _apply_move(match: Match, state: State, side: int, action: int, now: datetime, *, by_timeout: bool = False) -> None:
    """Apply a legal action for ``side`` (the player to move), store it, and end the match if the rules say so."""
    try:
        effect = state.apply_action_for_viewers(action)
    except EngineError as exc:  # guarded by the caller; never store an illegal move
        raise MatchError(exc.code) from exc
    match.ply += 1
    Move.objects.create(match=match, ply=match.ply, player=side, action=action, by_timeout=by_timeout)
    match.history = list(state.history)
    match.last_move_at = now
    match.draw_offer = None
    _set_turn(match, state, now)
    _remember(match, state)
    outcome = state.outcome()
    fields = ["ply", "history", "last_move_at", "draw_offer", "to_move", "pink_score", "blue_score", "turn_deadline"]
    if outcome is not None:
        match.save(update_fields=fields)
        _finish(match, status=Match.Status.FINISHED, winner=outcome.winner, reason=outcome.reason, now=now,
                last_move={"action": action, "by": side, "notation": effect.notation, "details": effect.details,
                           "by_timeout": by_timeout})
        return
    match.save(update_fields=fields)
    # After commit: the frame (queued on daphne's loop); the clock needs nothing (beat's sweep
    # reads turn_deadline), a computer's turn a task published off this thread.
    _broadcast_on_commit(
        match, "moved", action=action, by=side, notation=effect.notation, details=effect.details, by_timeout=by_timeout,
    )
    _queue_computer_turn(match)


# -- the clock -----------------------------------------------------------------


def match_expire_turn(*, match_id: int, ply: int | None = None, now: datetime | None = None) -> bool:
    """Apply the timeout if ``match`` is still active at ``ply`` (any ply when None)
    and its deadline plus grace has passed. Idempotent: True only if it acted."""
    with transaction.atomic():
        try:
            match = _lock(match_id)
        except MatchError:
            return False
        now = now or timezone.now()
        if not match.is_active or (ply is not None and match.ply != ply) or not turn_expired(match, now):
            return False
        _apply_timeout(match, now)
        return True


def _apply_timeout(match: Match, now: datetime) -> None:
    """The player to move ran out of time (caller holds the lock and checked)."""
    side = match.to_move
    assert side is not None
    if not _has_moved(match, side):
        # Their first move never came: no result, no rating (SPEC "Abort").
        _finish(match, status=Match.Status.ABORTED, winner=None, reason=Match.EndReason.ABORTED, now=now)
        return
    state = match_state(match)
    end_action = getattr(state.game, "end_action", None)
    if end_action is not None:
        # Kropki: running out of time counts as ending the game; the other may play on.
        _apply_move(match, state, side, end_action, now, by_timeout=True)
        return
    _finish(match, status=Match.Status.FINISHED, winner=other(side), reason=Match.EndReason.TIMEOUT, now=now)


# A computer move this late is re-enqueued. The rescue runs at most every
# BOT_RESCUE_SECONDS per process, not at every one-second sweep: each copy may
# cost a full computation when the bots queue is backed up.
BOT_RESCUE_AFTER = timedelta(seconds=15)
BOT_RESCUE_SECONDS = 5.0
_bot_rescue_due = 0.0  # time.monotonic() of this process's next rescue


def sweep_expired(*, now: datetime | None = None, limit: int = 200) -> int:
    """THE clock: end every active match whose deadline plus grace has passed,
    and re-enqueue computer moves that never came. Returns how many it ended.

    Called every second by beat's ``sweep_expired_turns`` task and by
    ``manage.py sweep_turns --loop`` (no broker). Both may run at once: each
    match is re-checked under its row lock (``match_expire_turn``).
    """
    global _bot_rescue_due
    now = now or timezone.now()
    overdue = list(
        Match.objects.filter(status=Match.Status.ACTIVE, turn_deadline__lte=now - grace())
        .order_by("turn_deadline")
        .values_list("pk", flat=True)[:limit]
    )
    done = sum(1 for match_id in overdue if match_expire_turn(match_id=match_id, now=now))
    if time.monotonic() >= _bot_rescue_due:
        _bot_rescue_due = time.monotonic() + BOT_RESCUE_SECONDS
        late = now - BOT_RESCUE_AFTER
        # (no move yet: the computer opens, and its first move is late since creation)
        for match_id, ply in Match.objects.filter(
            Q(last_move_at__lte=late) | Q(last_move_at__isnull=True, created_at__lte=late),
            status=Match.Status.ACTIVE, turn_deadline__isnull=True, to_move__isnull=False,
        ).exclude(bot_level="").values_list("pk", "ply")[:limit]:
            _enqueue_bot(match_id, ply)
    return done


def matches_extend_deadlines(*, by: timedelta, live_at: datetime | None = None) -> int:
    """Push every active match's turn deadline forward by ``by`` (a planned
    restart's downtime, docs/deploy.md "Planned restart"), in one transaction.

    ``live_at``: only turns that had not expired at that moment (deadline +
    grace after it), e.g. the drain's start; a turn already overdue then is
    left to the sweeper. Nothing needs re-arming: the sweeps read the new
    deadline from the row. After commit each match's sockets hear the new
    deadline. Returns how many matches were extended.
    """
    if by <= timedelta(0):
        return 0
    with transaction.atomic():
        matches = Match.objects.select_for_update().filter(status=Match.Status.ACTIVE, turn_deadline__isnull=False)
        if live_at is not None:
            matches = matches.filter(turn_deadline__gt=live_at - grace())
        matches = list(matches.order_by("pk"))
        for match in matches:
            match.turn_deadline += by
            match.save(update_fields=["turn_deadline"])
            _broadcast_on_commit(match, "clock")
    return len(matches)


# -- resign, draw, end ---------------------------------------------------------


def match_resign(*, match_id: int, user_id: int | None, now: datetime | None = None) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        side = _side(match, user_id)
        _require_active(match)
        _finish(match, status=Match.Status.FINISHED, winner=other(side), reason=Match.EndReason.RESIGN,
                now=now or timezone.now())
        return match


def match_offer_draw(*, match_id: int, user_id: int | None) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        side = _side(match, user_id)
        _require_active(match)
        if match.bot_side is not None:
            raise MatchError("draw_unavailable")
        if match.draw_offer is not None:
            raise MatchError("draw_already_offered")
        match.draw_offer = side
        match.save(update_fields=["draw_offer"])
        _broadcast_on_commit(match, "draw_offered", by=side)
        return match


def match_answer_draw(*, match_id: int, user_id: int | None, accept: bool, now: datetime | None = None) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        side = _side(match, user_id)
        _require_active(match)
        if match.draw_offer != other(side):
            raise MatchError("no_draw_offer")
        if accept:
            _finish(match, status=Match.Status.FINISHED, winner=None, reason=Match.EndReason.AGREEMENT,
                    now=now or timezone.now())
        else:
            match.draw_offer = None
            match.save(update_fields=["draw_offer"])
            _broadcast_on_commit(match, "draw_declined", by=side)
        return match


# -- the one door out ----------------------------------------------------------


def _finish(
    match: Match, *, status: str, winner: int | None, reason: str, now: datetime, last_move: dict | None = None,
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
    match.save(update_fields=["status", "winner", "end_reason", "finished_at", "turn_deadline", "to_move", "draw_offer"])
    deltas = _rate(match)
    extra: dict[str, Any] = {"rating_deltas": deltas}
    if last_move:
        extra.update(last_move)
    _broadcast_on_commit(match, "finished", **extra)


def _rate(match: Match) -> dict | None:
    """Apply ratings once, inside the finishing transaction, for rated
    matches that were played (a move by each player)."""
    if not match.rated or match.status != Match.Status.FINISHED:
        return None
    if not (_has_moved(match, PINK) and _has_moved(match, BLUE)):
        return None
    try:
        from ratings.services import ratings_apply_result
    except ImportError:  # ratings arrive with the ranked-play work
        return None
    score_pink = 1.0 if match.winner == PINK else 0.0 if match.winner == BLUE else 0.5
    return ratings_apply_result(
        variant=match.variant, match_id=match.pk, pink_id=match.pink_id, blue_id=match.blue_id,
        score_pink=score_pink, now=match.finished_at,
    )


# -- rematch -------------------------------------------------------------------


def match_offer_rematch(*, match_id: int, user_id: int | None) -> Match:
    """Offer (or, if the other already offered, accept) a rematch with colours swapped."""
    with transaction.atomic():
        match = _lock(match_id)
        side = _side(match, user_id)
        if match.is_active or match.rematch_id is not None:
            raise MatchError("rematch_unavailable")
        if match.bot_side is not None or match.rematch_offer == other(side):
            return _start_rematch(match)
        if match.rematch_offer == side:
            return match
        match.rematch_offer = side
        match.save(update_fields=["rematch_offer"])
        _broadcast_on_commit(match, "rematch_offered", by=side)
        return match


def match_decline_rematch(*, match_id: int, user_id: int | None) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        side = _side(match, user_id)
        if match.rematch_offer != other(side):
            raise MatchError("no_rematch_offer")
        match.rematch_offer = None
        match.save(update_fields=["rematch_offer"])
        _broadcast_on_commit(match, "rematch_declined", by=side)
        return match


def _start_rematch(match: Match) -> Match:
    new = match_create(
        variant=match.variant, pink_id=match.blue_id, blue_id=match.pink_id, rated=match.rated,
        bot_level=match.bot_level,
    )
    match.rematch = new
    match.rematch_offer = None
    match.save(update_fields=["rematch", "rematch_offer"])
    _broadcast_on_commit(match, "rematch", match_url=f"/partia/{new.pk}/", new_match_id=new.pk)
    return match


# -- challenges ----------------------------------------------------------------


def _require_account(user_id: int | None) -> None:
    """Challenges and ranked play need a real account, not a guest."""
    from accounts.models import User

    if user_id is None:
        raise MatchError("login_required")
    if User.objects.filter(pk=user_id, is_guest=True).exists():
        raise MatchError("account_required")


def challenge_create(*, user_id: int, variant: str, rated: bool, listed: bool = False) -> Challenge:
    """A private link (``listed`` false) or an open challenge in the lobby. A user has at most
    ``CHALLENGES_OPEN_PER_USER`` open at once and creates at most ``CHALLENGES_PER_HOUR`` an hour
    (so creating and cancelling does not fill the database either)."""
    _require_account(user_id)
    if variant not in VARIANTS:
        raise MatchError("unknown_variant")
    from accounts.models import User

    with transaction.atomic():
        # the creator's row lock orders one user's creations (the counts below stay true)
        User.objects.select_for_update().filter(pk=user_id).values_list("pk").first()
        now = timezone.now()
        mine = Challenge.objects.filter(creator_id=user_id)
        if mine.filter(Challenge.open_q(now)).count() >= settings.CHALLENGES_OPEN_PER_USER:
            raise MatchError("too_many_challenges")
        if mine.filter(created_at__gt=now - timedelta(hours=1)).count() >= settings.CHALLENGES_PER_HOUR:
            raise MatchError("challenges_too_often")
        return Challenge.objects.create(creator_id=user_id, variant=variant, rated=rated, listed=listed)


def challenge_accept(*, token: Any, user_id: int | None) -> Match:
    """Accept an open challenge: colours are drawn at random."""
    _require_account(user_id)
    with transaction.atomic():
        try:
            challenge = Challenge.objects.select_for_update().get(token=token)
        except (Challenge.DoesNotExist, ValidationError, ValueError, TypeError):
            raise MatchError("challenge_not_open") from None
        if challenge.status != Challenge.Status.OPEN:
            raise MatchError("challenge_not_open")
        if challenge.is_expired:
            raise MatchError("challenge_expired")
        if challenge.creator_id == user_id:
            raise MatchError("own_challenge")
        players = [challenge.creator_id, user_id]
        random.shuffle(players)
        match = match_create(variant=challenge.variant, pink_id=players[0], blue_id=players[1], rated=challenge.rated)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.match = match
        challenge.save(update_fields=["status", "match"])
        token_str = str(challenge.token)
        transaction.on_commit(lambda: realtime.broadcast_challenge(token_str, match.pk))
        return match


def challenge_cancel(*, token: Any, user_id: int) -> None:
    with transaction.atomic():
        updated = Challenge.objects.filter(token=token, creator_id=user_id, status=Challenge.Status.OPEN).update(
            status=Challenge.Status.CANCELLED
        )
    if not updated:
        raise MatchError("challenge_not_open")


__all__ = [
    "PlayResult",
    "computer_matches_trim",
    "matches_delete_unfinished_of",
    "challenge_accept",
    "challenge_cancel",
    "challenge_create",
    "match_answer_draw",
    "match_bot_play",
    "match_create",
    "match_decline_rematch",
    "match_expire_turn",
    "match_offer_draw",
    "match_offer_rematch",
    "match_play",
    "match_resign",
    "match_state",
    "matches_extend_deadlines",
    "sweep_expired",
    "turn_expired",
]
