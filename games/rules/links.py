"""Where the rules explain a move error: the link an error message carries.

``game`` may be an engine slug ("kropki") or a rules-page slug
("cztery-w-rzedzie"); each game's anchors are in ``games/rules/<game>.py``
and reach this module through the catalogue.
"""

from __future__ import annotations

from django.urls import reverse

from games.catalogue import by_rules_slug, game_spec


def _spec(game: str):
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
