"""The rules pages and the home page.

The rules prose lives in one template per game and language
(``templates/games/rules/<slug>.<lang>.html``); the diagrams in it come from
``games.diagrams`` (move lists checked by the engine) drawn by
``games.render``, the same code as the live board.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games import diagrams
from games.render import render_board
from games.rule_links import ENGINE_SLUGS, rule_fragment

log = logging.getLogger(__name__)

# Rules page slug -> display name, in the order of the site.
GAME_NAMES = {
    "kropki": _("Kropki"),
    "cztery-w-rzedzie": _("Cztery w rzędzie"),
    "kropki-i-kwadraty": _("Kropki i kwadraty"),
}
LANGUAGES = ("pl", "en")

# The diagram each game shows on the home page (its final position).
HOME_PICTURES = {
    "kropki": "kropki-diagonal",
    "cztery-w-rzedzie": "c4-rising",
    "kropki-i-kwadraty": "dab-two-boxes",
}


def current_language() -> str:
    lang = (get_language() or "pl")[:2]
    return lang if lang in LANGUAGES else "pl"


@lru_cache(maxsize=None)
def _rendered_diagrams(engine_slug: str, lang: str) -> dict[str, dict[str, Any]]:
    """Every diagram of one game drawn in ``lang``, keyed by its key with ``_``
    for ``-`` (usable in templates: ``d.kropki_capture``). Cached: the move
    lists are constants."""
    drawn = {}
    for key, diagram in diagrams.DIAGRAMS.items():
        if diagram.slug != engine_slug:
            continue
        item = diagram.render(lang)
        item["before"] = mark_safe(item["before"])  # render.py escapes every text it writes
        item["after"] = mark_safe(item["after"])
        drawn[key.replace("-", "_")] = item
    return drawn


@lru_cache(maxsize=None)
def _home_picture(rules_slug: str, lang: str) -> str:
    diagram = diagrams.get(HOME_PICTURES[rules_slug])
    state, _effects = diagram.replay()
    return mark_safe(render_board(state.view(), diagram.slug, title=str(GAME_NAMES[rules_slug]), lang=lang,
                                  coords=False))


def rule_url(game: str, code: str) -> str | None:
    """The rules-page URL (with its #anchor) explaining error ``code`` in
    ``game`` (engine or rules slug), or None: for error messages' links."""
    fragment = rule_fragment(game, code)
    if fragment is None:
        return None
    slug, anchor = fragment
    return f"{reverse('rules', args=[slug])}#{anchor}"


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"games": GAME_NAMES})


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in GAME_NAMES:
        raise Http404
    lang = current_language()
    context = {
        "slug": slug,
        "title": GAME_NAMES[slug],
        "content_template": f"games/rules/{slug}.{lang}.html",
        "d": _rendered_diagrams(ENGINE_SLUGS[slug], lang),
        "games": GAME_NAMES,
    }
    return render(request, "games/rules/page.html", context)


def live_summary(limit: int = 5) -> dict[str, Any]:
    """How many people are playing and watching now, and a few live matches.

    ``playing``: distinct people in active matches; ``watching``: open
    spectator sockets on match pages (games.presence, shared by every daphne
    process); ``matches``: up to ``limit`` active matches between two people,
    newest first, as dicts with ``variant``, ``pink``, ``blue`` and ``url``.
    """
    from games import presence
    from games.models import Match

    active = Match.objects.filter(status=Match.Status.ACTIVE)
    pinks = active.filter(pink__isnull=False).values("pink_id")
    blues = active.filter(blue__isnull=False).values("blue_id")
    playing = pinks.union(blues).count()  # union drops duplicates: each person once
    try:
        watching = presence.spectator_count()
    except Exception:  # Redis away: the page still renders, without the count
        log.warning("presence count unavailable", exc_info=True)
        watching = 0
    matches = [
        {
            "variant": match.get_variant_display(),
            "pink": match.pink.username,
            "blue": match.blue.username,
            "url": reverse("match", args=[match.pk]),
        }
        for match in active.filter(pink__isnull=False, blue__isnull=False).select_related("pink", "blue")[:limit]
    ]
    return {"playing": playing, "watching": watching, "matches": matches}


def home(request: HttpRequest) -> HttpResponse:
    lang = current_language()
    games = [
        {"slug": slug, "name": name, "picture": _home_picture(slug, lang)}
        for slug, name in GAME_NAMES.items()
    ]
    return render(request, "games/home.html", {"games": games, "live": live_summary()})
