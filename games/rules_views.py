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

from django.conf import settings
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

# One sentence per game, for the home page and the rules index.
GAME_SUMMARIES = {
    "kropki": _("Surround your opponent's dots with a closed chain of yours. Boards of 10×10 and 20×20."),
    "cztery-w-rzedzie": _("Drop discs into seven columns and be the first with four in a line."),
    "kropki-i-kwadraty": _("Draw lines between dots; the fourth side of a box wins it and another move."),
}
# The id of the common questions' section on every rules page.
FAQ_ANCHOR = "pomylki"

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


def _game_cards(lang: str) -> list[dict[str, Any]]:
    """Each game's slug, name, small picture and one-sentence summary."""
    return [
        {"slug": slug, "name": name, "picture": _home_picture(slug, lang), "summary": GAME_SUMMARIES[slug]}
        for slug, name in GAME_NAMES.items()
    ]


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"games": _game_cards(current_language())})


def faq(request: HttpRequest) -> HttpResponse:
    """Questions about the site, and the way to each rules page's common questions."""
    games = [
        {"name": name, "url": f"{reverse('rules', args=[slug])}#{FAQ_ANCHOR}"} for slug, name in GAME_NAMES.items()
    ]
    return render(request, "games/faq.html", {"games": games, "move_seconds": settings.MOVE_SECONDS})


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

    ``playing``: distinct people in active matches between two people;
    ``watching``: open spectator sockets on match pages (games.presence,
    shared by every daphne process); ``matches``: up to ``limit`` of those
    matches, newest first, as dicts with ``variant``, ``pink``, ``blue`` and ``url``.

    Games against the computer are practice, not live play: they are neither
    counted nor listed, so the count and the list always agree.
    """
    from games import presence
    from games.models import Match

    active = Match.objects.filter(status=Match.Status.ACTIVE, pink__isnull=False, blue__isnull=False)
    pinks = active.values("pink_id")
    blues = active.values("blue_id")
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
        for match in active.select_related("pink", "blue")[:limit]
    ]
    return {"playing": playing, "watching": watching, "matches": matches}


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", {"games": _game_cards(current_language()), "live": live_summary()})
