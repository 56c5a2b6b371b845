"""Bitboards of Cztery w rzędzie in Pascal Pons' layout, shared by the bots,
the solver and its opening book (no Django).

Column ``c`` holds bits ``7c .. 7c+5`` from the bottom up; bit ``7c+6`` is
always empty, so shifts never wrap. A position is ``cur`` (the discs of the
player to move) and ``mask`` (all discs); ``cur + mask`` is a unique key (per
column it stays below the column's sentinel bit).
"""

from __future__ import annotations

WIDTH = 7
HEIGHT = 6
H1 = HEIGHT + 1
CELLS = WIDTH * HEIGHT

BOTTOM = sum(1 << (c * H1) for c in range(WIDTH))
BOARD = BOTTOM * ((1 << HEIGHT) - 1)
COLUMN_MASKS = tuple(((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH))


def winning_cells(pos: int, mask: int) -> int:
    """Empty cells that would complete a four for the owner of ``pos``."""
    # vertical
    r = (pos << 1) & (pos << 2) & (pos << 3)
    # horizontal and both diagonals
    for d in (H1, HEIGHT, H1 + 1):
        p = (pos << d) & (pos << 2 * d)
        r |= p & (pos << 3 * d)
        r |= p & (pos >> d)
        p = (pos >> d) & (pos >> 2 * d)
        r |= p & (pos << d)
        r |= p & (pos >> 3 * d)
    return r & (BOARD ^ mask)


def mirror_key(key: int) -> int:
    """The key of the position seen in a mirror (column c becomes 6 - c)."""
    out = 0
    for c in range(WIDTH):
        out |= ((key >> (c * H1)) & 0x7F) << ((WIDTH - 1 - c) * H1)
    return out


def canonical_key(cur: int, mask: int) -> int:
    """The smaller of the position's key and its mirror image's."""
    key = cur + mask
    return min(key, mirror_key(key))


def children(cur: int, mask: int) -> list[tuple[int, int, int, bool]]:
    """(column, child cur, child mask, the move wins at once) for every legal column."""
    possible = (mask + BOTTOM) & BOARD
    mine = winning_cells(cur, mask)
    out = []
    for c in range(WIDTH):
        move = possible & COLUMN_MASKS[c]
        if move:
            out.append((c, cur ^ mask, mask | move, bool(move & mine)))
    return out
