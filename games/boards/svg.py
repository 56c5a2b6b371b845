"""What every board drawing shares: colours and the small SVG writers (every
text escaped with ``html.escape``).

Pure Python (no Django). A drawing is handed its words as a plain dict of one
language: they are gettext strings (the shared ones in ``games.display.boards``,
a game's own in its spec's ``board_words``), worded by the site, which hands the
page's patch code (static/js/board_patch.js) the same table
(``games.display.boards.board_words``).
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
    """Wrap each action's hit shape (an element of class ``hit``: the boards' CSS styles it by
    that class) into a focusable target element."""
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
