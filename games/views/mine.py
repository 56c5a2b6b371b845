"""A player's games in progress (/moje-partie/): the correspondence games where it is their
move first, with the time left (SPEC.md "Correspondence")."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.decorators import AuthenticatedHttpRequest, account_required
from games import catalogue
from games.selectors.mine import my_games


@account_required
@require_GET
def my_games_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    rows = my_games(request.user.pk)
    return render(
        request,
        "games/my_games.html",
        {
            "rows": [{"game": g, "variant_name": catalogue.variant_name(g.match.variant)} for g in rows],
            "my_turn": sum(1 for g in rows if g.my_turn),
        },
    )
