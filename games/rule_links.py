"""Which rule is behind an error: engine error codes -> rules-page anchors.

Pure Python. The live match page turns an error frame into a link with
``rule_anchor(game, code)``; the anchors are the stable ``id``s of the
sections of ``/zasady/<rules slug>/`` (templates/games/rules/), the same in
both languages.

``game`` may be an engine slug ("kropki", "connect4", "dots_and_boxes") or a
rules-page slug ("kropki", "cztery-w-rzedzie", "kropki-i-kwadraty").

    >>> rule_anchor("connect4", "column_full")
    'kolumny'
    >>> rule_fragment("dots_and_boxes", "not_your_turn")
    ('kropki-i-kwadraty', 'dodatkowy-ruch')
"""

from __future__ import annotations

# Engine slug -> rules page slug (the <slug> of /zasady/<slug>/).
RULES_SLUGS = {
    "kropki": "kropki",
    "connect4": "cztery-w-rzedzie",
    "dots_and_boxes": "kropki-i-kwadraty",
}
ENGINE_SLUGS = {page: engine for engine, page in RULES_SLUGS.items()}

# Every section id a rules page must have (tests/rules/test_pages.py checks them).
SECTIONS = {
    "kropki": (
        "pierwsza-gra", "zasady", "plansza-i-ruch", "ciag", "okrazenie-puste", "kropka-w-okrazeniu",
        "kolejnosc", "poza-gra", "wieksze-okrazenie", "liczenie", "konczenie", "pelna-plansza",
        "rozmiary", "zasady-serwisu", "zegar", "pomylki", "zrodla",
    ),
    "connect4": (
        "pierwsza-gra", "zasady", "kolumny", "cztery-w-linii", "dluzsze-linie", "pelna-plansza",
        "wczesny-remis", "zasady-serwisu", "zegar", "pomylki", "zrodla",
    ),
    "dots_and_boxes": (
        "pierwsza-gra", "zasady", "odcinki", "kwadraty", "dodatkowy-ruch", "koniec", "lancuchy",
        "zasady-serwisu", "zegar", "pomylki", "zrodla",
    ),
}

RULE_ANCHORS: dict[str, dict[str, str]] = {
    "kropki": {
        "off_board": "plansza-i-ruch",
        "occupied": "plansza-i-ruch",
        "inside_territory": "poza-gra",
        "column_full": "plansza-i-ruch",
        "segment_drawn": "plansza-i-ruch",
        "not_your_turn": "plansza-i-ruch",
        "player_has_ended": "konczenie",
        "game_over": "konczenie",
        "unknown_action": "plansza-i-ruch",
        # match-level codes
        "turn_expired": "zegar",
        "match_not_active": "konczenie",
    },
    "connect4": {
        "off_board": "kolumny",
        "occupied": "kolumny",
        "inside_territory": "kolumny",
        "column_full": "kolumny",
        "segment_drawn": "kolumny",
        "not_your_turn": "kolumny",
        "player_has_ended": "cztery-w-linii",
        "game_over": "cztery-w-linii",
        "unknown_action": "kolumny",
        "turn_expired": "zegar",
        "match_not_active": "cztery-w-linii",
    },
    "dots_and_boxes": {
        "off_board": "odcinki",
        "occupied": "odcinki",
        "inside_territory": "odcinki",
        "column_full": "odcinki",
        "segment_drawn": "odcinki",
        "not_your_turn": "dodatkowy-ruch",
        "player_has_ended": "koniec",
        "game_over": "koniec",
        "unknown_action": "odcinki",
        "turn_expired": "zegar",
        "match_not_active": "koniec",
    },
}


def _engine_slug(game: str) -> str:
    return ENGINE_SLUGS.get(game, game)


def rule_anchor(game: str, code: str) -> str | None:
    """The section id on the game's rules page that explains ``code``, or None."""
    return RULE_ANCHORS.get(_engine_slug(game), {}).get(code)


def rule_fragment(game: str, code: str) -> tuple[str, str] | None:
    """(rules page slug, anchor) for ``code`` in ``game``, or None.

    The URL is ``reverse("rules", args=[slug]) + "#" + anchor``."""
    engine = _engine_slug(game)
    anchor = rule_anchor(engine, code)
    if anchor is None or engine not in RULES_SLUGS:
        return None
    return RULES_SLUGS[engine], anchor
