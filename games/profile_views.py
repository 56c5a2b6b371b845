"""A player's profile (/gracz/<username>/): ratings, charts, W/D/L, their matches.

A fixed number of queries whatever the number of games: one for the ratings,
one per variant for the chart (the newest points only), a count and a page of
matches, and one for the rating changes of that page.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.models import BLUE, PINK, VARIANT_NAMES, Match
from games.snapshot import player_name
from games.variants import VARIANTS
from ratings import selectors
from ratings.charts import rating_chart_svg

PER_PAGE = 20
CHART_POINTS = 200
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

    object_list: list
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


def _side_query(user_id: int, side: int, variant: str, result: str):
    """One colour's matches of the player, as (created_at, id): the (colour, -created_at) index serves it."""
    qs = Match.objects.filter(status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
    qs = qs.filter(pink_id=user_id) if side == PINK else qs.filter(blue_id=user_id)
    if variant:
        qs = qs.filter(variant=variant)
    if result:
        mine, theirs = (PINK, BLUE) if side == PINK else (BLUE, PINK)
        qs = qs.filter(status=Match.Status.FINISHED)
        qs = {"win": qs.filter(winner=mine), "loss": qs.filter(winner=theirs), "draw": qs.filter(winner__isnull=True)}[result]
    return qs.order_by().values_list("created_at", "id")


def _matches_page(user_id: int, variant: str, result: str, number) -> _Page:
    """A page of the player's matches, newest first, in two small queries.

    The ids come from a UNION ALL of the pink and the blue side, each read in
    index order (PostgreSQL merges them and stops after the page: no sort of
    10 000 wide rows, no COUNT); then the page's rows with both players.
    """
    try:
        number = max(1, int(number))
    except (TypeError, ValueError):
        number = 1
    start = (number - 1) * PER_PAGE
    union = _side_query(user_id, PINK, variant, result).union(_side_query(user_id, BLUE, variant, result), all=True)
    ids = [pk for _at, pk in union.order_by("-created_at", "-id")[start:start + PER_PAGE + 1]]
    if not ids and number > 1:
        return _matches_page(user_id, variant, result, 1)
    rows = {m.pk: m for m in Match.objects.filter(pk__in=ids[:PER_PAGE]).select_related("pink", "blue")}
    return _Page([rows[pk] for pk in ids[:PER_PAGE] if pk in rows], number, len(ids) > PER_PAGE)


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username__iexact=username)
    ratings = selectors.user_ratings(user, VARIANTS)

    rows = []
    for key in VARIANTS:
        rating = ratings[key]
        chart = None
        if rating.games:
            points = selectors.history(user, key, limit=CHART_POINTS)
            name = str(VARIANT_NAMES[key])
            low = min(p.rating for p in points)
            high = max(p.rating for p in points)
            chart = {
                "svg": rating_chart_svg(
                    [(p.at, p.rating) for p in points],
                    chart_id=f"chart-{key}",
                    title=_("Rating history: %(variant)s") % {"variant": name},
                    description=_(
                        "%(count)s points from %(first)s to %(last)s; lowest %(low)s, highest %(high)s, now %(now)s."
                    )
                    % {
                        "count": len(points),
                        "first": formats.date_format(points[0].at, "SHORT_DATE_FORMAT"),
                        "last": formats.date_format(points[-1].at, "SHORT_DATE_FORMAT"),
                        "low": round(low),
                        "high": round(high),
                        "now": rating.display,
                    },
                ),
                # Formatted here: 200 rows through the |date filter cost more than the rest of the page.
                "points": [(localtime(p.at).strftime("%Y-%m-%d %H:%M"), round(p.rating)) for p in points],
            }
        rows.append({"key": key, "name": VARIANT_NAMES[key], "rating": rating, "chart": chart})

    variant = request.GET.get("wariant", "")
    result = request.GET.get("wynik", "")
    variant = variant if variant in VARIANTS else ""
    result = result if result in RESULTS else ""
    page = _matches_page(user.pk, variant, result, request.GET.get("strona"))
    changes = selectors.changes_for_matches([m.pk for m in page.object_list], user.pk)
    games = []
    for m in page.object_list:
        side = m.side_of(user.pk)
        other = BLUE if side == PINK else PINK
        games.append({
            "match": m,
            "colour": side,
            "opponent": m.pink if other == PINK else m.blue,
            "opponent_name": player_name(m, other),
            "result": _result_of(m, user.pk),
            "variant_name": VARIANT_NAMES[m.variant],
            "change": changes.get(m.pk),
        })
    query = {k: v for k, v in (("wariant", variant), ("wynik", result)) if v}
    return render(request, "games/profile.html", {
        "player": user,
        "rows": rows,
        "games": games,
        "page": page,
        "filter_variant": variant,
        "filter_result": result,
        "variants": [(k, VARIANT_NAMES[k]) for k in VARIANTS],
        "filter_query": urlencode(query),
    })
