"""Board pictures as SVG: the one code that draws every board on the site.

Pure Python (no Django): the live match page, the record page and the rules
diagrams all call it with a state's ``view()``.

API (keep it stable)
====================

``render_board(view, slug, *, interactive=False, title="", highlight=(),
lang="pl", legal=None, coords=True, roving=None, id_prefix="") -> str``

- ``view``: ``state.view()`` of the game's engine; ``slug``: the engine slug,
  ``"kropki"``, ``"connect4"`` or ``"dots_and_boxes"``.
- Returns one ``<svg>`` element (a string, safe to mark safe: every text in it
  is escaped with ``html.escape``). It has a ``viewBox``, ``width``/``height``
  (its natural size; CSS ``.board { max-width: 100%; height: auto }`` in
  ``static/css/boards.css`` scales it) and the classes ``board board-<slug>``.
- Players are told apart by colour *and* shape: Kropki pink dots are circles,
  blue dots are squares; Cztery w rzędzie blue discs carry a white ring;
  Kropki i kwadraty boxes carry the owner's initial and blue segments are
  drawn dashed. Every element has presentation attributes (fill, stroke…), so
  the picture is right without CSS; classes (``dot p1``, ``disc p2``,
  ``segment p1``, ``box p2``, ``territory p1``, ``last``, ``captured``,
  ``win-line``, ``highlight``, ``target``) let CSS restyle it.
- Not interactive: ``role="img"``, an ``aria-label`` and a ``<title>`` (``title``
  if given, else the game's name) plus a ``<desc>`` telling the position in
  words (in ``lang``: ``"pl"`` or ``"en"``).
- Interactive: ``role="group"`` with the same label; every playable target is
  an element with ``class="target"``, ``data-action="<engine action id>"``,
  ``role="button"``, ``tabindex`` and an ``aria-label`` in words
  (``"kropka e5"`` / ``"kolumna 3"`` / ``"odcinek a1–b1"``), plus
  ``data-col``/``data-row`` (board coordinates, 0-based, for arrow keys). The
  page's JS handles clicks and Enter/Space by event delegation on
  ``[data-action]``. Targets are exactly ``legal`` (action ids; default: derived
  from the view, i.e. the legal moves of the position). Kropki's "zakończ"
  (end) action is not on the board: it is the page's own button.
  ``roving`` (default: when there are more than 12 targets) gives
  ``tabindex="0"`` to one target only and ``-1`` to the rest (a roving tab
  stop: the JS moves it with the arrow keys using ``data-col``/``data-row``);
  otherwise every target has ``tabindex="0"``.
- ``highlight``: cells to mark with a dashed ring, e.g. the move a diagram is
  about to play: Kropki ``[x, y]`` points, Cztery w rzędzie column numbers
  ``1..7`` (marks the cell the disc will land on), Kropki i kwadraty segment
  ids.
- ``coords``: draw column letters/row numbers (Kropki, Kropki i kwadraty) or
  column numbers (Cztery w rzędzie) around the board.
- ``id_prefix``: reserved for ids inside the SVG (none are used today).

``describe(view, slug, lang="pl") -> str`` returns the words alone.
``GAME_NAMES[lang][slug]`` are the display names.
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable

from games.engine.kropki import column_name

__all__ = ["render_board", "describe", "board_words", "GAME_NAMES", "COLOURS", "column_name"]

# Presentation colours (CSS custom properties in boards.css may override).
COLOURS = {
    1: {"ink": "#c2185b", "fill": "#f06292", "light": "#f8bbd0"},  # pink (różowe)
    2: {"ink": "#1f4fa3", "fill": "#1f4fa3", "light": "#bbdefb"},  # blue (niebieskie)
}
GRID = "#c9c2b2"
LABEL = "#55606e"
HIGHLIGHT = "#1b5e20"

GAME_NAMES = {
    "pl": {"kropki": "Kropki", "connect4": "Cztery w rzędzie", "dots_and_boxes": "Kropki i kwadraty"},
    "en": {"kropki": "Kropki (Dots)", "connect4": "Cztery w rzędzie (Four in a row)", "dots_and_boxes": "Kropki i kwadraty (Dots and Boxes)"},
}

_WORDS = {
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
    },
}


def _words(lang: str) -> dict[str, str]:
    return _WORDS.get(lang, _WORDS["pl"])


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def _attrs(**attrs: Any) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = _num(value)
        parts.append(f'{name}="{escape(str(value), quote=True)}"')
    return " ".join(parts)


def _el(tag: str, **attrs: Any) -> str:
    return f"<{tag} {_attrs(**attrs)}/>"


def _player_name(player: int, lang: str) -> str:
    words = _words(lang)
    return words["pink"] if player == 1 else words["blue"]


def _open_svg(slug: str, width: float, height: float, label: str, title: str, desc: str, interactive: bool) -> list[str]:
    role = "group" if interactive else "img"
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-{escape(slug)}'
        f'{" interactive" if interactive else ""}" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'width="{_num(width)}" height="{_num(height)}" role="{role}" '
        f'aria-label="{escape(label, quote=True)}">'
    )
    return [head, f"<title>{escape(title)}</title>", f"<desc>{escape(desc)}</desc>"]


# ---------------------------------------------------------------- Kropki

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
    return [
        i
        for i in range(width * view["height"])
        if territory[i] == "0" and (i % width, i // width) not in taken
    ]


def _kropki_dot(x: int, y: int, player: int, classes: str, r: float = 6.0, key: int | None = None) -> str:
    cx, cy = _kropki_xy(x, y)
    colour = COLOURS[player]["ink"]
    if player == 1:
        return _el("circle", class_=f"dot p1{classes}", data_p=key, cx=cx, cy=cy, r=r, fill=colour)
    side = r * 1.7
    return _el("rect", class_=f"dot p2{classes}", data_p=key, x=cx - side / 2, y=cy - side / 2, width=side, height=side,
               fill=colour)


def _describe_kropki(view: dict[str, Any], lang: str) -> str:
    w = _words(lang)
    parts = [f"{GAME_NAMES.get(lang, GAME_NAMES['pl'])['kropki']}, {w['board']} {view['width']}×{view['height']}."]
    for player in (1, 2):
        names = []
        for x, y, owner, captured in view["dots"]:
            if owner == player:
                names.append(f"{column_name(x)}{y + 1}" + (f" ({w['captured']})" if captured else ""))
        parts.append(f"{_player_name(player, lang).capitalize()} {w['dots']}: {', '.join(names) or w['none']}.")
    live_chains = _live_chains(view)
    if live_chains:
        owners = ", ".join(_player_name(c["owner"], lang) for c in live_chains)
        parts.append(f"{w['territories'].capitalize()}: {len(live_chains)} ({owners}).")
    if view.get("empty_enclosures"):
        owners = sorted({e[2] for e in view["empty_enclosures"]})
        parts.append(f"{w['empty_encl'].capitalize()}: {', '.join(_player_name(o, lang) for o in owners)}.")
    s1, s2 = view["scores"]
    parts.append(f"{w['score'].capitalize()} {s1}:{s2}.")
    if view.get("last"):
        lx, ly = view["last"]
        parts.append(f"{w['last'].capitalize()}: {column_name(lx)}{ly + 1}.")
    ended = [p for p in (1, 2) if view.get("ended", [False, False])[p - 1]]
    for p in ended:
        parts.append(f"{_player_name(p, lang).capitalize()} {w['ended']}.")
    if view.get("to_move") is None:
        parts.append(f"{w['over'].capitalize()}.")
    return " ".join(parts)


def _live_chains(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Territory chains still standing (not swallowed by a bigger enclosure)."""
    captured = {(d[0], d[1]) for d in view["dots"] if d[3]}
    return [c for c in view.get("chains", []) if not any((p[0], p[1]) in captured for p in c["chain"])]


