"""The opening book of the Cztery w rzędzie solver: the exact score of every
position up to ``plies()`` discs (no Django).

    .venv/bin/python -m games.connect4.book build --plies K [--out PATH] [--jobs N]
    .venv/bin/python -m games.connect4.book info

``build`` lists every position reachable in at most K plies (games already
won are not positions), keeps one of each mirror pair, solves those with K
discs with the compiled solver (``solver_ext``, no time limit) and derives the
others by negamax over their children. It prints its progress and the time it
took.

The file (``games/connect4/opening_book.xz``, committed) is an xz stream of:

- one ASCII line ``connect4-book 1 K N\\n``: format version 1, the book's
  depth K, the number of records N;
- N little-endian unsigned 64-bit records, sorted: ``key << 8 | (score & 0xFF)``
  where ``key = cur + mask`` in Pons' bitboard layout (``cur`` the mover's
  discs, ``mask`` all discs; column ``c`` holds bits ``7c .. 7c+5`` from the
  bottom), the smaller of the position's key and its mirror image's, and
  ``score`` is the exact score for the player to move (``games.connect4.solver``),
  a signed byte.
"""

from __future__ import annotations

import argparse
import lzma
import multiprocessing
import sys
import time
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .bits import CELLS, canonical_key, children

PATH = Path(__file__).resolve().parent / "opening_book.xz"
MAGIC = "connect4-book"

_records: array | None = None  # type: ignore[type-arg]
_plies = -1


def load(path: Path = PATH) -> None:
    """Read the book at ``path`` (no file: no book)."""
    global _records, _plies
    _records = array("Q")
    _plies = -1
    if not path.exists():
        return
    data = lzma.decompress(path.read_bytes())
    header, _, body = data.partition(b"\n")
    magic, version, plies, count = header.decode("ascii").split()
    if magic != MAGIC or version != "1":
        raise ValueError(f"{path} is not a version 1 Connect Four book")
    records = array("Q")
    records.frombytes(body)
    if sys.byteorder != "little":
        records.byteswap()
    if len(records) != int(count):
        raise ValueError(f"{path}: {len(records)} records, the header says {count}")
    _records, _plies = records, int(plies)


def plies() -> int:
    """The book's depth K (positions with at most K discs); -1 without a book."""
    if _records is None:
        load()
    return _plies


def lookup(cur: int, mask: int, moves: int) -> int | None:
    """The score of the position for the player to move, or None when the
    book does not cover it."""
    if moves > plies() or _records is None:
        return None
    want = canonical_key(cur, mask) << 8
    i = bisect_left(_records, want)
    if i < len(_records) and _records[i] >> 8 == want >> 8:
        score = int(_records[i] & 0xFF)
        return score - 256 if score >= 128 else score
    return None


def _solve_in_c(cur: int, mask: int, moves: int) -> int:
    from .solver_ext import lib  # ImportError when not built: games/connect4/solver_build.py

    return int(lib.c4_solve(cur, mask, moves, 0.0, 0))


def _solve_chunk(chunk: list[tuple[int, int]], depth: int) -> list[int]:
    """A share of the last ply, in key order (neighbouring keys share much of the table)."""
    return [_solve_in_c(cur, mask, depth) for cur, mask in chunk]


def _solved_parts(
    positions: list[tuple[int, int]], depth: int, solve: Callable[[int, int, int], int], jobs: int
) -> Iterator[list[int]]:
    """The scores of ``positions`` (all of ``depth`` discs), a part at a time, in order: by
    ``solve`` here, or by ``jobs`` spawned processes of the compiled solver (not forked: a
    fork of a process with threads, a test run's, may deadlock)."""
    if jobs <= 1:
        for start in range(0, len(positions), 100):
            yield [solve(cur, mask, depth) for cur, mask in positions[start : start + 100]]
        return
    size = max(1, min(50, len(positions) // (4 * jobs)))  # small parts: a slow one does not hold the rest
    chunks = [positions[i : i + size] for i in range(0, len(positions), size)]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield from pool.map(_solve_chunk, chunks, [depth] * len(chunks))


def build(depth: int, out: Path = PATH, solve: Callable[[int, int, int], int] = _solve_in_c, jobs: int = 1) -> int:
    """Write the book of every position with at most ``depth`` discs to ``out``;
    returns the number of records. ``solve(cur, mask, moves)`` gives the
    score of a ``depth``-disc position (the compiled solver, no limit); ``jobs``
    processes of the compiled solver share that work instead."""
    start = time.perf_counter()
    levels: list[dict[int, tuple[int, int]]] = [{canonical_key(0, 0): (0, 0)}]
    for ply in range(depth):
        nxt: dict[int, tuple[int, int]] = {}
        for cur, mask in levels[ply].values():
            for _, ncur, nmask, wins in children(cur, mask):
                if not wins:
                    nxt.setdefault(canonical_key(ncur, nmask), (ncur, nmask))
        levels.append(nxt)
        print(f"ply {ply + 1}: {len(nxt)} positions", file=sys.stderr, flush=True)
    last = sorted(levels[depth].items())
    solved: list[int] = []
    for part in _solved_parts([position for _, position in last], depth, solve, jobs):
        solved += part
        print(f"solved {len(solved)}/{len(last)} at ply {depth}, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    scores: dict[int, int] = {key: score for (key, _), score in zip(last, solved, strict=True)}
    for ply in range(depth - 1, -1, -1):
        for key, (cur, mask) in levels[ply].items():
            best = -CELLS
            for _, ncur, nmask, wins in children(cur, mask):
                s = (CELLS + 1 - ply) // 2 if wins else 0 if ply + 1 == CELLS else -scores[canonical_key(ncur, nmask)]
                best = max(best, s)
            scores[key] = best
    write(scores, depth, out)
    print(f"wrote {len(scores)} positions to {out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if out == PATH:
        load()
    return len(scores)


def write(scores: dict[int, int], depth: int, out: Path = PATH) -> None:
    """Write ``scores`` (canonical key -> score) as a book of depth ``depth``."""
    records = array("Q", sorted(key << 8 | (s & 0xFF) for key, s in scores.items()))
    if sys.byteorder != "little":
        records.byteswap()
    header = f"{MAGIC} 1 {depth} {len(records)}\n".encode("ascii")
    partial = out.with_name(out.name + ".partial")
    partial.write_bytes(lzma.compress(header + records.tobytes(), preset=9))
    partial.replace(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.connect4.book", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="solve every position up to K plies and write the book")
    b.add_argument("--plies", type=int, required=True, help="the depth K")
    b.add_argument("--out", type=Path, default=PATH)
    b.add_argument("--jobs", type=int, default=1, help="processes solving the last ply (each its own 64 MB table)")
    sub.add_parser("info", help="the book's depth and size")
    args = parser.parse_args(argv)
    if args.command == "build":
        build(args.plies, args.out, jobs=args.jobs)
    else:
        print(f"{PATH}: depth {plies()}, {0 if _records is None else len(_records)} positions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
