"""Staff's fair-play decisions (docs/fairplay.md "Marks, refunds and the moderation page"): mark an
account engine or booster, lift a mark, dismiss a flag. The only code that writes
``User.fair_play_mark``, ``FairPlayDecision`` and ``RatingRefund`` rows.

Each decision is one transaction under the account's row lock (two staff deciding on one account
at once take turns), logged as a ``FairPlayDecision`` with who and why; a reason is required.

A mark:

- sets ``User.fair_play_mark``: the account leaves the leaderboards (``ratings.selectors
  .leaderboard``) and the arenas' standings and pairing (``games/tournaments``), rated play is
  refused (``games.play.trust.require_unmarked``: ``fair_play_marked``), its profile says so;
  casual games stay open to it, as on lichess;
- resolves the account's open flags as acted on, and takes it out of the ranked queue;
- gives back rating points (``RatingRefund``, once per (player, match) whatever the number of
  marks): an **engine** mark, to every opponent who lost points to the account in a rated game
  it won or drew in the last ``ENGINE_REFUND_DAYS``; a **booster** mark, to the partners of its
  flagged pairs (``accounts.PairFlag``) what they lost to it in their rated games together (any
  date), and the account's own gains from those games are taken back (a refund row with negative
  points, on the marked account). A marked opponent gets nothing back. Only the rating moves:
  deviation and volatility stay (``ratings.services.ratings_adjust``).

Lifting a mark clears it and gives back rated play, the leaderboards and the standings; refunds
stay given and points taken back stay taken (they corrected real games; a mark lifted and set
again refunds nothing twice).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import PairFlag, User
from games import hooks
from games.play import matchmaking
from kropki_site.lib.refusals import Refusal
from ratings.models import RatingChange
from ratings.selectors import gains_against, losses_to
from ratings.services import ratings_adjust

from .models import FairPlayDecision, FairPlayFlag, RatingRefund

# An engine mark refunds the games of the last three months (lichess refunds recent games
# only): older losses are long absorbed in the opponents' ratings by their later games.
ENGINE_REFUND_DAYS = 90

_ACTIONS: dict[str, str] = {
    User.FairPlayMark.ENGINE: FairPlayDecision.Action.MARK_ENGINE,
    User.FairPlayMark.BOOSTER: FairPlayDecision.Action.MARK_BOOSTER,
}


def _reason(reason: object) -> str:
    text = " ".join(str(reason or "").split())
    if not text:
        raise Refusal("fair_play_reason_required")
    return text


def _lock_account(user_id: int) -> User:
    user = User.objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise Refusal("unknown_user")
    return user


def _set_mark(user: User, kind: str) -> None:
    user.fair_play_mark = kind
    user.save(update_fields=["fair_play_mark"])
    hooks.run_mark_changed(user.pk)  # the arenas' standings draw themselves again


def mark(
    user_id: int,
    kind: str,
    staff: User,
    reason: str,
    flag: FairPlayFlag | None = None,
    *,
    now: datetime | None = None,
) -> FairPlayDecision:
    """Mark ``user_id`` ``kind`` ("engine" or "booster") for ``reason``, on ``flag`` if staff acted
    on one: see the module. Refusals: ``fair_play_reason_required``, ``fair_play_bad_mark``,
    ``unknown_user``. Locks the account's row, then (in ``ratings_adjust``) the refunded ratings.
    Returns the decision; its ``refunds`` are the points given back (and taken back)."""
    text = _reason(reason)
    if kind not in _ACTIONS:
        raise Refusal("fair_play_bad_mark")
    now = now or timezone.now()
    with transaction.atomic():
        user = _lock_account(user_id)
        decision = FairPlayDecision.objects.create(
            user=user, staff=staff, action=_ACTIONS[kind], reason=text, flag=flag
        )
        _set_mark(user, kind)
        FairPlayFlag.objects.filter(user=user, status=FairPlayFlag.Status.OPEN).update(
            status=FairPlayFlag.Status.ACTED, updated_at=now
        )
        matchmaking.seek_cancel(user=user)  # out of the ranked queue (a seek paired later would be rated)
        if kind == User.FairPlayMark.ENGINE:
            changes = losses_to(user.pk, since=now - timedelta(days=ENGINE_REFUND_DAYS))
            takes: list[RatingChange] = []
        else:
            partners = pair_partners(user.pk)
            changes = losses_to(user.pk, opponents=partners)
            takes = gains_against(user.pk, partners)
        _refund(decision, changes, takes)
    return decision


def pair_partners(user_id: int) -> set[int]:
    """The accounts ``user_id`` shares a flagged pair with (``accounts.PairFlag``, any reason)."""
    rows = PairFlag.objects.filter(Q(user_a_id=user_id) | Q(user_b_id=user_id)).values_list("user_a_id", "user_b_id")
    return {b if a == user_id else a for a, b in rows}


def _refund(decision: FairPlayDecision, losses: list[RatingChange], gains: list[RatingChange]) -> None:
    """Give back each of ``losses`` (another player's change that lost points) and take back each
    of ``gains`` (the marked account's own), once per (player, match): a pair already refunded is
    skipped. A marked opponent (an engine against an engine) gets nothing back."""
    marked = set(
        User.objects.filter(pk__in={c.user_id for c in losses}).exclude(fair_play_mark="").values_list("pk", flat=True)
    )
    wanted = [(c, c.rating_before - c.rating_after) for c in losses if c.user_id not in marked]
    wanted += [(c, c.rating_before - c.rating_after) for c in gains]  # negative: taken back
    done = set(
        RatingRefund.objects.filter(
            user_id__in={c.user_id for c, _points in wanted}, match_id__in={c.match_id for c, _points in wanted}
        ).values_list("user_id", "match_id")
    )
    wanted = [(c, points) for c, points in wanted if (c.user_id, c.match_id) not in done and points != 0]
    totals: dict[tuple[int, str], float] = defaultdict(float)
    for c, points in wanted:
        totals[(c.user_id, c.variant)] += points
    applied = ratings_adjust(points=totals)
    RatingRefund.objects.bulk_create(
        RatingRefund(
            decision=decision,
            user_id=c.user_id,
            variant=c.variant,
            match_id=c.match_id,
            points=points,
        )
        for c, points in wanted
        if (c.user_id, c.variant) in applied
    )


def lift(user_id: int, staff: User, reason: str, flag: FairPlayFlag | None = None) -> FairPlayDecision:
    """Lift ``user_id``'s mark for ``reason``: rated play, the leaderboards and the standings are
    its again. Refunds stay given (see the module). Refusals: ``fair_play_reason_required``,
    ``fair_play_not_marked``, ``unknown_user``. Locks the account's row."""
    text = _reason(reason)
    with transaction.atomic():
        user = _lock_account(user_id)
        if not user.fair_play_mark:
            raise Refusal("fair_play_not_marked")
        _set_mark(user, User.FairPlayMark.NONE)
        return FairPlayDecision.objects.create(
            user=user, staff=staff, action=FairPlayDecision.Action.LIFT, reason=text, flag=flag
        )


def dismiss(flag: FairPlayFlag | int, staff: User, reason: str) -> FairPlayDecision:
    """Dismiss an open flag for ``reason`` (nothing happens to the account). Refusals:
    ``fair_play_reason_required``, ``fair_play_flag_closed`` (already dismissed or acted on).
    Locks the account's row, then the flag's."""
    text = _reason(reason)
    flag_id = flag if isinstance(flag, int) else flag.pk
    user_id = FairPlayFlag.objects.filter(pk=flag_id).values_list("user_id", flat=True).first()
    if user_id is None:
        raise Refusal("fair_play_flag_closed")
    with transaction.atomic():
        _lock_account(user_id)
        row = FairPlayFlag.objects.select_for_update().get(pk=flag_id)
        if row.status != FairPlayFlag.Status.OPEN:
            raise Refusal("fair_play_flag_closed")
        row.status = FairPlayFlag.Status.DISMISSED
        row.save(update_fields=["status", "updated_at"])
        return FairPlayDecision.objects.create(
            user_id=row.user_id, staff=staff, action=FairPlayDecision.Action.DISMISS, reason=text, flag=row
        )


__all__ = ["ENGINE_REFUND_DAYS", "dismiss", "lift", "mark", "pair_partners"]
