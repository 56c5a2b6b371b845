from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

# slug -> display name; the engine registry (games.engine) is the source of the rules.
GAME_NAMES = {
    "kropki": _("Kropki"),
    "kropki-i-kwadraty": _("Kropki i kwadraty"),
    "cztery-w-rzedzie": _("Cztery w rzędzie"),
}


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", {"games": GAME_NAMES})


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"games": GAME_NAMES})


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in GAME_NAMES:
        raise Http404
    return render(request, "games/coming_soon.html", {"title": GAME_NAMES[slug]})


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/coming_soon.html", {"title": _("Play")})