def _render_kropki(view: dict[str, Any], *, interactive: bool, title: str, highlight: Iterable[Any], lang: str,
                   legal: list[int] | None, coords: bool, roving: bool | None) -> str:
    width, height = view["width"], view["height"]
    total_w = 2 * _K_MARGIN + (width - 1) * _K_STEP
    total_h = 2 * _K_MARGIN + (height - 1) * _K_STEP
    desc = _describe_kropki(view, lang)
    name = title or GAME_NAMES.get(lang, GAME_NAMES["pl"])["kropki"]
    out = _open_svg("kropki", total_w, total_h, name if interactive else f"{name}. {desc}", name, desc, interactive)
    out.append(_el("rect", class_="paper", x=0, y=0, width=total_w, height=total_h, fill="#fffdf8"))

    # Grid lines and coordinates.
    out.append('<g class="grid" stroke="%s" stroke-width="1">' % GRID)
    x0, y0 = _kropki_xy(0, 0)
    x1, y1 = _kropki_xy(width - 1, height - 1)
    for x in range(width):
        cx, _ = _kropki_xy(x, 0)
        out.append(_el("line", x1=cx, y1=y0, x2=cx, y2=y1))
    for y in range(height):
        _, cy = _kropki_xy(0, y)
        out.append(_el("line", x1=x0, y1=cy, x2=x1, y2=cy))
    out.append("</g>")
    if coords:
        out.append(f'<g class="coords" fill="{LABEL}" font-size="10" font-family="sans-serif" text-anchor="middle" aria-hidden="true">')
        for x in range(width):
            cx, _ = _kropki_xy(x, 0)
            out.append(f'<text x="{_num(cx)}" y="{_num(_K_MARGIN - 12)}">{column_name(x)}</text>')
        for y in range(height):
            _, cy = _kropki_xy(0, y)
            out.append(f'<text x="{_num(_K_MARGIN - 14)}" y="{_num(cy + 3.5)}">{y + 1}</text>')
        out.append("</g>")

    # Territory: the standing chains, filled; swallowed ones as a faint outline.
    # Layers are groups and every point's element carries data-p (its action
    # id): static/js/board_patch.js patches a live board in place.
    captured = {(d[0], d[1]) for d in view["dots"] if d[3]}
    out.append('<g class="territories">')
    for chain in view.get("chains", []):
        owner = chain["owner"]
        pts = " ".join(f"{_num(px)},{_num(py)}" for px, py in (_kropki_xy(p[0], p[1]) for p in chain["chain"]))
        if any((p[0], p[1]) in captured for p in chain["chain"]):
            out.append(_el("polygon", class_=f"chain old p{owner}", points=pts, fill="none",
                           stroke=COLOURS[owner]["ink"], stroke_width=1, stroke_opacity=0.35))
        else:
            out.append(_el("polygon", class_=f"territory p{owner}", points=pts, fill=COLOURS[owner]["fill"],
                           fill_opacity=0.28, stroke=COLOURS[owner]["ink"], stroke_width=2.5,
                           stroke_linejoin="round"))
    out.append("</g>")
    # Territory points not covered by a standing polygon still get a mark.
    territory = view["territory"]
    out.append('<g class="grounds">')
    for i, owner_char in enumerate(territory):
        if owner_char != "0":
            px, py = _kropki_xy(i % width, i // width)
            owner = int(owner_char)
            out.append(_el("rect", class_=f"ground p{owner}", data_p=i, x=px - 5, y=py - 5, width=10, height=10,
                           fill=COLOURS[owner]["fill"], fill_opacity=0.18))
    out.append("</g>")
    # Empty enclosures: a subtle small ring at each point inside.
    out.append('<g class="enclosures">')
    for ex, ey, owner in view.get("empty_enclosures", []):
        px, py = _kropki_xy(ex, ey)
        out.append(_el("circle", class_=f"empty-enclosure p{owner}", data_p=ey * width + ex, cx=px, cy=py, r=3.5,
                       fill="none", stroke=COLOURS[owner]["ink"], stroke_width=1, stroke_dasharray="2 2",
                       stroke_opacity=0.7))
    out.append("</g>")

    # Dots.
    out.append('<g class="dots">')
    for x, y, owner, is_captured in view["dots"]:
        if is_captured:
            cx, cy = _kropki_xy(x, y)
            out.append(f'<g class="captured" data-p="{y * width + x}" opacity="0.45">')
            out.append(_kropki_dot(x, y, owner, " captured"))
            out.append(_el("path", class_="cross", d=f"M{_num(cx - 6)} {_num(cy - 6)}L{_num(cx + 6)} {_num(cy + 6)}"
                           f"M{_num(cx + 6)} {_num(cy - 6)}L{_num(cx - 6)} {_num(cy + 6)}",
                           stroke="#1d232b", stroke_width=1.5))
            out.append("</g>")
        else:
            out.append(_kropki_dot(x, y, owner, "", key=y * width + x))
    out.append("</g>")

    if view.get("last"):
        lx, ly = view["last"]
        cx, cy = _kropki_xy(lx, ly)
        out.append(_el("circle", class_="last", cx=cx, cy=cy, r=10, fill="none", stroke="#1d232b", stroke_width=2))
    for point in highlight or ():
        cx, cy = _kropki_xy(point[0], point[1])
        out.append(_el("circle", class_="highlight", cx=cx, cy=cy, r=10, fill="none", stroke=HIGHLIGHT,
                       stroke_width=2.5, stroke_dasharray="4 3"))

    if interactive:
        actions = kropki_legal(view) if legal is None else [a for a in legal if a < width * height]
        out.extend(_targets(
            actions,
            roving,
            lambda a: (a % width, a // width),
            lambda a: f"{_words(lang)['dot']} {column_name(a % width)}{a // width + 1}",
            lambda a: _el("circle", cx=_kropki_xy(a % width, a // width)[0], cy=_kropki_xy(a % width, a // width)[1],
                          r=_K_STEP / 2, fill="#000", fill_opacity=0),
        ))
    out.append("</svg>")
    return "".join(out)


def _targets(actions: list[int], roving: bool | None, colrow: Any, label: Any, shape: Any) -> list[str]:
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


# ---------------------------------------------------------- Cztery w rzędzie

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


def _describe_connect4(view: dict[str, Any], lang: str) -> str:
    w = _words(lang)
    rows, cols = view["rows"], view["columns"]
    parts = [f"{GAME_NAMES.get(lang, GAME_NAMES['pl'])['connect4']}, {cols}×{rows}."]
    initials = {1: w["pink"], 2: w["blue"]}
    for c in range(cols):
        stack = [view["cells"][r][c] for r in reversed(range(rows)) if view["cells"][r][c]]
        content = ", ".join(initials[p] for p in stack) if stack else w["empty"]
        parts.append(f"{w['column'].capitalize()} {c + 1} ({w['bottom_up']}): {content}.")
    for line in view.get("winning_lines", []):
        owner = view["cells"][rows - line[0][1]][line[0][0] - 1]
        cells = " – ".join(f"{c}/{r}" for c, r in (line[0], line[-1]))
        parts.append(f"{w['win_line'].capitalize()} ({_player_name(owner, lang)}): {cells}.")
    if view.get("last"):
        parts.append(f"{w['last'].capitalize()}: {w['column']} {view['last']['column']}.")
    return " ".join(parts)


def _c4_disc(col: int, row_top: int, player: int, extra: str = "", key: int | None = None) -> str:
    cx, cy = _c4_xy(col, row_top)
    r = _C_CELL * 0.4
    colour = COLOURS[player]
    parts = [_el("circle", class_=f"disc p{player}{extra}", data_p=key, cx=cx, cy=cy, r=r, fill=colour["fill"],
                 stroke=colour["ink"], stroke_width=2)]
    if player == 2:
        parts.append(_el("circle", class_="disc-ring", cx=cx, cy=cy, r=r * 0.55, fill="none", stroke="#ffffff",
                         stroke_width=3))
    else:
        parts.append(_el("circle", class_="disc-dot", cx=cx, cy=cy, r=r * 0.22, fill="#ffffff", fill_opacity=0.85))
    return "".join(parts)


def _render_connect4(view: dict[str, Any], *, interactive: bool, title: str, highlight: Iterable[Any], lang: str,
                     legal: list[int] | None, coords: bool, roving: bool | None) -> str:
    rows, cols = view["rows"], view["columns"]
    total_w = 2 * _C_MARGIN + cols * _C_CELL
    total_h = _C_TOP + 2 * _C_MARGIN + rows * _C_CELL
    desc = _describe_connect4(view, lang)
    name = title or GAME_NAMES.get(lang, GAME_NAMES["pl"])["connect4"]
    out = _open_svg("connect4", total_w, total_h, name if interactive else f"{name}. {desc}", name, desc, interactive)
    if coords:
        out.append(f'<g class="coords" fill="{LABEL}" font-size="11" font-family="sans-serif" text-anchor="middle" aria-hidden="true">')
        for c in range(cols):
            cx, _ = _c4_xy(c, 0)
            out.append(f'<text x="{_num(cx)}" y="{_num(_C_TOP - 4)}">{c + 1}</text>')
        out.append("</g>")
    out.append(_el("rect", class_="frame", x=_C_MARGIN / 2, y=_C_TOP + _C_MARGIN / 2, width=total_w - _C_MARGIN,
                   height=rows * _C_CELL + _C_MARGIN, rx=8, fill="#e8e4da", stroke="#b5ad9b", stroke_width=1.5))
    for r in range(rows):
        for c in range(cols):
            player = view["cells"][r][c]
            if player:
                out.append(_c4_disc(c, r, player, key=r * cols + c))
            else:
                cx, cy = _c4_xy(c, r)
                out.append(_el("circle", class_="hole", data_p=r * cols + c, cx=cx, cy=cy, r=_C_CELL * 0.4,
                               fill="#fffdf8", stroke="#b5ad9b", stroke_width=1))
    last = view.get("last")
    if last:
        cx, cy = _c4_xy(last["column"] - 1, rows - last["row"])
        out.append(_el("circle", class_="last", cx=cx, cy=cy, r=_C_CELL * 0.47, fill="none", stroke="#1d232b",
                       stroke_width=2.5))
    for line in view.get("winning_lines", []):
        (c1, r1), (c2, r2) = line[0], line[-1]
        xa, ya = _c4_xy(c1 - 1, rows - r1)
        xb, yb = _c4_xy(c2 - 1, rows - r2)
        out.append(_el("line", class_="win-line", x1=xa, y1=ya, x2=xb, y2=yb, stroke="#1d232b", stroke_width=6,
                       stroke_linecap="round", stroke_opacity=0.8))
    for column in highlight or ():
        c = int(column) - 1
        filled = sum(1 for r in range(rows) if view["cells"][r][c])
        row_top = rows - 1 - filled
        if 0 <= row_top < rows:
            cx, cy = _c4_xy(c, row_top)
            out.append(_el("circle", class_="highlight", cx=cx, cy=cy, r=_C_CELL * 0.42, fill="none",
                           stroke=HIGHLIGHT, stroke_width=3, stroke_dasharray="5 4"))
    if interactive:
        actions = connect4_legal(view) if legal is None else list(legal)
        frame_y = _C_TOP + _C_MARGIN
        out.extend(_targets(
            actions,
            roving,
            lambda a: (a, 0),
            lambda a: f"{_words(lang)['column']} {a + 1}",
            lambda a: _el("rect", x=_C_MARGIN + a * _C_CELL, y=frame_y - _C_MARGIN, width=_C_CELL,
                          height=rows * _C_CELL + _C_MARGIN, fill="#000", fill_opacity=0),
        ))
    out.append("</svg>")
    return "".join(out)


# -------------------------------------------------------- Kropki i kwadraty

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


def _describe_dots_and_boxes(view: dict[str, Any], lang: str) -> str:
    w = _words(lang)
    rows, cols = view["rows"], view["cols"]
    parts = [f"{GAME_NAMES.get(lang, GAME_NAMES['pl'])['dots_and_boxes']}, {rows}×{cols}."]
    drawn = [s for s, by in enumerate(view["drawn"]) if by]
    parts.append(f"{w['segments_drawn'].capitalize()}: {len(drawn)}/{len(view['drawn'])}"
                 + (": " + ", ".join(_segment_name(view, s) for s in drawn) if drawn else "") + ".")
    for player in (1, 2):
        boxes = [f"{column_name(c)}{r + 1}" for r in range(rows) for c in range(cols) if view["boxes"][r][c] == player]
        parts.append(f"{w['boxes'].capitalize()} ({_player_name(player, lang)}): {len(boxes)}"
                     + (" — " + ", ".join(boxes) if boxes else "") + ".")
    if view.get("last") is not None:
        parts.append(f"{w['last'].capitalize()}: {_segment_name(view, view['last'])}.")
    return " ".join(parts)


def _render_dots_and_boxes(view: dict[str, Any], *, interactive: bool, title: str, highlight: Iterable[Any],
                           lang: str, legal: list[int] | None, coords: bool, roving: bool | None) -> str:
    rows, cols = view["rows"], view["cols"]
    total_w = 2 * _B_MARGIN + cols * _B_STEP
    total_h = 2 * _B_MARGIN + rows * _B_STEP
    desc = _describe_dots_and_boxes(view, lang)
    name = title or GAME_NAMES.get(lang, GAME_NAMES["pl"])["dots_and_boxes"]
    w = _words(lang)
    out = _open_svg("dots_and_boxes", total_w, total_h, name if interactive else f"{name}. {desc}", name, desc,
                    interactive)
    out.append(_el("rect", class_="paper", x=0, y=0, width=total_w, height=total_h, fill="#fffdf8"))
    if coords:
        out.append(f'<g class="coords" fill="{LABEL}" font-size="10" font-family="sans-serif" text-anchor="middle" aria-hidden="true">')
        for c in range(cols + 1):
            x, _ = _box_xy(0, c)
            out.append(f'<text x="{_num(x)}" y="{_num(_B_MARGIN - 10)}">{column_name(c)}</text>')
        for r in range(rows + 1):
            _, y = _box_xy(r, 0)
            out.append(f'<text x="{_num(_B_MARGIN - 13)}" y="{_num(y + 3.5)}">{r + 1}</text>')
        out.append("</g>")
    # Boxes with the owner's initial.
    out.append('<g class="boxes">')
    for r in range(rows):
        for c in range(cols):
            owner = view["boxes"][r][c]
            if owner:
                x, y = _box_xy(r, c)
                out.append(_el("rect", class_=f"box p{owner}", data_b=r * cols + c, x=x, y=y, width=_B_STEP,
                               height=_B_STEP, fill=COLOURS[owner]["light"]))
                out.append(f'<text class="box-initial p{owner}" x="{_num(x + _B_STEP / 2)}" y="{_num(y + _B_STEP / 2 + 6)}" '
                           f'text-anchor="middle" font-size="17" font-weight="700" font-family="sans-serif" '
                           f'fill="{COLOURS[owner]["ink"]}" aria-hidden="true">{escape(w["P"] if owner == 1 else w["B"])}</text>')
    out.append("</g>")
    # Faint guides for undrawn segments, then the drawn ones.
    out.append('<g class="free">')
    for segment, by in enumerate(view["drawn"]):
        (r1, c1), (r2, c2) = _segment_dots(view, segment)
        xa, ya = _box_xy(r1, c1)
        xb, yb = _box_xy(r2, c2)
        if not by:
            out.append(_el("line", class_="segment free", data_s=segment, x1=xa, y1=ya, x2=xb, y2=yb,
                           stroke="#e4dfd3", stroke_width=1, stroke_dasharray="2 4"))
    out.append('</g><g class="drawn">')
    for segment, by in enumerate(view["drawn"]):
        if by:
            (r1, c1), (r2, c2) = _segment_dots(view, segment)
            xa, ya = _box_xy(r1, c1)
            xb, yb = _box_xy(r2, c2)
            out.append(_el("line", class_=f"segment p{by}", data_s=segment, x1=xa, y1=ya, x2=xb, y2=yb,
                           stroke=COLOURS[by]["ink"], stroke_width=4, stroke_linecap="round",
                           stroke_dasharray="9 4" if by == 2 else None))
    out.append("</g>")
    last = view.get("last")
    if last is not None:
        (r1, c1), (r2, c2) = _segment_dots(view, last)
        xa, ya = _box_xy(r1, c1)
        xb, yb = _box_xy(r2, c2)
        out.append(_el("line", class_="last", x1=xa, y1=ya, x2=xb, y2=yb, stroke="#1d232b", stroke_width=9,
                       stroke_opacity=0.18, stroke_linecap="round"))
    for segment in highlight or ():
        (r1, c1), (r2, c2) = _segment_dots(view, int(segment))
        xa, ya = _box_xy(r1, c1)
        xb, yb = _box_xy(r2, c2)
        out.append(_el("line", class_="highlight", x1=xa, y1=ya, x2=xb, y2=yb, stroke=HIGHLIGHT, stroke_width=3,
                       stroke_dasharray="5 4"))
    for r in range(rows + 1):
        for c in range(cols + 1):
            x, y = _box_xy(r, c)
            out.append(_el("circle", class_="dot", cx=x, cy=y, r=4, fill="#1d232b"))
    if interactive:
        actions = dots_and_boxes_legal(view) if legal is None else list(legal)
        half = _B_STEP * 0.22

        def hit(segment: int) -> str:
            (r1, c1), (r2, c2) = _segment_dots(view, segment)
            xa, ya = _box_xy(r1, c1)
            xb, yb = _box_xy(r2, c2)
            if r1 == r2:  # horizontal
                return _el("rect", x=xa + 5, y=ya - half, width=_B_STEP - 10, height=2 * half, fill="#000",
                           fill_opacity=0)
            return _el("rect", x=xa - half, y=ya + 5, width=2 * half, height=_B_STEP - 10, fill="#000",
                       fill_opacity=0)

        out.extend(_targets(
            actions,
            roving,
            lambda s: _segment_dots(view, s)[0][::-1],
            lambda s: f"{w['segment']} {_segment_name(view, s)}",
            hit,
        ))
    out.append("</svg>")
    return "".join(out)


# ------------------------------------------------------------------ entry

_RENDERERS = {
    "kropki": _render_kropki,
    "connect4": _render_connect4,
    "dots_and_boxes": _render_dots_and_boxes,
}
_DESCRIBERS = {
    "kropki": _describe_kropki,
    "connect4": _describe_connect4,
    "dots_and_boxes": _describe_dots_and_boxes,
}


def render_board(
    view: dict[str, Any],
    slug: str,
    *,
    interactive: bool = False,
    title: str = "",
    highlight: Iterable[Any] = (),
    lang: str = "pl",
    legal: Iterable[int] | None = None,
    coords: bool = True,
    roving: bool | None = None,
    id_prefix: str = "",
) -> str:
    """The board of ``view`` (a ``state.view()``) as an ``<svg>`` string; see the module docstring."""
    try:
        renderer = _RENDERERS[slug]
    except KeyError:
        raise ValueError(f"no renderer for game {slug!r}") from None
    return renderer(
        view,
        interactive=interactive,
        title=title,
        highlight=highlight,
        lang=lang if lang in _WORDS else "pl",
        legal=None if legal is None else sorted(legal),
        coords=coords,
        roving=roving,
    )


def board_words(lang: str = "pl") -> dict[str, Any]:
    """The words boards use, for the live page's patch code (static/js/board_patch.js)."""
    lang = lang if lang in _WORDS else "pl"
    return {**_words(lang), "names": GAME_NAMES[lang], "colours": COLOURS}


def describe(view: dict[str, Any], slug: str, lang: str = "pl") -> str:
    """The position in words (what screen readers hear for a picture)."""
    return _DESCRIBERS[slug](view, lang if lang in _WORDS else "pl")
