"""The Piłkarzyki board: the field and its border, both goals, every used
segment (pink solid, blue dashed), the ball, the path of the current turn
(a bounce keeps it growing), and the ball's legal neighbours as targets.

Keys (``data-key-actions`` on the board, read by static/js/match.js): the
arrows, the numeric keypad's eight directions and the top row's digits laid
out as the keypad (7 8 9 / 4 6 / 1 2 3: 8 up, 9 up-right, 6 right, 3
down-right, 2 down, 1 down-left, 4 left, 7 up-left; a laptop has no keypad)
point at the target of that direction; the same key again, or Enter, kicks.
The rules page says the same (templates/games/rules/pilkarzyki.*.html).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from html import escape
from typing import Any

from games.boards.svg import COLOURS, GRID, HIGHLIGHT, LABEL, el, num, open_svg, player_name, targets
from games.engine.base import column_name

STEP = 30.0
MARGIN = 26.0
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
# event.code / event.key -> direction (0 N, 1 NE, ... 7 NW)
KEYS = {
    "ArrowUp": 0,
    "ArrowRight": 2,
    "ArrowDown": 4,
    "ArrowLeft": 6,
    "Numpad8": 0,
    "Numpad9": 1,
    "Numpad6": 2,
    "Numpad3": 3,
    "Numpad2": 4,
    "Numpad1": 5,
    "Numpad4": 6,
    "Numpad7": 7,
    "Digit8": 0,
    "Digit9": 1,
    "Digit6": 2,
    "Digit3": 3,
    "Digit2": 4,
    "Digit1": 5,
    "Digit4": 6,
    "Digit7": 7,
}


def _xy(x: int, y: int) -> tuple[float, float]:
    return MARGIN + x * STEP, MARGIN + (y + 1) * STEP


def point_name(x: int, y: int) -> str:
    """a1 … i11 from the top left (goal points are rows 0 and 12)."""
    return f"{column_name(x)}{y + 1}"


def legal_from_view(view: dict[str, Any]) -> list[int]:
    return list(view["legal"])


def _direction_words(words: dict[str, Any]) -> list[str]:
    return str(words["dirs"]).split("|")


def describe(view: dict[str, Any], words: dict[str, Any]) -> str:
    w = words
    parts = [f"{w['name']}, {w['field']} {view['width']}×{view['length']}."]
    parts.append(f"{w['ball'].capitalize()}: {point_name(*view['ball'])}.")
    for goal in ("top", "bottom"):
        attacker = view["goals"][goal]["attacker"]
        cells = ", ".join(point_name(x, y) for x, y in view["goals"][goal]["points"])
        parts.append(f"{w['goal_of'].capitalize()} {player_name(attacker, words)}: {cells}.")
    parts.append(f"{w['used'].capitalize()}: {len(view['segments'])}.")
    if len(view["turn"]) > 1:
        parts.append(f"{w['turn_path'].capitalize()}: {' – '.join(point_name(x, y) for x, y in view['turn'])}.")
    if view["to_move"] is None:
        parts.append(f"{w['over'].capitalize()}.")
    else:
        parts.append(f"{w['to_move'].capitalize()}: {player_name(view['to_move'], words)}.")
        if view["moves_again"]:
            parts.append(f"{w['moves_again'].capitalize()}.")
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
    width, length = view["width"], view["length"]
    total_w = 2 * MARGIN + width * STEP
    total_h = 2 * MARGIN + (length + 2) * STEP
    desc = describe(view, words)
    name = title or words["name"]
    out = open_svg("pilkarzyki", total_w, total_h, name if interactive else f"{name}. {desc}", name, desc, interactive)
    if interactive:
        out[0] = out[0].replace("<svg ", f'<svg data-key-actions="{escape(json.dumps(KEYS), quote=True)}" ', 1)
    # the goals, tinted in the colour of the side that attacks them
    for goal in ("top", "bottom"):
        points = view["goals"][goal]["points"]
        attacker = view["goals"][goal]["attacker"]
        (x0, y0), (x1, _y1) = _xy(*points[0]), _xy(*points[-1])
        gy = y0 if goal == "top" else y0 - STEP
        out.append(
            el(
                "rect",
                class_=f"goal goal-{goal} p{attacker}",
                x=x0,
                y=gy,
                width=x1 - x0,
                height=STEP,
                fill=COLOURS[attacker]["light"],
                stroke="none",
            )
        )
    # the grid of points
    out.append('<g class="grid">')
    for y in range(length + 1):
        for x in range(width + 1):
            cx, cy = _xy(x, y)
            out.append(el("circle", cx=cx, cy=cy, r=1.6, fill=GRID))
    out.append("</g>")
    if coords:
        out.append(f'<g class="coords" font-size="10" font-family="sans-serif" fill="{LABEL}" aria-hidden="true">')
        for x in range(width + 1):
            cx, _ = _xy(x, length + 1)
            out.append(f'<text x="{num(cx)}" y="{num(total_h - 6)}" text-anchor="middle">{column_name(x)}</text>')
        for y in range(length + 1):
            _, cy = _xy(0, y)
            out.append(f'<text x="{num(MARGIN - 14)}" y="{num(cy + 3)}" text-anchor="middle">{y + 1}</text>')
        out.append("</g>")
    # the border
    out.append('<g class="border">')
    for x1, y1, x2, y2 in view["border"]:
        (ax, ay), (bx, by) = _xy(x1, y1), _xy(x2, y2)
        out.append(el("line", x1=ax, y1=ay, x2=bx, y2=by, stroke="#333", stroke_width=2.5, stroke_linecap="round"))
    out.append("</g>")
    # the segments played: pink solid, blue dashed
    out.append('<g class="segments">')
    for i, (x1, y1, x2, y2, owner) in enumerate(view["segments"]):
        (ax, ay), (bx, by) = _xy(x1, y1), _xy(x2, y2)
        last = " last" if i == len(view["segments"]) - 1 else ""
        out.append(
            el(
                "line",
                class_=f"segment p{owner}{last}",
                x1=ax,
                y1=ay,
                x2=bx,
                y2=by,
                stroke=COLOURS[owner]["ink"],
                stroke_width=2.2,
                stroke_linecap="round",
                stroke_dasharray="5 3" if owner == 2 else None,
            )
        )
    out.append("</g>")
    # the path of this turn: a bounce makes it longer and the same player moves again
    if len(view["turn"]) > 1:
        path = " ".join(f"{num(_xy(x, y)[0])},{num(_xy(x, y)[1])}" for x, y in view["turn"])
        out.append(
            el(
                "polyline",
                class_="turn-path",
                points=path,
                fill="none",
                stroke=HIGHLIGHT,
                stroke_width=6,
                stroke_opacity=0.35,
                stroke_linejoin="round",
                stroke_linecap="round",
            )
        )
    for spot in highlight:
        hx, hy = _xy(*spot)
        out.append(
            el(
                "circle",
                class_="highlight",
                cx=hx,
                cy=hy,
                r=8,
                fill="none",
                stroke=HIGHLIGHT,
                stroke_width=2,
                stroke_dasharray="3 2",
            )
        )
    bx, by = _xy(*view["ball"])
    ring = HIGHLIGHT if view["moves_again"] and view["to_move"] is not None else "#111"
    out.append(
        el(
            "circle",
            class_="ball" + (" moves-again" if view["moves_again"] else ""),
            cx=bx,
            cy=by,
            r=7,
            fill="#fff",
            stroke=ring,
            stroke_width=3,
        )
    )
    if interactive:
        ball_x, ball_y = view["ball"]
        actions = legal_from_view(view) if legal is None else [a for a in legal if 0 <= a < 8]
        dirs = _direction_words(words)

        def spot(action: int) -> tuple[int, int]:
            dx, dy = DIRECTIONS[action]
            return ball_x + dx, ball_y + dy

        out.extend(
            targets(
                actions,
                False,
                lambda a: spot(a),
                lambda a: f"{words['direction']} {dirs[a]} ({point_name(*spot(a))})",
                lambda a: el(
                    "circle",
                    cx=_xy(*spot(a))[0],
                    cy=_xy(*spot(a))[1],
                    r=STEP / 2.2,
                    fill="#000",
                    fill_opacity=0,
                    class_="hit",
                ),
            )
        )
    out.append("</svg>")
    return "".join(out)


def marks(game: Any, actions: list[int]) -> list[Any]:
    """A rules diagram marks where the moves still to come take the ball: it
    replays them from the start of the diagram's last turn, so the caller
    passes the actions; the points are computed from the state in the view."""
    return []
