"""Fair play's reads (docs/features.md "Reads"): what the moderation page shows of one account
(its flags with their evidence, its recent rated games, staff's past decisions and refunds, the
open reports about it, its flagged pairs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from accounts.models import PairFlag, User
from games.models import Match, Report
from ratings.models import RatingChange

from .models import FairPlayDecision, FairPlayFlag, RatingRefund

RECENT_GAMES = 30  # the account's rated games on its page, newest first
LOG_SHOWN = 50  # decisions and refunds


@dataclass(frozen=True)
class Evidence:
    """One item of a flag's evidence, checked: detection writes JSON, staff read it."""

    match_id: int | None
    plies: list[int]
    note: str


@dataclass(frozen=True)
class RatedGame:
    """One of the account's rated games as the page shows it."""

    match: Match
    change: RatingChange
    opponent: User | None


@dataclass
class Case:
    """Everything staff read before deciding on one account."""

    user: User
    flags: list[FairPlayFlag]
    games: list[RatedGame]
    decisions: list[FairPlayDecision]
    refunds: list[RatingRefund]
    reports: list[Report]
    pairs: list[tuple[PairFlag, User]]  # each flagged pair with the other account
    evidence: dict[int, list[Evidence]] = field(default_factory=dict)  # flag id -> its items


def evidence_of(flag: FairPlayFlag) -> list[Evidence]:
    """The flag's evidence, each item reduced to a match id, plies and a note (malformed parts dropped)."""
    items = flag.evidence if isinstance(flag.evidence, list) else []
    found = []
    for item in items:
        if not isinstance(item, dict):
            continue
        match = item.get("match")
        plies = item.get("plies")
        found.append(
            Evidence(
                match_id=match if isinstance(match, int) and not isinstance(match, bool) else None,
                plies=[p for p in plies if isinstance(p, int)] if isinstance(plies, list) else [],
                note=str(item.get("note") or ""),
            )
        )
    return found


# The figures staff read first (detection's, games/fairplay/detection.py ``assess``), in this order;
# the rest follow by name. The stored order is no help: PostgreSQL's jsonb keeps its own.
FIRST_FIGURES = ("agreement", "expected", "p_value", "think_cv", "accuracy", "games", "positions")


def figures_summary(figures: Any, limit: int = 4) -> str:
    """A flag's figures in one short line: ``agreement 0.93 · games 10``."""
    if not isinstance(figures, dict):
        return ""
    parts = []
    keys = [k for k in FIRST_FIGURES if k in figures] + sorted(
        k for k in figures if k not in FIRST_FIGURES and k != "version"
    )
    for key, value in [(k, figures[k]) for k in keys][:limit]:
        shown = f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
        parts.append(f"{key} {shown}")
    return " · ".join(parts)


def recent_rated_games(user_id: int, limit: int = RECENT_GAMES) -> list[RatedGame]:
    """The account's newest rated games with its rating change and the opponent: two queries."""
    changes = list(RatingChange.objects.filter(user_id=user_id).order_by("-created_at", "-id")[:limit])
    matches = Match.objects.filter(pk__in=[c.match_id for c in changes]).select_related("pink", "blue")
    by_id = {m.pk: m for m in matches}
    games = []
    for c in changes:
        match = by_id.get(c.match_id)
        if match is None:
            continue
        opponent = match.blue if match.pink_id == user_id else match.pink
        games.append(RatedGame(match=match, change=c, opponent=opponent))
    return games


def case_for(user_id: int) -> Case | None:
    """The moderation page's account, or None if there is no such account."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return None
    flags = list(FairPlayFlag.objects.filter(user_id=user_id).order_by("-updated_at", "-pk"))
    return Case(
        user=user,
        flags=flags,
        games=recent_rated_games(user_id),
        decisions=list(
            FairPlayDecision.objects.filter(user_id=user_id)
            .select_related("staff")
            .order_by("-created_at", "-pk")[:LOG_SHOWN]
        ),
        refunds=list(
            RatingRefund.objects.filter(decision__user_id=user_id)
            .select_related("user")
            .order_by("-created_at", "-pk")[:LOG_SHOWN]
        ),
        reports=list(
            Report.objects.filter(reported_id=user_id, handled=False)
            .select_related("reporter")
            .order_by("-created_at")[:LOG_SHOWN]
        ),
        pairs=[
            (p, p.user_b if p.user_a_id == user_id else p.user_a)
            for p in PairFlag.objects.filter(Q(user_a_id=user_id) | Q(user_b_id=user_id))
            .select_related("user_a", "user_b")
            .order_by("-last_at")
        ],
        evidence={f.pk: evidence_of(f) for f in flags},
    )


def account_part(user: User) -> dict[str, Any]:
    """The account's fair-play part of "Download my data" (docs/privacy.md): its mark, staff's
    decisions on it (when and what: the reasons and the staff's names are staff's notes) and the
    rating points given back to it (or taken back). Two queries."""
    decisions = FairPlayDecision.objects.filter(user=user).exclude(action=FairPlayDecision.Action.DISMISS)
    return {
        "mark": user.fair_play_mark,
        "decisions": [
            {"at": at.isoformat(), "action": action}
            for at, action in decisions.order_by("created_at", "pk").values_list("created_at", "action")
        ],
        "refunds": [
            {"at": at.isoformat(), "match": match_id, "variant": variant, "points": round(points, 2)}
            for at, match_id, variant, points in RatingRefund.objects.filter(user=user)
            .order_by("created_at", "pk")
            .values_list("created_at", "match_id", "variant", "points")
        ],
    }
