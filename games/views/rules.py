"""The rules pages, the rules index and the FAQ.

The rules prose lives in one template per game and language
(``templates/games/rules/<rules_slug>.<lang>.html``), the site's own rules every
game shares (the clock) in one include per language (``_site_rules.<lang>.html``,
worded for ``settings.MOVE_SECONDS``); the diagrams in the prose come
from the game's catalogue entry (move lists checked by the engine,
``games/<game>/diagrams.py``) drawn by ``games.display.boards``, the same code as
the live board.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from games import catalogue
from games.catalogue import GameSpec, by_rules_slug, game_spec
from games.display.boards import render_board
from games.rules.diagrams import Diagram

LANGUAGES = ("pl", "en")
# The id of the common questions' section on every rules page.
FAQ_ANCHOR = "pomylki"


def current_language() -> str:
    lang = (get_language() or "pl")[:2]
    return lang if lang in LANGUAGES else "pl"


def draw_diagram(spec: GameSpec, diagram: Diagram, lang: str) -> dict[str, Any]:
    """``before``/``after`` SVGs (``before`` is "" when not shown) and the caption."""
    final, _ = diagram.replay()
    with translation.override(lang):
        words = (gettext("Before"), gettext("After"))
        # a caption not in the .po files (a plug-in's) stays as written; gettext("") is the .po's header
        caption = gettext(diagram.caption) if diagram.caption else ""
    before = ""
    if diagram.show_before:
        start, _ = diagram.replay(diagram.split)
        marks = spec.board.marks(diagram.game(), diagram.marked_actions())
        before = render_board(start.view(), spec.slug, title=words[0], highlight=marks, lang=lang)
    after = render_board(final.view(), spec.slug, title=words[1] if diagram.show_before else "", lang=lang)
    return {
        "key": diagram.key,
        "before": mark_safe(before),  # the board escapes every text it writes
        "after": mark_safe(after),
        "caption": caption,
        "before_label": words[0],
        "after_label": words[1],
    }


@cache
def _rendered_diagrams(slug: str, lang: str) -> dict[str, dict[str, Any]]:
    """Every diagram of one game drawn in ``lang``, keyed by its key with ``_``
    for ``-`` (usable in templates: ``d.kropki_capture``). Cached: the move
    lists are constants."""
    spec = catalogue.game_spec(slug)
    return {diagram.key.replace("-", "_"): draw_diagram(spec, diagram, lang) for diagram in spec.diagrams}


@cache
def _home_picture(slug: str, lang: str) -> str:
    spec = catalogue.game_spec(slug)
    diagram = next((d for d in spec.diagrams if d.key == spec.home_picture), None)
    if diagram is None:
        return ""
    state, _effects = diagram.replay()
    with translation.override(lang):  # the cache keys on ``lang``: the name in it, whatever is active
        title = str(spec.name)
    return mark_safe(render_board(state.view(), slug, title=title, lang=lang, coords=False))


def seconds_words(count: int, lang: str) -> dict[str, str]:
    """The word for ``count`` seconds in ``lang``: ``nom`` after the number as a
    phrase ("Zegar: 60 sekund na ruch"), ``acc`` as the object ("masz 60 sekund").
    The rules pages are written per language, not through gettext, so Polish's
    three forms are chosen here: 1 sekunda/sekundę, 2-4 and 22-24... sekundy, else sekund."""
    if lang != "pl":
        word = "second" if count == 1 else "seconds"
        return {"nom": word, "acc": word}
    if count == 1:
        return {"nom": "sekunda", "acc": "sekundę"}
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return {"nom": "sekundy", "acc": "sekundy"}
    return {"nom": "sekund", "acc": "sekund"}


def game_cards(lang: str) -> list[dict[str, Any]]:
    """Each game's rules slug, name, small picture and one-sentence summary."""
    return [
        {"slug": spec.rules_slug, "name": spec.name, "picture": _home_picture(spec.slug, lang), "summary": spec.summary}
        for spec in catalogue.games()
    ]


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"games": game_cards(current_language())})


def faq(request: HttpRequest) -> HttpResponse:
    """Questions about the site, and the way to each rules page's common questions."""
    games = [
        {"name": spec.name, "url": f"{reverse('rules', args=[spec.rules_slug])}#{FAQ_ANCHOR}"}
        for spec in catalogue.games()
    ]
    return render(request, "games/faq.html", {"games": games, "move_seconds": settings.MOVE_SECONDS})


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    spec = catalogue.by_rules_slug(slug)
    if spec is None:
        raise Http404
    lang = current_language()
    context = {
        "slug": slug,
        "title": spec.name,
        "polish_name": spec.polish_name if lang != "pl" and spec.polish_name != str(spec.name) else "",
        "content_template": f"games/rules/{slug}.{lang}.html",
        "d": _rendered_diagrams(spec.slug, lang),
        "games": {s.rules_slug: s.name for s in catalogue.games()},
        # The site's own rules (templates/games/rules/_site_rules.<lang>.html): the clock, and
        # whether a timeout plays the game's "end" for the player instead of losing the match.
        "move_seconds": settings.MOVE_SECONDS,
        "seconds": seconds_words(settings.MOVE_SECONDS, lang),
        "has_end_action": spec.variants[0].game().end_action is not None,
    }
    return render(request, "games/rules/page.html", context)


# -- where the rules explain a move error: the link an error message carries ---------


def _spec(game: str) -> GameSpec | None:
    """The game called ``game``: an engine slug (\"kropki\") or a rules-page slug (\"cztery-w-rzedzie\")."""
    try:
        return game_spec(game)
    except KeyError:
        return by_rules_slug(game)


def rule_anchor(game: str, code: str) -> str | None:
    """The section id on the game's rules page that explains ``code``, or None."""
    spec = _spec(game)
    return None if spec is None else spec.rule_anchors.get(code)


def rule_fragment(game: str, code: str) -> tuple[str, str] | None:
    """(rules page slug, anchor) for ``code`` in ``game``, or None.

    The URL is ``reverse("rules", args=[slug]) + "#" + anchor``."""
    spec = _spec(game)
    anchor = None if spec is None else spec.rule_anchors.get(code)
    if spec is None or anchor is None:
        return None
    return spec.rules_slug, anchor


def rule_url(game: str, code: str) -> str | None:
    """The rules-page URL (with its #anchor) explaining error ``code`` in
    ``game``, or None: for error messages' links."""
    fragment = rule_fragment(game, code)
    if fragment is None:
        return None
    slug, anchor = fragment
    return f"{reverse('rules', args=[slug])}#{anchor}"
