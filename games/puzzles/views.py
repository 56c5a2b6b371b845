"""Puzzles' pages (docs/puzzles.md): the index with the daily puzzle, a game's next puzzle, and
the puzzle itself. A try is the address's state: the page posts the moves so far (``proby``)
and the new one (``ruch``); the server judges them all again, so nothing is kept between
moves and a page works without its script (the board's clicks only fill the form)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods

from games import catalogue
from games.display.boards import render_board
from kropki_site.lib.numbers import number
from kropki_site.lib.refusals import Refusal

from . import selectors, services
from .models import Puzzle

SEEN_KEY = "puzzles_seen"  # a visitor's tried puzzles (the session), so "next" moves on
SEEN_MAX = 500


def _games() -> list[str]:
    return [spec.slug for spec in catalogue.games() if spec.puzzles]


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    counts = selectors.theme_counts()
    ratings = selectors.ratings_of(request.user)
    games = []
    for slug in _games():
        spec = catalogue.game_spec(slug)
        themes = [
            {"key": key, "words": words, "count": counts.get(slug, {}).get(key, 0)}
            for key, words in spec.puzzle_themes.items()
        ]
        games.append(
            {
                "slug": slug,
                "name": spec.name,
                "themes": themes,
                "count": sum(t["count"] for t in themes),
                "rating": ratings.get(slug),
            }
        )
    daily = selectors.daily(timezone.localdate())
    return render(
        request,
        "games/puzzles.html",
        {"games": games, "daily": daily, "daily_board": _board(daily) if daily else "", "daily_name": _name(daily)},
    )


@require_GET
def next_puzzle(request: HttpRequest, game: str) -> HttpResponse:
    if game not in _games():
        raise Http404
    theme = request.GET.get("motyw", "")
    found = selectors.next_for(request.user, game, theme=theme, seen=request.session.get(SEEN_KEY, []))
    if found is None:
        return render(request, "games/puzzle.html", {"error": Refusal("puzzle_none_left").message}, status=404)
    url = reverse("puzzle", args=[found.pk])
    return redirect(f"{url}?motyw={theme}" if theme else url)


@require_http_methods(["GET", "POST"])
def puzzle(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    row = selectors.puzzle(puzzle_id)
    if row is None:
        raise Http404
    data = request.POST if request.method == "POST" else request.GET
    try:
        tried = services.read_tried(data.get("proby", ""))
        move = number(data.get("ruch", ""), 5)
        if request.method == "POST" and move is not None:
            tried.append(move)
        result = services.attempt(request.user, row, tried)
    except Refusal as exc:
        return render(request, "games/puzzle.html", {"error": exc.message, "puzzle": row}, status=exc.status)
    if result.status != "going" and not request.user.is_authenticated:
        seen = request.session.get(SEEN_KEY, [])
        if row.pk not in seen:
            request.session[SEEN_KEY] = [*seen, row.pk][-SEEN_MAX:]
    game, state = result.game, result.state
    spec = catalogue.variant(row.variant).game_spec
    going = result.status == "going"
    legal = state.legal_actions() if going else []
    theme = request.GET.get("motyw", "")
    return render(
        request,
        "games/puzzle.html",
        {
            "puzzle": row,
            "name": _name(row),
            "theme_words": spec.puzzle_themes.get(row.theme, row.theme),
            "board_svg": render_board(
                state.view(), game.slug, interactive=bool(legal), lang=get_language(), legal=legal
            ),
            "player": result.start.current_player(),
            "status": result.status,
            "tried": ",".join(map(str, result.tried)),
            "legal": [(a, game.action_to_string(a)) for a in legal],
            "played": [game.action_to_string(a) for a in state.history[len(row.actions) :]],
            "replied": len(state.history) - len(row.actions) > len(result.tried),  # the line answered
            "solution": [game.action_to_string(a) for a in row.line] if not going else [],
            "change": result.change,
            "rating": selectors.rating_of(request.user, spec.slug),
            "next_url": reverse("puzzles_next", args=[spec.slug]) + (f"?motyw={theme}" if theme else ""),
            "again_url": reverse("puzzle", args=[row.pk]),
            "board_url": _analysis_url(row),
        },
    )


def _name(row: Puzzle | None) -> str:
    return str(catalogue.variant_name(row.variant)) if row else ""


def _board(row: Puzzle) -> str:
    game, state = services.start_of(row)
    return render_board(state.view(), game.slug, lang=get_language(), coords=False)


def _analysis_url(row: Puzzle) -> str:
    query = {"ruchy": ",".join(map(str, row.actions))}
    return reverse("analysis_board", args=[row.variant]) + "?" + urlencode(query)
