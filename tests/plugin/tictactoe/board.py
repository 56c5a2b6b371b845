"""The board: three rows of three cells, X for the first player, O for the second."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from games.engine.base import Game

CELL = 40


def describe(view: dict[str, Any], words: dict[str, Any]) -> str:
    marks = " / ".join("".join(".XO"[c] for c in view["cells"][r * 3 : r * 3 + 3]) for r in range(3))
    return f"{words['name']}: {marks}."


def render(
    view: dict[str, Any],
    *,
    interactive: bool,
    title: str,
    highlight: Iterable[Any],
    words: dict[str, Any],
    legal: list[int] | None,
    coords: bool,
    roving: bool | None,
) -> str:
    desc = describe(view, words)
    name = title or words["name"]
    role = "group" if interactive else "img"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-tictactoe" viewBox="0 0 120 120" '
        f'width="120" height="120" role="{role}" aria-label="{escape(name)}">',
        f"<title>{escape(name)}</title><desc>{escape(desc)}</desc>",
    ]
    for i, cell in enumerate(view["cells"]):
        x, y = i % 3 * CELL, i // 3 * CELL
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="none" stroke="#999"/>')
        if cell:
            out.append(
                f'<text class="mark p{cell}" x="{x + 20}" y="{y + 27}" text-anchor="middle">{"XO"[cell - 1]}</text>'
            )
    if interactive:
        out.append('<g class="targets">')
        cells = legal if legal is not None else [i for i, c in enumerate(view["cells"]) if not c]
        for action in (action for action in cells if action < len(view["cells"])):  # "end" has its button
            x, y = action % 3 * CELL, action // 3 * CELL
            out.append(
                f'<g class="target" data-action="{action}" data-col="{action % 3}" data-row="{action // 3}" '
                f'role="button" tabindex="0" aria-label="{escape(words["name"])} {action}">'
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill-opacity="0"/></g>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def marks(game: Game, actions: list[int]) -> list[Any]:
    return list(actions)
