"""The Cztery w rzędzie board: seven columns of discs, the winning line, the columns as targets."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.boards.svg import COLOURS, HIGHLIGHT, LABEL, el, num, open_svg, player_name, targets

_C_CELL = 40.0
_C_MARGIN = 12.0
_C_TOP = 18.0  # room for column numbers


def _c4_xy(col: int, row_from_top: int) -> tuple[float, float]:
    return _C_MARGIN + (col + 0.5) * _C_CELL, _C_TOP + _C_MARGIN + (row_from_top + 0.5) * _C_CELL


def connect4_legal(view: dict[str, Any]) -> list[int]:
    """Columns (0-based action ids) a Cztery w rzędzie view allows."""
    if view.get("winning_lines") or view.get("live_lines", 1) == 0:
        return []
    return [c for c in range(view["columns"]) if view["cells"][0][c] == 0]


def describe(view: dict[str, Any], words: dict[str, Any]) -> str:
    w = words
    rows, cols = view["rows"], view["columns"]
    parts = [f"{words['name']}, {cols}×{rows}."]
    initials = {1: w["pink"], 2: w["blue"]}
    for c in range(cols):
        stack = [view["cells"][r][c] for r in reversed(range(rows)) if view["cells"][r][c]]
        content = ", ".join(initials[p] for p in stack) if stack else w["empty"]
        parts.append(f"{w['column'].capitalize()} {c + 1} ({w['bottom_up']}): {content}.")
    for line in view.get("winning_lines", []):
        owner = view["cells"][rows - line[0][1]][line[0][0] - 1]
        cells = " – ".join(f"{c}/{r}" for c, r in (line[0], line[-1]))
        parts.append(f"{w['win_line'].capitalize()} ({player_name(owner, words)}): {cells}.")
    if view.get("last"):
        parts.append(f"{w['last'].capitalize()}: {w['column']} {view['last']['column']}.")
    return " ".join(parts)


def _c4_disc(col: int, row_top: int, player: int, extra: str = "", key: int | None = None) -> str:
    cx, cy = _c4_xy(col, row_top)
    r = _C_CELL * 0.4
    colour = COLOURS[player]
    parts = [
        el(
            "circle",
            class_=f"disc p{player}{extra}",
            data_p=key,
            cx=cx,
            cy=cy,
            r=r,
            fill=colour["fill"],
            stroke=colour["ink"],
            stroke_width=2,
        )
    ]
    if player == 2:
        parts.append(
            el("circle", class_="disc-ring", cx=cx, cy=cy, r=r * 0.55, fill="none", stroke="#ffffff", stroke_width=3)
        )
    else:
        parts.append(el("circle", class_="disc-dot", cx=cx, cy=cy, r=r * 0.22, fill="#ffffff", fill_opacity=0.85))
    return "".join(parts)


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
    rows, cols = view["rows"], view["columns"]
    total_w = 2 * _C_MARGIN + cols * _C_CELL
    total_h = _C_TOP + 2 * _C_MARGIN + rows * _C_CELL
    desc = describe(view, words)
    name = title or words["name"]
    out = open_svg("connect4", total_w, total_h, name if interactive else f"{name}. {desc}", name, desc, interactive)
    if coords:
        out.append(
            f'<g class="coords" fill="{LABEL}" font-size="11" font-family="sans-serif" text-anchor="middle" aria-hidden="true">'
        )
        for c in range(cols):
            cx, _ = _c4_xy(c, 0)
            out.append(f'<text x="{num(cx)}" y="{num(_C_TOP - 4)}">{c + 1}</text>')
        out.append("</g>")
    out.append(
        el(
            "rect",
            class_="frame",
            x=_C_MARGIN / 2,
            y=_C_TOP + _C_MARGIN / 2,
            width=total_w - _C_MARGIN,
            height=rows * _C_CELL + _C_MARGIN,
            rx=8,
            fill="#e8e4da",
            stroke="#b5ad9b",
            stroke_width=1.5,
        )
    )
    for r in range(rows):
        for c in range(cols):
            player = view["cells"][r][c]
            if player:
                out.append(_c4_disc(c, r, player, key=r * cols + c))
            else:
                cx, cy = _c4_xy(c, r)
                out.append(
                    el(
                        "circle",
                        class_="hole",
                        data_p=r * cols + c,
                        cx=cx,
                        cy=cy,
                        r=_C_CELL * 0.4,
                        fill="#fffdf8",
                        stroke="#b5ad9b",
                        stroke_width=1,
                    )
                )
    last = view.get("last")
    if last:
        cx, cy = _c4_xy(last["column"] - 1, rows - last["row"])
        out.append(
            el("circle", class_="last", cx=cx, cy=cy, r=_C_CELL * 0.47, fill="none", stroke="#1d232b", stroke_width=2.5)
        )
    for line in view.get("winning_lines", []):
        (c1, r1), (c2, r2) = line[0], line[-1]
        xa, ya = _c4_xy(c1 - 1, rows - r1)
        xb, yb = _c4_xy(c2 - 1, rows - r2)
        out.append(
            el(
                "line",
                class_="win-line",
                x1=xa,
                y1=ya,
                x2=xb,
                y2=yb,
                stroke="#1d232b",
                stroke_width=6,
                stroke_linecap="round",
                stroke_opacity=0.8,
            )
        )
    for column in highlight or ():
        c = int(column) - 1
        filled = sum(1 for r in range(rows) if view["cells"][r][c])
        row_top = rows - 1 - filled
        if 0 <= row_top < rows:
            cx, cy = _c4_xy(c, row_top)
            out.append(
                el(
                    "circle",
                    class_="highlight",
                    cx=cx,
                    cy=cy,
                    r=_C_CELL * 0.42,
                    fill="none",
                    stroke=HIGHLIGHT,
                    stroke_width=3,
                    stroke_dasharray="5 4",
                )
            )
    if interactive:
        actions = connect4_legal(view) if legal is None else list(legal)
        frame_y = _C_TOP + _C_MARGIN
        out.extend(
            targets(
                actions,
                roving,
                lambda a: (a, 0),
                lambda a: f"{words['column']} {a + 1}",
                lambda a: el(
                    "rect",
                    x=_C_MARGIN + a * _C_CELL,
                    y=frame_y - _C_MARGIN,
                    width=_C_CELL,
                    height=rows * _C_CELL + _C_MARGIN,
                    fill="#000",
                    fill_opacity=0,
                    class_="hit",
                ),
            )
        )
    out.append("</svg>")
    return "".join(out)


def marks(game: Any, actions: list[int]) -> list[Any]:
    """What a rules diagram marks for ``actions`` still to come: the first one's column (1..7)."""
    return [action + 1 for action in actions][:1]
