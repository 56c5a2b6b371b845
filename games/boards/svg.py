"""What every board drawing shares: colours, the board's own words in each
language, and the small SVG writers (every text escaped with ``html.escape``).

Pure Python (no Django). The words live here, not in the gettext catalogue,
because they are data the page's patch code (static/js/board_patch.js) gets
as a table too (``games.display.boards.board_words``); game names come from
the catalogue through gettext.
"""

from __future__ import annotations

from html import escape
from typing import Any

# Presentation colours (CSS custom properties in boards.css may override).
COLOURS = {
    1: {"ink": "#c2185b", "fill": "#f06292", "light": "#f8bbd0"},  # pink (różowe)
    2: {"ink": "#1f4fa3", "fill": "#1f4fa3", "light": "#bbdefb"},  # blue (niebieskie)
}
GRID = "#c9c2b2"
LABEL = "#55606e"
HIGHLIGHT = "#1b5e20"

WORDS = {
    "pl": {
        "board": "plansza",
        "pink": "różowe",
        "blue": "niebieskie",
        "dots": "kropki",
        "captured": "zabrana",
        "none": "brak",
        "score": "wynik",
        "last": "ostatni ruch",
        "to_move": "ruch mają",
        "over": "partia skończona",
        "territories": "państwa",
        "empty_encl": "puste okrążenia",
        "ended": "zakończyły grę",
        "dot": "kropka",
        "column": "kolumna",
        "segment": "odcinek",
        "bottom_up": "od dołu",
        "empty": "pusta",
        "win_line": "linia czterech",
        "segments_drawn": "narysowane odcinki",
        "boxes": "kwadraty",
        "box": "kwadrat",
        "P": "R",  # initials in boxes: Różowe / Niebieskie
        "B": "N",
        # Piłkarzyki
        "field": "boisko",
        "ball": "piłka",
        "goal_of": "bramka, którą atakują",
        "turn_path": "droga piłki w tej turze",
        "moves_again": "odbicie: ten sam gracz gra dalej",
        "direction": "kierunek",
        "dirs": "w górę|w górę w prawo|w prawo|w dół w prawo|w dół|w dół w lewo|w lewo|w górę w lewo",
        "used": "użyte odcinki",
        # the move list's and announcements' names of the engine's N, NE, E... (games/catalogue)
        "moves": "góra|góra-prawo|prawo|dół-prawo|dół|dół-lewo|lewo|góra-lewo",
    },
    "en": {
        "board": "board",
        "pink": "pink",
        "blue": "blue",
        "dots": "dots",
        "captured": "captured",
        "none": "none",
        "score": "score",
        "last": "last move",
        "to_move": "to move",
        "over": "game over",
        "territories": "territories",
        "empty_encl": "empty enclosures",
        "ended": "have ended the game",
        "dot": "dot",
        "column": "column",
        "segment": "segment",
        "bottom_up": "from the bottom",
        "empty": "empty",
        "win_line": "line of four",
        "segments_drawn": "segments drawn",
        "boxes": "boxes",
        "box": "box",
        "P": "P",
        "B": "B",
        # Piłkarzyki
        "field": "field",
        "ball": "ball",
        "goal_of": "goal attacked by",
        "turn_path": "the ball's path this turn",
        "moves_again": "bounce: the same player moves again",
        "direction": "direction",
        "dirs": "up|up-right|right|down-right|down|down-left|left|up-left",
        "used": "segments used",
        "moves": "N|NE|E|SE|S|SW|W|NW",
    },
}


def words_for(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["pl"])


def num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def attributes(**attrs: Any) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = num(value)
        parts.append(f'{name}="{escape(str(value), quote=True)}"')
    return " ".join(parts)


def el(tag: str, **attrs: Any) -> str:
    return f"<{tag} {attributes(**attrs)}/>"


def player_name(player: int, words: dict[str, Any]) -> str:
    name: str = words["pink"] if player == 1 else words["blue"]
    return name


def open_svg(slug: str, width: float, height: float, label: str, title: str, desc: str, interactive: bool) -> list[str]:
    role = "group" if interactive else "img"
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-{escape(slug)}'
        f'{" interactive" if interactive else ""}" viewBox="0 0 {num(width)} {num(height)}" '
        f'width="{num(width)}" height="{num(height)}" role="{role}" '
        f'aria-label="{escape(label, quote=True)}">'
    )
    return [head, f"<title>{escape(title)}</title>", f"<desc>{escape(desc)}</desc>"]


def targets(actions: list[int], roving: bool | None, colrow: Any, label: Any, shape: Any) -> list[str]:
    """Wrap each action's hit shape into a focusable target element."""
    if roving is None:
        roving = len(actions) > 12
    out = ['<g class="targets">']
    for i, action in enumerate(actions):
        col, row = colrow(action)
        tabindex = 0 if (not roving or i == 0) else -1
        out.append(
            f'<g class="target" data-action="{action}" data-col="{col}" data-row="{row}" role="button" '
            f'tabindex="{tabindex}" aria-label="{escape(label(action), quote=True)}">{shape(action)}</g>'
        )
    out.append("</g>")
    return out
