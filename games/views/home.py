"""The home page: the games, and who is playing now."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import selectors
from games.tournaments.selectors import upcoming_public

from .rules import current_language, game_cards


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/home.html",
        {
            "games": game_cards(current_language()),
            "live": selectors.live_summary(),
            "tournaments": upcoming_public(),
        },
    )
