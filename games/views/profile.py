"""A player's profile (/gracz/<username>/): ratings, charts, W/D/L, their matches.

A fixed number of queries whatever the number of games: the player with their
ratings, one per variant for the chart (the newest points only; none while
the chart is cached), the page's match ids (no count), then those matches and
their rating changes (none while the list's markup is cached).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
from django.db import connection
from django.db.models import Case, QuerySet, Sum, When, Window
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import dateformat, formats
from django.utils.functional import SimpleLazyObject
from django.utils.timezone import get_current_timezone_name, localtime
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.blocks import has_blocked
from accounts.models import User
from games import catalogue
from games import selectors as game_selectors
from games.display.snapshot import player_name
from games.models import BLUE, PINK, Match
from games.tournaments.models import TournamentPlayer
from ratings import selectors
from ratings.charts import rating_chart_svg
from ratings.models import Rating

PER_PAGE = 20
MAX_PAGE = 10**6  # a higher ?strona= is a 404 before any query
CHART_POINTS = 200
CHART_CACHE_SECONDS = 24 * 3600
RESULTS = ("win", "draw", "loss")


def _result_of(match: Match, user_id: int) -> str:
    if match.status != Match.Status.FINISHED:
        return "aborted"
    if match.winner is None:
        return "draw"
    return "win" if match.user_id_of(match.winner) == user_id else "loss"


@dataclass
class _Page:
    """A page without a COUNT: one extra row tells whether an older page exists
    (a count of 10 000 matches cost more than the rest of the query)."""

    object_list: list[int]  # the page's match ids
    number: int
    has_next: bool
    paginator: None = None

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    def has_other_pages(self) -> bool:
        return self.has_previous or self.has_next

    def previous_page_number(self) -> int:
        return self.number - 1

    def next_page_number(self) -> int:
        return self.number + 1


def _side_query(user_id: int, side: int, variant: str, result: str) -> QuerySet[Match, tuple[datetime, int]]:
    """One colour's matches of the player, as (created_at, id): the (colour, -created_at) index serves it."""
    qs = Match.objects.filter(status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
    qs = qs.filter(pink_id=user_id) if side == PINK else qs.filter(blue_id=user_id)
    if variant:
        qs = qs.filter(variant=variant)
    if result:
        mine, theirs = (PINK, BLUE) if side == PINK else (BLUE, PINK)
        qs = qs.filter(status=Match.Status.FINISHED)
        qs = {"win": qs.filter(winner=mine), "loss": qs.filter(winner=theirs), "draw": qs.filter(winner__isnull=True)}[
            result
        ]
    return qs.order_by().values_list("created_at", "id")


def _matches_page(user_id: int, variant: str, result: str, number: str | int | None) -> _Page:
    """A page of the player's matches, newest first, in two small queries.

    The ids come from a UNION ALL of the pink and the blue side, each read in
    index order (PostgreSQL merges them and stops after the page: no sort of
    10 000 wide rows, no COUNT); then the page's rows with both players.
    """
    try:
        number = max(1, int(number)) if number is not None else 1  # None: int() would raise TypeError
    except (TypeError, ValueError):
        number = 1
    if number > MAX_PAGE:  # an OFFSET past 64 bits was a 500 (issue 12); no player has that many pages
        raise Http404
    start = (number - 1) * PER_PAGE
    end = start + PER_PAGE + 1
    pink, blue = _side_query(user_id, PINK, variant, result), _side_query(user_id, BLUE, variant, result)
    if connection.features.supports_slicing_ordering_in_compound:
        # PostgreSQL does not push the outer LIMIT into the branches: without these it
        # read and sorted all 10 000 rows (10 ms); with them each side stops after ``end`` index rows.
        pink, blue = (q.order_by("-created_at", "-id")[:end] for q in (pink, blue))
    union = pink.union(blue, all=True)
    ids = [pk for _at, pk in union.order_by("-created_at", "-id")[start:end]]
    if not ids and number > 1:  # past the end: the last page (a count only in this rare case)
        total = sum(_side_query(user_id, side, variant, result).count() for side in (PINK, BLUE))
        last = max(1, -(-total // PER_PAGE))
        return _matches_page(user_id, variant, result, last) if last < number else _Page([], number, False)
    return _Page(ids[:PER_PAGE], number, len(ids) > PER_PAGE)


def _linkable(user: User | None) -> User | None:
    """The opponent whose profile a row links to: none for the computer or a deleted account."""
    return user if user is not None and not user.is_deleted else None


def _games(user_id: int, ids: list[int]) -> list[dict[str, Any]]:
    """The rows of the page's matches (``ids``, newest first): two queries, the matches with both
    players and the player's rating changes in them."""
    matches = {m.pk: m for m in Match.objects.filter(pk__in=ids).select_related("pink", "blue")}
    changes = selectors.changes_for_matches(ids, user_id)
    games = []
    for m in (matches[pk] for pk in ids if pk in matches):
        side = m.side_of(user_id)
        other = BLUE if side == PINK else PINK
        games.append(
            {
                "match": m,
                "colour": side,
                "opponent": _linkable(m.pink if other == PINK else m.blue),
                "opponent_name": player_name(m, other),
                "result": _result_of(m, user_id),
                "variant_name": catalogue.variant_name(m.variant),
                "change": changes.get(m.pk),
            }
        )
    return games


def _arenas(user_id: int) -> dict[str, Any]:
    """The player's tournaments (the newest ten, with their points and final places) and podiums:
    one query (the podiums over all their tournaments are window sums on each line)."""
    lines = list(
        TournamentPlayer.objects.filter(user_id=user_id)
        .select_related("tournament")
        .annotate(
            podiums=Window(Sum(Case(When(rank__lte=3, then=1), default=0))),
            firsts=Window(Sum(Case(When(rank=1, then=1), default=0))),
        )
        .order_by("-tournament__starts_at", "-pk")[:10]
    )
    return {
        "lines": lines,
        "podiums": lines[0].podiums if lines else 0,
        "wins": lines[0].firsts if lines else 0,
    }


def _digest(*parts: object) -> str:
    """A short cache key for ``parts`` (plain values: ids, numbers, dates, strings)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _chart(user: User, key: str, rating: Rating) -> dict[str, Any] | None:
    """The rating chart of one variant: its SVG, its points as table rows, and ``key``, the
    cache key of both (the template caches the points' table under it too). A chart changes
    only with a rated game in that variant, which changes the rating row: the key is made of
    that row, so a new game draws a new chart and the history query runs once per game."""
    cache_key = "rating-chart:" + _digest(
        user.pk,
        key,
        rating.games,
        rating.last_played_at,
        rating.rating,
        rating.deviation,
        rating.volatility,
        get_language(),
        get_current_timezone_name(),
    )
    chart: dict[str, Any] | None = cache.get(cache_key)
    if chart is not None:
        return chart
    points = selectors.history(user, key, limit=CHART_POINTS)
    if not points:  # games counted without their changes (rows made by hand)
        return None
    name = str(catalogue.variant_name(key))
    # The page's own short date formats (kropki_site/formats/), on the local clock, as the |date filter.
    date_fmt = formats.get_format("SHORT_DATE_FORMAT")
    datetime_fmt = formats.get_format("SHORT_DATETIME_FORMAT")

    def short_date(at: datetime) -> str:
        return dateformat.format(localtime(at), date_fmt)

    low = min(p.rating for p in points)
    high = max(p.rating for p in points)
    chart = {
        "key": cache_key,
        "svg": rating_chart_svg(
            [(p.at, p.rating) for p in points],
            chart_id=f"chart-{key}",
            format_date=short_date,
            title=_("Rating history: %(variant)s") % {"variant": name},
            description=_("%(count)s points from %(first)s to %(last)s; lowest %(low)s, highest %(high)s, now %(now)s.")
            % {
                "count": len(points),
                "first": short_date(points[0].at),
                "last": short_date(points[-1].at),
                "low": round(low),
                "high": round(high),
                "now": rating.display,
            },
        ),
        # Formatted here, once per chart (it is cached): 200 rows through the |date filter cost more
        # than the rest of the page.
        "points": [(dateformat.format(localtime(p.at), datetime_fmt), round(p.rating)) for p in points],
    }
    cache.set(cache_key, chart, CHART_CACHE_SECONDS)
    return chart


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user, ratings = selectors.player_ratings(username, catalogue.variant_keys())
    if user is None or user.is_deleted:
        raise Http404

    rows = []
    for key in catalogue.variant_keys():
        rating = ratings[key]
        chart = _chart(user, key, rating) if rating.games else None
        rows.append({"key": key, "name": catalogue.variant_name(key), "rating": rating, "chart": chart})

    variant = request.GET.get("wariant", "")
    result = request.GET.get("wynik", "")
    variant = variant if variant in catalogue.variant_keys() else ""
    result = result if result in RESULTS else ""
    page = _matches_page(user.pk, variant, result, request.GET.get("strona"))
    query = urlencode({k: v for k, v in (("wariant", variant), ("wynik", result)) if v})
    # Finished and aborted matches never change, so the list's markup is cached under what it
    # is drawn from; on a hit the template never reads ``games`` and its two queries do not run.
    games = SimpleLazyObject(lambda: _games(user.pk, page.object_list))
    # An opponent who deleted their account turns into "deleted account": the number of
    # deleted accounts (an indexed count) is part of the key.
    deleted = User.objects.filter(is_deleted=True).count()
    games_key = _digest(
        user.pk,
        page.object_list,
        page.number,
        page.has_next,
        query,
        get_language(),
        get_current_timezone_name(),
        deleted,
    )
    return render(
        request,
        "games/profile.html",
        {
            "player": user,
            "rows": rows,
            "games": games,
            "games_key": games_key,
            "page": page,
            "filter_variant": variant,
            "filter_result": result,
            "variants": [(k, catalogue.variant_name(k)) for k in catalogue.variant_keys()],
            "filter_query": query,
            "arenas": _arenas(user.pk),
            **_social(request, user),
        },
    )


def _social(request: HttpRequest, player: User) -> dict[str, Any]:
    """Presence ("online" / "last seen"), and for another logged-in account: the direct-challenge
    form and block / unblock (docs/social.md)."""
    viewer = request.user
    member = viewer.is_authenticated and not getattr(viewer, "is_guest", False)
    other = member and viewer.pk != player.pk and not player.is_guest
    return {
        "presence": game_selectors.presence_of(player),
        "can_challenge": other,
        "blocked_by_me": bool(other and viewer.pk is not None and has_blocked(viewer.pk, player.pk)),
        "colours": [("random", _("random")), ("pink", _("pink")), ("blue", _("blue"))],
    }
