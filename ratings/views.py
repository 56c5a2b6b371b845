"""The leaderboard ("Ranking") of one variant, paginated: established ratings
ranked, then provisional ones ("1500?") without a rank.

The variant keys and names come from games.variants / games.models (the only
import of games in this app, at the page level: ratings' models, services and
selectors never import games). Two queries per page: a count and the page
with its users.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ratings.selectors import leaderboard

PER_PAGE = 50


@require_GET
def ranking(request: HttpRequest, variant: str = "") -> HttpResponse:
    from games.models import VARIANT_NAMES
    from games.variants import VARIANTS

    variant = variant or request.GET.get("wariant", "")
    if variant not in VARIANTS:
        variant = next(iter(VARIANTS))
    page = Paginator(leaderboard(variant), PER_PAGE).get_page(request.GET.get("strona"))
    start = (page.number - 1) * PER_PAGE
    # Established ratings come first, so their rank is their place in the list;
    # a heading row opens the provisional ones on each page that has them.
    rows = []
    for i, r in enumerate(page.object_list, start=1):
        opens = r.provisional and (not rows or not rows[-1]["rating"].provisional)
        rows.append({"rank": None if r.provisional else start + i, "rating": r, "opens_provisional": opens})
    return render(request, "ratings/ranking.html", {
        "variant": variant,
        "variant_name": VARIANT_NAMES[variant],
        "variants": [(k, VARIANT_NAMES[k]) for k in VARIANTS],
        "rows": rows,
        "page": page,
    })
