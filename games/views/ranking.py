"""The leaderboard ("Ranking") of one variant, paginated: established ratings
ranked, then provisional ones ("1500?") without a rank.

The page lives with the games because the variants are theirs (ratings never
import games: a rating's variant is a plain key). Two queries per page: a
count and the page with its users.
"""

from __future__ import annotations

from typing import TypedDict

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import catalogue
from games.selectors import ranking as ranking_reads
from games.selectors.ranking import leaderboard_page
from ratings.models import Rating

PER_PAGE = ranking_reads.PER_PAGE


class RankingRow(TypedDict):
    rank: int | None  # None for a provisional rating
    rating: Rating
    opens_provisional: bool  # the first provisional row on the page


@require_GET
def ranking(request: HttpRequest, variant: str = "") -> HttpResponse:
    variant = variant or request.GET.get("wariant", "")
    if variant not in catalogue.pool_keys():  # a variant's live pool, or its correspondence pool
        variant = catalogue.variant_keys()[0]
    corr = catalogue.is_correspondence_pool(variant)
    live_key = catalogue.pool_variant(variant)
    bots = request.GET.get("boty") == "1"  # the bot accounts' leaderboard (docs/api.md "Bot accounts")
    page = leaderboard_page(variant, bots=bots, number=request.GET.get("strona"))
    start = (page.number - 1) * PER_PAGE
    # Established ratings come first, so their rank is their place in the list;
    # a heading row opens the provisional ones on each page that has them.
    rows: list[RankingRow] = []
    for i, r in enumerate(page.object_list, start=1):
        opens = r.provisional and (not rows or not rows[-1]["rating"].provisional)
        rows.append({"rank": None if r.provisional else start + i, "rating": r, "opens_provisional": opens})
    return render(
        request,
        "ratings/ranking.html",
        {
            "variant": variant,
            "bots": bots,
            "variant_name": catalogue.variant_name(variant),
            # the same pace's pools of every variant, and this variant's two paces
            "variants": [
                (catalogue.pool_key(key, 1 if corr else None), name) for key, name in catalogue.variant_choices()
            ],
            "correspondence": corr,
            "live_key": live_key,
            "corr_key": catalogue.pool_key(live_key, 1),
            "rows": rows,
            "page": page,
        },
    )
