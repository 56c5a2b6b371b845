"""The record page's reads (a finished match, its replay frames, its exports): the match with
its players, its rating changes (cached: they never change once the match is finished)."""

from __future__ import annotations

from django.core.cache import cache

from games.models import Match
from ratings.models import RatingChange
from ratings.selectors import changes_for_match

RECORD_CACHE_SECONDS = 24 * 3600


def match_for_record(match_id: int) -> Match | None:
    """The match with both players and its arena: one query."""
    return Match.objects.select_related("pink", "blue", "tournament").filter(pk=match_id).first()


def match_for_frame(match_id: int) -> Match | None:
    """What a replay frame is drawn from (the variant, the history, the status): one query."""
    return Match.objects.only("pk", "variant", "history", "status").filter(pk=match_id).first()


def record_changes(match: Match) -> dict[int, RatingChange]:
    """The finished match's rating changes by side, from the cache or one query. They are
    written in the transaction that finishes the match and never change after it."""
    if match.finished_at is None:
        return changes_for_match(match.pk)
    key = f"record-changes:{match.pk}:{match.finished_at.isoformat()}"
    changes: dict[int, RatingChange] | None = cache.get(key)
    if changes is None:
        changes = changes_for_match(match.pk)
        cache.set(key, changes, RECORD_CACHE_SECONDS)
    return changes
