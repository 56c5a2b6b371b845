"""A player's profile (/gracz/<username>/): ratings, charts, W/D/L, their matches.

A fixed number of queries whatever the number of games: the player with their
ratings, one per variant for the chart (the newest points only; none while
the chart is cached), the page's match ids (no count), then those matches and
their rating changes (none while the list's markup is cached).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
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
from games.following import selectors as following_reads
from games.models import BLUE, PINK, Match
from games.puzzles import selectors as puzzle_reads
from games.selectors import profile as profile_reads
from games.tournaments import selectors as tournament_reads
from games.tournaments.swiss import selectors as swiss_reads
from ratings import selectors
from ratings.charts import rating_chart_svg
from ratings.models import Rating

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


def _page_number(value: str | None) -> int:
    """``?strona=N``: the page of the player's matches (anything else is page 1; a page past
    MAX_PAGE is a 404 before any query: an OFFSET past 64 bits was a 500, issue 12)."""
    try:
        number = max(1, int(value)) if value is not None else 1  # None: int() would raise TypeError
    except (TypeError, ValueError):
        number = 1
    if number > MAX_PAGE:
        raise Http404
    return number


def _linkable(user: User | None) -> User | None:
    """The opponent whose profile a row links to: none for the computer or a deleted account."""
    return user if user is not None and not user.is_deleted else None


def _games(user_id: int, ids: list[int]) -> list[dict[str, Any]]:
    """The rows of the page's matches (``ids``, newest first): two queries, the matches with both
    players and the player's rating changes in them."""
    matches, changes = profile_reads.page_matches(user_id, ids)
    games = []
    for m in matches:
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
    user, ratings = selectors.player_ratings(username, catalogue.pool_keys())
    if user is None or user.is_deleted:
        raise Http404

    rows = []
    for key in catalogue.pool_keys():
        rating = ratings[key]
        if catalogue.is_correspondence_pool(key) and not rating.games:
            continue  # a correspondence pool is listed once the player has played in it
        chart = _chart(user, key, rating) if rating.games else None
        rows.append({"key": key, "name": catalogue.variant_name(key), "rating": rating, "chart": chart})

    variant = request.GET.get("wariant", "")
    result = request.GET.get("wynik", "")
    variant = variant if variant in catalogue.variant_keys() else ""
    result = result if result in RESULTS else ""
    page = profile_reads.matches_page(user.pk, variant, result, _page_number(request.GET.get("strona")))
    query = urlencode({k: v for k, v in (("wariant", variant), ("wynik", result)) if v})
    # Finished and aborted matches never change, so the list's markup is cached under what it
    # is drawn from; on a hit the template never reads ``games`` and its two queries do not run.
    games = SimpleLazyObject(lambda: _games(user.pk, page.object_list))
    # An opponent who deleted their account turns into "deleted account": the number of
    # deleted accounts (an indexed count) is part of the key.
    deleted = profile_reads.deleted_accounts()
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
            "arenas": tournament_reads.player_arenas(user.pk),
            "swiss": swiss_reads.player_swiss(user.pk),
            "puzzle_ratings": puzzle_reads.profile_ratings(user),
            **_social(request, user),
        },
    )


def _social(request: HttpRequest, player: User) -> dict[str, Any]:
    """Presence ("online" / "last seen"), and for another logged-in account: the direct-challenge
    form, follow / unfollow and block / unblock; for the player themself, their follow counts
    (docs/social.md)."""
    viewer = request.user
    member = viewer.is_authenticated and not getattr(viewer, "is_guest", False)
    other = member and viewer.pk != player.pk and not player.is_guest
    own = member and viewer.pk == player.pk
    return {
        "presence": game_selectors.presence_of(player),
        "can_challenge": other,
        "blocked_by_me": bool(other and viewer.pk is not None and has_blocked(viewer.pk, player.pk)),
        "followed_by_me": bool(other and following_reads.follows(viewer.pk, player.pk)),
        # the player's own profile: how many they follow and how many follow them
        "follow_counts": following_reads.counts(player.pk) if own else None,
        "colours": [("random", _("random")), ("pink", _("pink")), ("blue", _("blue"))],
        "challenge_variants": catalogue.variant_games() if other else [],
        "game_options": catalogue.option_fields() if other else [],
        "days_choices": catalogue.CORRESPONDENCE_DAYS,
    }
