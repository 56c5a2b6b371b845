"""Kropki playouts per second: the pure-Python engine against the C hot path.

    .venv/bin/python bench/kropki_playouts.py [--seconds 2]

On 10x10 and 20x20, from an empty board and from a mid-game position (a
quarter of the points filled by seeded random play), one process:

- ``python_full``: random playouts to the end of the board through the
  Python engine (``clone()`` + ``apply_action()``), the same playout the C
  code plays;
- ``frozen_iterations``: MCTS iterations per second of the pre-issue-16
  trudny (``kropki_frozen``: each a tree walk plus a 16-ply Python
  play-out), what the old search actually achieved;
- ``c_full``: the same random playouts to the end of the board in C
  (``kf_playout_speed``);
- ``c_search``: playouts per second inside the new trudny's search
  (``kf_search``: tree walk, playout, RAVE update).

Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import get_game
from games.kropki import bot as kropki_bot
from games.kropki import frozen as kropki_frozen
from games.kropki.engine import KropkiState


def position(size: int, fill: float, seed: int = 5):
    game = get_game("kropki", width=size, height=size)
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    rng = random.Random(seed)
    while state.free_points() > size * size * (1 - fill):
        state.apply_action(rng.choice([a for a in state.legal_actions() if a != game.end_action]))
    return state


def frozen_iterations(state, seconds: float) -> float:
    """MCTS iterations per second of the frozen search (counted by wrapping
    its rollout)."""
    count = 0
    original = kropki_frozen.Mcts.rollout

    def counting(self, s):
        nonlocal count
        count += 1
        return original(self, s)

    kropki_frozen.Mcts.rollout = counting  # type: ignore[method-assign]  # counted by wrapping it
    try:
        start = time.perf_counter()
        kropki_frozen.choose_trudny(state, seconds, random.Random(1))
        elapsed = time.perf_counter() - start
    finally:
        kropki_frozen.Mcts.rollout = original  # type: ignore[method-assign]
    return count / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    rows = []
    for size in (10, 20):
        for label, fill in (("empty", 0.0), ("quarter", 0.25)):
            state = position(size, fill)
            _, info = kropki_bot.search(state, args.seconds, random.Random(1))
            row = {
                "board": f"{size}x{size}",
                "position": label,
                "python_full": round(kropki_bot.python_playout_speed(state, args.seconds)),
                "frozen_iterations": round(frozen_iterations(state, args.seconds)),
                "c_full": round(kropki_bot.playout_speed(state, args.seconds)),
                "c_search": round(info["playouts"] / args.seconds),
            }
            row["c_over_python"] = round(row["c_full"] / row["python_full"])
            rows.append(row)
            print(
                f"{row['board']:6} {label:8} Python {row['python_full']:7}/s  frozen search {row['frozen_iterations']:6}/s"
                f"  C {row['c_full']:8}/s  C in search {row['c_search']:7}/s  (C/Python {row['c_over_python']}x)",
                flush=True,
            )
    print(json.dumps({"playouts_per_second": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
