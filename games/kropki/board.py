"""The Kropki board: dots, live chains, territories and the legal points as targets."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.boards.svg import (
    COLOURS,
    GRID,
    HIGHLIGHT,
    LABEL,
    el,
    num,
    open_svg,
    player_name,
    targets,
)
from games.engine.base import column_name

_K_STEP = 28.0
_K_MARGIN = 24.0


def _kropki_xy(x: int, y: int) -> tuple[float, float]:
    return _K_MARGIN + x * _K_STEP, _K_MARGIN + y * _K_STEP


def kropki_legal(view: dict[str, Any]) -> list[int]:
    """The board actions (dots) a Kropki view allows: empty, not in territory."""
    if view.get("to_move") is None:
        return []
    width = view["width"]
    taken = {(d[0], d[1]) for d in view["dots"]}
    territory = view["territory"]
    return [i for i in range(width * view["height"]) if territory[i] == "0" and (i % width, i // width) not in taken]


def _kropki_dot(x: int, y: int, player: int, classes: str, r: float = 6.0, key: int | None = None) -> str:
    cx, cy = _kropki_xy(x, y)
    colour = COLOURS[player]["ink"]
    if player == 1:
        return el("circle", class_=f"dot p1{classes}", data_p=key, cx=cx, cy=cy, r=r, fill=colour)
    side = r * 1.7
    return el(
        "rect",
        class_=f"dot p2{classes}",
        data_p=key,
        x=cx - side / 2,
        y=cy - side / 2,
        width=side,
        height=side,
        fill=colour,
    )


def describe(view: dict[str, Any], words: dict[str, Any]) -> str:
    w = words
    parts = [f"{words['name']}, {w['board']} {view['width']}×{view['height']}."]
    for player in (1, 2):
        names = []
        for x, y, owner, captured in view["dots"]:
            if owner == player:
                names.append(f"{column_name(x)}{y + 1}" + (f" ({w['captured']})" if captured else ""))
        parts.append(f"{player_name(player, words).capitalize()} {w['dots']}: {', '.join(names) or w['none']}.")
    live_chains = _live_chains(view)
    if live_chains:
        owners = ", ".join(player_name(c["owner"], words) for c in live_chains)
        parts.append(f"{w['territories'].capitalize()}: {len(live_chains)} ({owners}).")
    if view.get("empty_enclosures"):
        empty_owners: list[int] = sorted({e[2] for e in view["empty_enclosures"]})
        parts.append(f"{w['empty_encl'].capitalize()}: {', '.join(player_name(o, words) for o in empty_owners)}.")
    s1, s2 = view["scores"]
    parts.append(f"{w['score'].capitalize()} {s1}:{s2}.")
    if view.get("last"):
        lx, ly = view["last"]
        parts.append(f"{w['last'].capitalize()}: {column_name(lx)}{ly + 1}.")
    ended = [p for p in (1, 2) if view.get("ended", [False, False])[p - 1]]
    for p in ended:
        parts.append(f"{player_name(p, words).capitalize()} {w['ended']}.")
    if view.get("to_move") is None:
        parts.append(f"{w['over'].capitalize()}.")
    return " ".join(parts)


def _live_chains(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Territory chains still standing (not swallowed by a bigger enclosure)."""
    captured = {(d[0], d[1]) for d in view["dots"] if d[3]}
    return [c for c in view.get("chains", []) if not any((p[0], p[1]) in captured for p in c["chain"])]


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
    width, height = view["width"], view["height"]
    total_w = 2 * _K_MARGIN + (width - 1) * _K_STEP
    total_h = 2 * _K_MARGIN + (height - 1) * _K_STEP
    desc = describe(view, words)
    name = title or words["name"]
    out = open_svg("kropki", total_w, total_h, name if interactive else f"{name}. {desc}", name, desc, interactive)
    out.append(el("rect", class_="paper", x=0, y=0, width=total_w, height=total_h, fill="#fffdf8"))

    # Grid lines and coordinates.
    out.append(f'<g class="grid" stroke="{GRID}" stroke-width="1">')
    x0, y0 = _kropki_xy(0, 0)
    x1, y1 = _kropki_xy(width - 1, height - 1)
    for x in range(width):
        cx, _ = _kropki_xy(x, 0)
        out.append(el("line", x1=cx, y1=y0, x2=cx, y2=y1))
    for y in range(height):
        _, cy = _kropki_xy(0, y)
        out.append(el("line", x1=x0, y1=cy, x2=x1, y2=cy))
    out.append("</g>")
    if coords:
        out.append(
            f'<g class="coords" fill="{LABEL}" font-size="10" font-family="sans-serif" text-anchor="middle" aria-hidden="true">'
        )
        for x in range(width):
            cx, _ = _kropki_xy(x, 0)
            out.append(f'<text x="{num(cx)}" y="{num(_K_MARGIN - 12)}">{column_name(x)}</text>')
        for y in range(height):
            _, cy = _kropki_xy(0, y)
            out.append(f'<text x="{num(_K_MARGIN - 14)}" y="{num(cy + 3.5)}">{y + 1}</text>')
        out.append("</g>")

    # Territory: the standing chains, filled; swallowed ones as a faint outline.
    # Layers are groups and every point's element carries data-p (its action
    # id): static/js/board_patch.js patches a live board in place.
    captured = {(d[0], d[1]) for d in view["dots"] if d[3]}
    out.append('<g class="territories">')
    for chain in view.get("chains", []):
        owner = chain["owner"]
        pts = " ".join(f"{num(px)},{num(py)}" for px, py in (_kropki_xy(p[0], p[1]) for p in chain["chain"]))
        if any((p[0], p[1]) in captured for p in chain["chain"]):
            out.append(
                el(
                    "polygon",
                    class_=f"chain old p{owner}",
                    points=pts,
                    fill="none",
                    stroke=COLOURS[owner]["ink"],
                    stroke_width=1,
                    stroke_opacity=0.35,
                )
            )
        else:
            out.append(
                el(
                    "polygon",
                    class_=f"territory p{owner}",
                    points=pts,
                    fill=COLOURS[owner]["fill"],
                    fill_opacity=0.28,
                    stroke=COLOURS[owner]["ink"],
                    stroke_width=2.5,
                    stroke_linejoin="round",
                )
            )
    out.append("</g>")
    # Territory points not covered by a standing polygon still get a mark.
    territory = view["territory"]
    out.append('<g class="grounds">')
    for i, owner_char in enumerate(territory):
        if owner_char != "0":
            px, py = _kropki_xy(i % width, i // width)
            owner = int(owner_char)
            out.append(
                el(
                    "rect",
                    class_=f"ground p{owner}",
                    data_p=i,
                    x=px - 5,
                    y=py - 5,
                    width=10,
                    height=10,
                    fill=COLOURS[owner]["fill"],
                    fill_opacity=0.18,
                )
            )
    out.append("</g>")
    # Empty enclosures: a subtle small ring at each point inside.
    out.append('<g class="enclosures">')
    for ex, ey, owner in view.get("empty_enclosures", []):
        px, py = _kropki_xy(ex, ey)
        out.append(
            el(
                "circle",
                class_=f"empty-enclosure p{owner}",
                data_p=ey * width + ex,
                cx=px,
                cy=py,
                r=3.5,
                fill="none",
                stroke=COLOURS[owner]["ink"],
                stroke_width=1,
                stroke_dasharray="2 2",
                stroke_opacity=0.7,
            )
        )
    out.append("</g>")

    # Dots.
    out.append('<g class="dots">')
    for x, y, owner, is_captured in view["dots"]:
        if is_captured:
            cx, cy = _kropki_xy(x, y)
            out.append(f'<g class="captured" data-p="{y * width + x}" opacity="0.45">')
            out.append(_kropki_dot(x, y, owner, " captured"))
            out.append(
                el(
                    "path",
                    class_="cross",
                    d=f"M{num(cx - 6)} {num(cy - 6)}L{num(cx + 6)} {num(cy + 6)}"
                    f"M{num(cx + 6)} {num(cy - 6)}L{num(cx - 6)} {num(cy + 6)}",
                    stroke="#1d232b",
                    stroke_width=1.5,
                )
            )
            out.append("</g>")
        else:
            out.append(_kropki_dot(x, y, owner, "", key=y * width + x))
    out.append("</g>")

    if view.get("last"):
        lx, ly = view["last"]
        cx, cy = _kropki_xy(lx, ly)
        out.append(el("circle", class_="last", cx=cx, cy=cy, r=10, fill="none", stroke="#1d232b", stroke_width=2))
    for point in highlight or ():
        cx, cy = _kropki_xy(point[0], point[1])
        out.append(
            el(
                "circle",
                class_="highlight",
                cx=cx,
                cy=cy,
                r=10,
                fill="none",
                stroke=HIGHLIGHT,
                stroke_width=2.5,
                stroke_dasharray="4 3",
            )
        )

    if interactive:
        actions = kropki_legal(view) if legal is None else [a for a in legal if a < width * height]
        out.extend(
            targets(
                actions,
                roving,
                lambda a: (a % width, a // width),
                lambda a: f"{words['dot']} {column_name(a % width)}{a // width + 1}",
                lambda a: el(
                    "circle",
                    cx=_kropki_xy(a % width, a // width)[0],
                    cy=_kropki_xy(a % width, a // width)[1],
                    r=_K_STEP / 2,
                    fill="#000",
                    fill_opacity=0,
                    class_="hit",
                ),
            )
        )
    out.append("</svg>")
    return "".join(out)


def marks(game: Any, actions: list[int]) -> list[Any]:
    """What a rules diagram marks for ``actions`` still to come: their points (not "end")."""
    return [list(game.xy(action)) for action in actions if action != game.end_action]
