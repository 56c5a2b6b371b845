"""Engine-use detection after a rated game (docs/fairplay.md, "Detection"): the check and the flag
it opens. Staff's decisions are ``services.py``'s; this module writes only ``FairPlayFlag`` rows.

``fairplay_after_finish`` is the ``after_finish`` hook (``feature.py``): a rated game that counts,
between two accounts, sends ``FAIRPLAY_CHECK`` on commit to the ``fairplay`` queue, whose worker is
its own (one process, niced: scripts/supervisord.conf), so a check never waits for, nor delays,
a review someone asked for or a computer move. ``fairplay_check_match`` (the task's body) assesses
each player's last ``detection.WINDOW`` rated games of that variant and opens or updates their
open ``FairPlayFlag(kind=engine)`` when ``detection.assess`` flags them. A game's facts per side are
computed once and kept in the cache (Redis) for ``FACTS_TTL_S``: the next checks of the same
player, or of the opponent, reuse them.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from accounts.models import User
from games import catalogue, tasknames
from games.bots import choose_action
from games.models import Match, Move
from games.play.publisher import publish
from ratings.models import Rating

from . import detection
from .models import FairPlayFlag

log = logging.getLogger(__name__)

FACTS_TTL_S = 60 * 60 * 24 * 45


def fairplay_after_finish(match: Match) -> None:
    """The ``after_finish`` hook: a rated game that counts, between two accounts, is checked after commit."""
    if not (match.rated and match.counts and match.status == Match.Status.FINISHED):
        return
    if match.pink_id is None or match.blue_id is None:
        return
    match_id = match.pk
    # after commit, from the publisher's thread: the finishing move never waits for the broker
    transaction.on_commit(lambda: publish(tasknames.FAIRPLAY_CHECK, (match_id,)))


def _easy(state: Any, ply: int) -> int:
    return choose_action(state, "latwy", seed=ply)


def _facts_key(match: Match, side: int) -> str:
    finished = match.finished_at.timestamp() if match.finished_at else 0
    return f"fairplay:{detection.VERSION}:{match.pk}:{finished:.0f}:{side}"


def match_facts(match: Match, side: int) -> detection.GameFacts | None:
    """``side``'s facts of one finished ``match`` (cached; both sides are computed and kept at once:
    the opponent's check reuses them); None when its game has no reviewer."""
    kept = cache.get(_facts_key(match, side))
    if kept is not None:
        return detection.GameFacts.from_dict(kept)
    variant = catalogue.variant(match.variant)
    reviewer = variant.game_spec.review
    if reviewer is None:
        return None
    game = variant.game()
    rows = list(Move.objects.filter(match=match).order_by("ply").values_list("player", "created_at", "by_timeout"))
    history = list(match.history)[: len(rows)]
    times = detection.think_times([r[0] for r in rows], [r[1].timestamp() for r in rows])
    times = [None if row[2] else t for row, t in zip(rows, times, strict=True)]  # a timeout is no think time
    both = detection.game_facts(game, variant.game_slug, history, times, match.pk, reviewer.evaluator(game), _easy)
    cache.set_many({_facts_key(match, s): facts.to_dict() for s, facts in both.items()}, FACTS_TTL_S)
    return both[side]


def recent_rated(user_id: int, variant: str) -> list[Match]:
    """``user_id``'s last ``detection.WINDOW`` finished rated games of ``variant`` that count, oldest first."""
    matches = (
        Match.objects.filter(Q(pink_id=user_id) | Q(blue_id=user_id), variant=variant, rated=True, counts=True)
        .filter(status=Match.Status.FINISHED)
        .order_by("-finished_at", "-pk")[: detection.WINDOW]
    )
    return list(reversed(matches))


def fairplay_check_player(*, user_id: int, variant: str) -> FairPlayFlag | None:
    """Assess ``user_id``'s recent rated games of ``variant``; open or update their engine flag
    when they stand out. Returns the flag (None: not flagged). An account already marked is
    left alone (staff have decided), and so is a bot account (a computer by its own say)."""
    user = User.objects.filter(pk=user_id).only("pk", "fair_play_mark", "is_bot").first()
    if user is None or user.fair_play_mark or user.is_bot:
        return None
    slug = catalogue.variant(variant).game_slug
    games = []
    for match in recent_rated(user_id, variant):
        side = match.side_of(user_id)
        try:
            facts = match_facts(match, side) if side is not None else None
        except Exception:  # one game the reviewer cannot read (a broken history) does not stop the check
            log.exception("fair play: match %s could not be evaluated", match.pk)
            continue
        if facts is not None:
            games.append(facts)
    verdict = detection.assess(games, slug)
    if not verdict.flagged:
        return None
    rating = Rating.objects.filter(user_id=user_id, variant=variant).values_list("rating", flat=True).first()
    figures = {**verdict.figures, "variant": variant, "rating": round(rating) if rating is not None else None}
    with transaction.atomic():
        flag = (
            FairPlayFlag.objects.select_for_update()
            .filter(user_id=user_id, kind=FairPlayFlag.Kind.ENGINE, status=FairPlayFlag.Status.OPEN)
            .first()
        )
        if flag is None:
            flag = FairPlayFlag(user_id=user_id, kind=FairPlayFlag.Kind.ENGINE)
        flag.variant, flag.figures, flag.evidence = variant, figures, verdict.evidence
        flag.save()
    log.info("fair play: user %s flagged for engine use in %s: %s", user_id, variant, figures)
    return flag


def fairplay_check_match(match_id: int) -> list[int]:
    """Check both players of a finished rated match; returns the ids of the flags opened or updated."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not (match.rated and match.counts):
        return []
    flags = []
    for user_id in (match.pink_id, match.blue_id):
        if user_id is None:
            continue
        flag = fairplay_check_player(user_id=user_id, variant=match.variant)
        if flag is not None:
            flags.append(flag.pk)
    return flags
