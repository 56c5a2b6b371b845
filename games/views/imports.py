"""Import a game played elsewhere (/import/): paste or upload SGF (Kropki) or this site's JSON
export (any game); the game's record page follows, where its review may be asked for."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.ip import client_ip
from games.play.imports import MAX_TEXT, game_import
from kropki_site.lib.refusals import Refusal


@require_http_methods(["GET", "POST"])
def import_game(request: HttpRequest) -> HttpResponse:
    error, text = None, ""
    if request.method == "POST":
        upload = request.FILES.get("file")
        text = request.POST.get("text", "")
        if upload is not None:
            raw = upload.read(MAX_TEXT + 1)
            text = raw.decode("utf-8", errors="replace") if len(raw) <= MAX_TEXT else "x" * (MAX_TEXT + 1)
        try:
            match = game_import(
                text=text,
                user_id=request.user.pk if request.user.is_authenticated else None,
                address=client_ip(request),
            )
        except Refusal as exc:
            error = exc.message
        else:
            return redirect("record", match_id=match.pk)
    return render(request, "games/import.html", {"error": error, "text": text[:MAX_TEXT]}, status=400 if error else 200)
