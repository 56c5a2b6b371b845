"""Reading Kropki games in SGF (``GM[40]``), as zagram, playdots, KataGo's dots and this site
(games/kropki/spec.py ``sgf_moves``) write them: written from SGF FF[4]'s public description
(a game tree of nodes, each ``;`` then properties ``ID[value][value]…``, ``\\]`` escaping a
bracket) and the dots programs' use of it. Pure Python, no Django.

What is read, of the main line (the first variation wherever the tree branches):

- ``GM[40]`` (required), ``SZ[w]`` or ``SZ[w:h]`` (5..40);
- the starting dots ``AB`` (the first player, pink here) and ``AW``: empty, or one of the
  starting positions the engine knows (``STARTS``: a cross, two, three, as oppai-rs places
  them); any other set-up is refused;
- ``RU[margin:15,penalty,territory]``: this site's options (its own export);
- the moves ``B[xy]`` (pink) and ``W[xy]``: letters ``a``..``z`` then ``A``..``Z`` for 0..51,
  column then row from the top-left. A value longer than two letters (playdots adds the points
  of the rings it closed) is read by its first two. Ending the game is not a move in SGF: when
  the same colour moves twice, the other player had ended (this site's "zakończ"), and the
  reader puts their end between;
- ``PB``, ``PW`` (the players' names), ``RE`` (the result as written), ``DT``, for the record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine import MARGINS, STARTS, Kropki

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_TEXT = 200_000  # characters: a 40×40 game is under 20 kB


class SgfError(ValueError):
    """A text that is not a Kropki game this reader takes; ``code`` says why (a refusal code)."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


@dataclass
class SgfGame:
    params: dict[str, Any]
    actions: list[int]  # the engine's actions, ends put in where a colour moved twice
    info: dict[str, str] = field(default_factory=dict)  # PB, PW, RE, DT as written


def _nodes(text: str) -> list[dict[str, list[str]]]:
    """The main line's nodes: each a dict of property -> values."""
    if len(text) > MAX_TEXT:
        raise SgfError("import_too_big")
    start = text.find("(")
    if start < 0:
        raise SgfError("import_not_sgf")
    # The main line is everything up to the first ")": the root's sequence, then each first
    # variation's, down to the first leaf; what follows are the other variations.
    nodes: list[dict[str, list[str]]] = []
    node: dict[str, list[str]] | None = None
    i, n, closed = start + 1, len(text), False
    while i < n:
        c = text[i]
        if c == ")":
            closed = True
            break
        if c == ";":
            node = {}
            nodes.append(node)
            i += 1
        elif c.isalpha() and c.isupper():
            j = i
            while j < n and text[j].isalpha():
                j += 1
            ident = text[i:j]
            values: list[str] = []
            k = j
            while True:
                while k < n and text[k].isspace():
                    k += 1
                if k >= n or text[k] != "[":
                    break
                k += 1
                value = []
                while k < n and text[k] != "]":
                    if text[k] == "\\" and k + 1 < n:
                        k += 1
                    value.append(text[k])
                    k += 1
                if k >= n:
                    raise SgfError("import_not_sgf", "an unclosed property value")
                values.append("".join(value))
                k += 1
            if node is None or not values:
                raise SgfError("import_not_sgf", f"property {ident} outside a node or without a value")
            node.setdefault(ident, []).extend(values)
            i = k
        else:
            i += 1
    if not closed or not nodes:
        raise SgfError("import_not_sgf", "an unclosed game tree")
    return nodes


def _point(value: str, width: int, height: int) -> tuple[int, int]:
    if len(value) < 2 or value[0] not in _LETTERS or value[1] not in _LETTERS:
        raise SgfError("import_bad_move", f"not a point: {value!r}")
    x, y = _LETTERS.index(value[0]), _LETTERS.index(value[1])
    if x >= width or y >= height:
        raise SgfError("import_bad_move", f"{value!r} is off the {width}x{height} board")
    return x, y


def read_sgf(text: str) -> SgfGame:
    """The game in ``text``; SgfError (with a refusal code) for anything this reader does not take."""
    nodes = _nodes(text)
    root = nodes[0]
    if root.get("GM", [""])[0].strip() != "40":
        raise SgfError("import_not_kropki")
    size = root.get("SZ", ["39:32"])[0].strip()
    try:
        width, height = (int(part) for part in size.split(":")) if ":" in size else (int(size), int(size))
    except ValueError:
        raise SgfError("import_not_sgf", f"SZ[{size}]") from None
    params: dict[str, Any] = {"width": width, "height": height}
    for rule in (r.strip() for r in root.get("RU", [""])[0].split(",") if r.strip()):
        if rule.startswith("margin:") and rule[7:].isdigit() and int(rule[7:]) in MARGINS:
            params["margin"] = int(rule[7:])
        elif rule in ("penalty", "territory"):
            params[rule] = True
    setup = {(*_point(v, width, height), 1) for v in root.get("AB", [])}
    setup |= {(*_point(v, width, height), 2) for v in root.get("AW", [])}
    if setup:
        cx, cy = width // 2, height // 2
        for name, dots in STARTS.items():
            if {(cx + dx, cy + dy, player) for dx, dy, player in dots} == setup:
                params["start"] = name
                break
        else:
            raise SgfError("import_setup")
    try:
        game = Kropki(**params)
    except ValueError as exc:
        raise SgfError("import_not_sgf", str(exc)) from None
    actions: list[int] = []
    last = 0
    for node in nodes:
        for colour, player in (("B", 1), ("W", 2)):
            for value in node.get(colour, []):
                if value == "" or value == "tt":  # a pass: no such move in Kropki
                    raise SgfError("import_bad_move", "a pass")
                if player == last:  # the other player had ended: put their end between
                    actions.append(game.end_action)
                x, y = _point(value, width, height)
                actions.append(game.action_for(x, y))
                last = player
    info: dict[str, str] = {key: root[key][0] for key in ("PB", "PW", "RE", "DT") if key in root}
    return SgfGame(params=game.params, actions=actions, info=info)
