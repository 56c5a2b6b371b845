"""Computer players for Kropki i kwadraty (Dots and Boxes), any rows x cols.

A position is a bitmask of drawn segments (OpenSpiel's segment ids, as the
engine uses them), the engine state's ``drawn``. Values are margins (boxes
of the player to move minus the opponent's) over the boxes still to be taken
when the game is played to the last segment; the site's majority end (more
than half the boxes ends the match) never changes who wins, so maximising
the full-game margin also maximises the site's result.

Levels:

- ``trudny``:
  * few undrawn segments (up to ``EXACT_MAX`` and while the budget lasts):
    an exact memoised alpha-beta over drawn-segment bitmasks, with
    captures first and the one safe pruning rule (a box whose last side
    touches no box with two sides is always taken at once);
  * earlier: takes free boxes, plays a safe move (one giving no third side)
    while there is one;
  * when every move hands something out it splits the board into chains
    and loops and plays the simple loony-endgame recursion (the long-chain
    rule): it opens the component that costs least, opens a two-chain in
    the middle (the hard-hearted handout, which leaves no double-cross), and
    when eating a chain decides between taking the last two boxes and
    declining them (the double-dealing move that keeps control).
- ``sredni``: takes boxes, avoids third sides when it can, random otherwise.
- ``latwy``: takes a box when one is there, otherwise random.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Any

EXACT_MAX = 40  # tried when at most this many segments are undrawn
EXACT_SHARE = 0.7  # of the budget; past it the chain heuristics answer


class Timeout(Exception):
    pass


class Geometry:
    """Static tables of a rows x cols board."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.num_h = (rows + 1) * cols
        self.num_segments = self.num_h + rows * (cols + 1)
        self.num_boxes = rows * cols
        self.all_drawn = (1 << self.num_segments) - 1
        self.box_mask: list[int] = []
        self.box_sides: list[tuple[int, int, int, int]] = []
        for r in range(rows):
            for c in range(cols):
                sides = (
                    cols * r + c,
                    cols * (r + 1) + c,
                    self.num_h + (cols + 1) * r + c,
                    self.num_h + (cols + 1) * r + c + 1,
                )
                self.box_sides.append(sides)
                self.box_mask.append(sum(1 << s for s in sides))
        # boxes touching each segment
        self.seg_boxes: list[tuple[int, ...]] = [() for _ in range(self.num_segments)]
        for b, sides in enumerate(self.box_sides):
            for s in sides:
                self.seg_boxes[s] = self.seg_boxes[s] + (b,)
        self.seg_masks = [tuple(self.box_mask[b] for b in self.seg_boxes[s]) for s in range(self.num_segments)]


@lru_cache(maxsize=8)
def geometry(rows: int, cols: int) -> Geometry:
    return Geometry(rows, cols)


def sides(geo: Geometry, drawn: int, box: int) -> int:
    return (drawn & geo.box_mask[box]).bit_count()


def completes(geo: Geometry, drawn: int, seg: int) -> int:
    """Boxes completed by drawing ``seg`` on ``drawn``."""
    d2 = drawn | (1 << seg)
    n = 0
    for m in geo.seg_masks[seg]:
        if d2 & m == m:
            n += 1
    return n


def undrawn(geo: Geometry, drawn: int) -> list[int]:
    free = geo.all_drawn & ~drawn
    out = []
    while free:
        low = free & -free
        out.append(low.bit_length() - 1)
        free ^= low
    return out


def is_safe(geo: Geometry, drawn: int, seg: int) -> bool:
    """Drawing ``seg`` gives no box its third side."""
    return all((drawn & m).bit_count() != 2 for m in geo.seg_masks[seg])


def capture_moves(geo: Geometry, drawn: int) -> list[int]:
    return [s for s in undrawn(geo, drawn) if completes(geo, drawn, s)]


# -- exact end game --------------------------------------------------------


