"""The account's data download's reads ("Download my data", docs/privacy.md): the rows
``games.display.export.account_json`` words."""

from __future__ import annotations

from django.db.models import Prefetch, Q

from accounts.models import Block, User
from games import hooks
from games.display.export import AccountRows
from games.models import ChatMessage, Match, Move, Report
from ratings.models import Rating, RatingChange


def account_rows(user: User) -> AccountRows:
    """Everything kept about ``user``: a few queries, whatever the number of matches
    (and each feature's part: games.hooks.account_parts)."""
    matches = list(
        Match.objects.filter(Q(pink=user) | Q(blue=user))
        .select_related("pink", "blue")
        .order_by("created_at", "pk")
        .prefetch_related(Prefetch("moves", queryset=Move.objects.order_by("ply")))
    )
    changes: dict[int, dict[int, RatingChange]] = {}
    for change in RatingChange.objects.filter(match_id__in=[m.pk for m in matches]):
        changes.setdefault(change.match_id, {})[change.side] = change
    return AccountRows(
        user=user,
        ratings=list(Rating.objects.filter(user=user).order_by("variant")),
        matches=[(m, list(m.moves.all())) for m in matches],
        changes=changes,
        chat=list(ChatMessage.objects.filter(author=user).order_by("created_at", "pk")),
        blocks=list(Block.objects.filter(blocker=user).select_related("blocked").order_by("created_at")),
        reports=list(Report.objects.filter(reporter=user).select_related("reported").order_by("created_at")),
        parts=hooks.account_parts(user),
    )
