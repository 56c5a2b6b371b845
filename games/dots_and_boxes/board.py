"""The Kropki i kwadraty board: dots, drawn segments, owned boxes, the free segments as targets."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from games.boards.svg import COLOURS, HIGHLIGHT, LABEL, el, num, open_svg, player_name, targets
from games.engine.base import column_name

_B_STEP = 40.0
_B_MARGIN = 22.0


def _box_xy(r: int, c: int) -> tuple[float, float]:
    return _B_MARGIN + c * _B_STEP, _B_MARGIN + r * _B_STEP


def _segment_dots(view: dict[str, Any], segment: int) -> tuple[tuple[int, int], tuple[int, int]]:
    cols = view["cols"]
    split = (view["rows"] + 1) * cols
    if segment < split:
        r, c = divmod(segment, cols)
        return (r, c), (r, c + 1)
    r, c = divmod(segment - split, cols + 1)
    return (r, c), (r + 1, c)


def _segment_name(view: dict[str, Any], segment: int) -> str:
    (r1, c1), (r2, c2) = _segment_dots(view, segment)
    return f"{column_name(c1)}{r1 + 1}–{column_name(c2)}{r2 + 1}"


def dots_and_boxes_legal(view: dict[str, Any]) -> list[int]:
    """Undrawn segments, or none when a player already holds a majority."""
    owners = [o for row in view["boxes"] for o in row]
    if any(2 * owners.count(p) > len(owners) for p in (1, 2)):
        return []
    return [s for s, by in enumerate(view["drawn"]) if not by]


def describe(view: dict[str, Any], words: dict[str, Any]) -> str:
    w = words
    rows, cols = view["rows"], view["cols"]
    parts = [f"{words['name']}, {rows}×{cols}."]
    drawn = [s for s, by in enumerate(view["drawn"]) if by]
    parts.append(
        f"{w['segments_drawn'].capitalize()}: {len(drawn)}/{len(view['drawn'])}"
        + (": " + ", ".join(_segment_name(view, s) for s in drawn) if drawn else "")
        + "."
    )
    for player in (1, 2):
        boxes = [f"{column_name(c)}{r + 1}" for r in range(rows) for c in range(cols) if view["boxes"][r][c] == player]
        parts.append(
            f"{w['boxes'].capitalize()} ({player_name(player, words)}): {len(boxes)}"
            + (" — " + ", ".join(boxes) if boxes else "")
            + "."
        )
    if view.get("last") is not None:
        parts.append(f"{w['last'].capitalize()}: {_segment_name(view, view['last'])}.")
    return " ".join(parts)


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
    rows, cols = view["rows"], view["cols"]
    total_w = 2 * _B_MARGIN + cols * _B_STEP
    total_h = 2 * _B_MARGIN + rows * _B_STEP
    desc = describe(view, words)
    name = title or words["name"]
    w = words
    out = open_svg(
        "dots_and_boxes", total_w, total_h, name if interactive else f"{name}. {desc}", name, desc, interactive
    )
    out.append(el("rect", class_="paper", x=0, y=0, width=total_w, height=total_h, fill="#fffdf8"))
    if coords:
        out.append(
            f'<g class="coords" fill="{LABEL}" font-size="10" font-family="sans-serif" text-anchor="middle" aria-hidden="true">'
        )
        for c in range(cols + 1):
            x, _ = _box_xy(0, c)
            out.append(f'<text x="{num(x)}" y="{num(_B_MARGIN - 10)}">{column_name(c)}</text>')
        for r in range(rows + 1):
            _, y = _box_xy(r, 0)
            out.append(f'<text x="{num(_B_MARGIN - 13)}" y="{num(y + 3.5)}">{r + 1}</text>')
        out.append("</g>")
    # Boxes with the owner's initial.
    out.append('<g class="boxes">')
    for r in range(rows):
        for c in range(cols):
            owner = view["boxes"][r][c]
            if owner:
                x, y = _box_xy(r, c)
                out.append(
                    el(
                        "rect",
                        class_=f"box p{owner}",
                        data_b=r * cols + c,
                        x=x,
                        y=y,
                        width=_B_STEP,
                        height=_B_STEP,
                        fill=COLOURS[owner]["light"],
                    )
                )
                out.append(
                    f'<text class="box-initial p{owner}" x="{num(x + _B_STEP / 2)}" y="{num(y + _B_STEP / 2 + 6)}" '
                    f'text-anchor="middle" font-size="17" font-weight="700" font-family="sans-serif" '
                    f'fill="{COLOURS[owner]["ink"]}" aria-hidden="true">{escape(w["P"] if owner == 1 else w["B"])}</text>'
                )
    out.append("</g>")
    # Faint guides for undrawn segments, then the drawn ones.
    out.append('<g class="free">')
    for segment, by in enumerate(view["drawn"]):
        (r1, c1), (r2, c2) = _segment_dots(view, segment)
        xa, ya = _box_xy(r1, c1)
        xb, yb = _box_xy(r2, c2)
        if not by:
            out.append(
                el(
                    "line",
                    class_="segment free",
                    data_s=segment,
                    x1=xa,
                    y1=ya,
                    x2=xb,
                    y2=yb,
                    stroke="#e4dfd3",
                    stroke_width=1,
                    stroke_dasharray="2 4",
                )
            )
    out.append('</g><g class="drawn">')
    for segment, by in enumerate(view["drawn"]):
        if by:
            (r1, c1), (r2, c2) = _segment_dots(view, segment)
            xa, ya = _box_xy(r1, c1)
            xb, yb = _box_xy(r2, c2)
            out.append(
                el(
                    "line",
                    class_=f"segment p{by}",
                    data_s=segment,
                    x1=xa,
                    y1=ya,
                    x2=xb,
                    y2=yb,
                    stroke=COLOURS[by]["ink"],
                    stroke_width=4,
                    stroke_linecap="round",
                    stroke_dasharray="9 4" if by == 2 else None,
                )
            )
    out.append("</g>")
    last = view.get("last")
    if last is not None:
        (r1, c1), (r2, c2) = _segment_dots(view, last)
        xa, ya = _box_xy(r1, c1)
        xb, yb = _box_xy(r2, c2)
        out.append(
            el(
                "line",
                class_="last",
                x1=xa,
                y1=ya,
                x2=xb,
                y2=yb,
                stroke="#1d232b",
                stroke_width=9,
                stroke_opacity=0.18,
                stroke_linecap="round",
            )
        )
    for segment in highlight or ():
        (r1, c1), (r2, c2) = _segment_dots(view, int(segment))
        xa, ya = _box_xy(r1, c1)
        xb, yb = _box_xy(r2, c2)
        out.append(
            el(
                "line",
                class_="highlight",
                x1=xa,
                y1=ya,
                x2=xb,
                y2=yb,
                stroke=HIGHLIGHT,
                stroke_width=3,
                stroke_dasharray="5 4",
            )
        )
    for r in range(rows + 1):
        for c in range(cols + 1):
            x, y = _box_xy(r, c)
            out.append(el("circle", class_="dot", cx=x, cy=y, r=4, fill="#1d232b"))
    if interactive:
        actions = dots_and_boxes_legal(view) if legal is None else list(legal)
        half = _B_STEP * 0.22

        def hit(segment: int) -> str:
            (r1, c1), (r2, _c2) = _segment_dots(view, segment)
            xa, ya = _box_xy(r1, c1)
            if r1 == r2:  # horizontal
                return el(
                    "rect",
                    x=xa + 5,
                    y=ya - half,
                    width=_B_STEP - 10,
                    height=2 * half,
                    fill="#000",
                    fill_opacity=0,
                    class_="hit",
                )
            return el(
                "rect",
                x=xa - half,
                y=ya + 5,
                width=2 * half,
                height=_B_STEP - 10,
                fill="#000",
                fill_opacity=0,
                class_="hit",
            )

        out.extend(
            targets(
                actions,
                roving,
                lambda s: _segment_dots(view, s)[0][::-1],
                lambda s: f"{w['segment']} {_segment_name(view, s)}",
                hit,
            )
        )
    out.append("</svg>")
    return "".join(out)


def marks(game: Any, actions: list[int]) -> list[Any]:
    """What a rules diagram marks for ``actions`` still to come: their segments."""
    return list(actions)
