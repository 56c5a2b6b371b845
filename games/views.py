from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

# The home page and the rules pages live in games/rules_views.py.


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/coming_soon.html", {"title": _("Play")})