class Solver:
    """Exact margin for the player to move, alpha-beta with a bounds table."""

    def __init__(self, geo: Geometry, deadline: float) -> None:
        self.geo = geo
        self.deadline = deadline
        # Timeout too once ``nodes`` reaches this (None: no cap): a cap in nodes gives the
        # same answer on any machine, as the review needs
        self.node_limit: int | None = None
        self.table: dict[int, tuple[int, int]] = {}
        self.nodes = 0

    def ordered_moves(self, drawn: int) -> list[tuple[int, int]]:
        """(segment, boxes completed), captures first, then safe moves, with
        the forced-capture pruning."""
        geo = self.geo
        caps, safe, rest = [], [], []
        for s in undrawn(geo, drawn):
            n = 0
            third = False
            d2 = drawn | (1 << s)
            for m in geo.seg_masks[s]:
                c = (d2 & m).bit_count()
                if c == 4:
                    n += 1
                elif c == 3:
                    third = True
            if n:
                if not third:
                    # completes a box and hands out nothing: always right
                    return [(s, n)]
                caps.append((s, n))
            elif third:
                rest.append((s, 0))
            else:
                safe.append((s, 0))
        return caps + safe + rest

    def value(self, drawn: int, alpha: int, beta: int) -> int:
        geo = self.geo
        if drawn == geo.all_drawn:
            return 0
        self.nodes += 1
        if not self.nodes & 2047 and (
            time.perf_counter() > self.deadline or (self.node_limit is not None and self.nodes >= self.node_limit)
        ):
            raise Timeout
        entry = self.table.get(drawn)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        a0, b0 = alpha, beta
        best = -999
        for s, n in self.ordered_moves(drawn):
            d2 = drawn | (1 << s)
            v = n + self.value(d2, alpha - n, beta - n) if n else -self.value(d2, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= a0:
            self.table[drawn] = (entry[0] if entry else -999, best)
        elif best >= b0:
            self.table[drawn] = (best, entry[1] if entry else 999)
        else:
            self.table[drawn] = (best, best)
        return best

    def best_moves(self, drawn: int) -> tuple[int, list[int]]:
        """Exact value and every optimal segment."""
        geo = self.geo
        scored = []
        for s in undrawn(geo, drawn):
            n = completes(geo, drawn, s)
            d2 = drawn | (1 << s)
            v = n + self.value(d2, -999, 999) if n else -self.value(d2, -999, 999)
            scored.append((v, s))
        top = max(v for v, _ in scored)
        return top, [s for v, s in scored if v == top]

    def best_move(self, drawn: int) -> int:
        """One optimal segment (alpha-beta at the root)."""
        moves = self.ordered_moves(drawn)
        best, best_s = -999, moves[0][0]
        for s, n in moves:
            d2 = drawn | (1 << s)
            v = n + self.value(d2, best - n, 999) if n else -self.value(d2, -999, -best)
            if v > best:
                best, best_s = v, s
        return best_s


# -- chains and loops --------------------------------------------------------


def components(geo: Geometry, drawn: int) -> list[tuple[str, int, list[int]]]:
    """Chains and loops of boxes with exactly two sides drawn:
    (kind, number of boxes, undrawn segments of the component)."""
    seen: set[int] = set()
    out = []
    for b in range(geo.num_boxes):
        if b in seen or sides(geo, drawn, b) != 2:
            continue
        # walk both ways from b along undrawn sides through two-sided boxes
        boxes = {b}
        segs: set[int] = set()
        loop = False
        stack = [b]
        while stack:
            x = stack.pop()
            for s in geo.box_sides[x]:
                if drawn >> s & 1:
                    continue
                segs.add(s)
                for y in geo.seg_boxes[s]:
                    if y != x and y not in boxes and sides(geo, drawn, y) == 2:
                        boxes.add(y)
                        stack.append(y)
        seen |= boxes
        # a loop: every segment joins two boxes of the component
        if len(boxes) >= 4 and all(
            len(geo.seg_boxes[s]) == 2 and all(y in boxes for y in geo.seg_boxes[s]) for s in segs
        ):
            loop = True
        out.append(("loop" if loop else "chain", len(boxes), sorted(segs)))
    return out


@lru_cache(maxsize=100_000)
def loony_value(comps: tuple[tuple[str, int], ...]) -> int:
    """Margin for the player who must open one of ``comps`` (simple loony
    end game: the opponent takes all, or declines the last 2 / 4 to keep
    control)."""
    if not comps:
        return 0
    best = -999
    for i, (kind, n) in enumerate(comps):
        if i and comps[i - 1] == (kind, n):
            continue
        rest = comps[:i] + comps[i + 1 :]
        r = loony_value(rest)
        if kind == "loop":
            v = -max(n + r, n - 8 - r)
        elif n <= 2:
            v = -(n + r)  # one box, or a two-chain opened in the middle
        else:
            v = -max(n + r, n - 4 - r)
        best = max(best, v)
    return best


def _comp_key(comps: list[tuple[str, int, list[int]]]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((k, n) for k, n, _ in comps))


def _open_move(geo: Geometry, drawn: int, rng: random.Random) -> int:
    """No capture and no safe move: open the component that costs least."""
    comps = components(geo, drawn)
    moves = undrawn(geo, drawn)
    if not comps:
        return rng.choice(moves)
    best, best_seg = -999, None
    for i, (kind, n, segs) in enumerate(comps):
        rest = _comp_key(comps[:i] + comps[i + 1 :])
        r = loony_value(rest)
        if kind == "loop":
            v = -max(n + r, n - 8 - r)
        elif n <= 2:
            v = -(n + r)
        else:
            v = -max(n + r, n - 4 - r)
        if v > best:
            best = v
            if kind == "chain" and n == 2:
                # the hard-hearted handout: the segment between the two boxes
                inner = [
                    s
                    for s in segs
                    if len(geo.seg_boxes[s]) == 2 and all(sides(geo, drawn, y) == 2 for y in geo.seg_boxes[s])
                ]
                best_seg = inner[0] if inner else segs[0]
            else:
                best_seg = segs[0]
    return best_seg if best_seg is not None else rng.choice(moves)


def _capture_decision(geo: Geometry, drawn: int, caps: list[int]) -> int:
    """Take a box, or decline the last two of a chain (double-dealing)."""
    for s in caps:
        # the last two boxes of a chain: s takes A and gives B its third side
        d2 = drawn | (1 << s)
        thirds = [b for b in geo.seg_boxes[s] if sides(geo, d2, b) == 3]
        if len(thirds) != 1:
            continue
        b = thirds[0]
        (t,) = [x for x in geo.box_sides[b] if not d2 >> x & 1]
        # B must end the chain: its last side touches no two-sided box
        if any(y != b and sides(geo, d2, y) >= 2 for y in geo.seg_boxes[t]):
            continue
        others = [c for c in caps if c != s and c != t]
        if others:
            continue  # take the other free boxes first
        after = d2 | (1 << t)
        if capture_moves(geo, after) or any(is_safe(geo, after, x) for x in undrawn(geo, after)):
            return s
        if after == geo.all_drawn:
            return s
        r = loony_value(_comp_key(components(geo, after)))
        # take both: 2 + r (we open next); decline: -2 - r (they open next)
        return t if -2 - r > 2 + r else s
    # prefer captures that open nothing new
    for s in caps:
        d2 = drawn | (1 << s)
        if not any(sides(geo, d2, b) == 3 for b in geo.seg_boxes[s]):
            return s
    return caps[0]


def _drawn_of(state: Any) -> tuple[Geometry, int]:
    params = state.game.params
    geo = geometry(params.get("rows", 5), params.get("cols", 5))
    return geo, state.drawn


def choose_trudny_drawn(geo: Geometry, drawn: int, budget_s: float, rng: random.Random) -> int:
    moves = undrawn(geo, drawn)
    if len(moves) == 1:
        return moves[0]
    if len(moves) <= EXACT_MAX:
        solver = Solver(geo, time.perf_counter() + EXACT_SHARE * budget_s)
        try:
            return solver.best_move(drawn)
        except Timeout:
            pass
    caps = capture_moves(geo, drawn)
    if caps:
        return _capture_decision(geo, drawn, caps)
    safe = [s for s in moves if is_safe(geo, drawn, s)]
    if safe:
        return rng.choice(safe)
    return _open_move(geo, drawn, rng)


def choose_trudny(state: Any, budget_s: float, rng: random.Random) -> int:
    geo, drawn = _drawn_of(state)
    return choose_trudny_drawn(geo, drawn, budget_s, rng)


def choose_sredni(state: Any, budget_s: float, rng: random.Random) -> int:
    geo, drawn = _drawn_of(state)
    caps = capture_moves(geo, drawn)
    if caps:
        return rng.choice(caps)
    moves = undrawn(geo, drawn)
    safe = [s for s in moves if is_safe(geo, drawn, s)]
    return rng.choice(safe or moves)


def choose_latwy(state: Any, budget_s: float, rng: random.Random) -> int:
    geo, drawn = _drawn_of(state)
    caps = capture_moves(geo, drawn)
    return rng.choice(caps or undrawn(geo, drawn))


CHOOSERS = {"latwy": choose_latwy, "sredni": choose_sredni, "trudny": choose_trudny}
BUDGETS = {"latwy": 0.05, "sredni": 0.1, "trudny": 1.8}


def choose(state: Any, level: str, rng: random.Random, budget_s: float | None = None) -> int:
    return CHOOSERS[level](state, BUDGETS[level] if budget_s is None else budget_s, rng)
