from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _


def ranking(request: HttpRequest) -> HttpResponse:
    return render(request, "games/coming_soon.html", {"title": _("Ranking")})
