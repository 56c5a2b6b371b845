"""Seconds per move of the computer at its real (default) budgets.

The site's promise for trudny is a median of at most 2 s and never more than
5 s per move on this machine. This plays each level from positions reached by
random play (a few plies in, mid-game and late), one move at a time in this
process, and reports the median and maximum per game and level, next to a
baseline measured in the same run (a fixed amount of pure-Python work), so a
loaded machine shows up as a larger baseline.

    .venv/bin/python bench/bot_times.py [--positions N] [--levels trudny,sredni]

Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import LEVELS, choose_action  # noqa: E402
from games.engine import get_game  # noqa: E402

GAMES = {
    "connect4": ("connect4", {}),
    "dots_and_boxes": ("dots_and_boxes", {"rows": 5, "cols": 5}),
    "kropki_10x10": ("kropki", {"width": 10, "height": 10}),
    "kropki_20x20": ("kropki", {"width": 20, "height": 20}),
}


def baseline() -> float:
    start = time.perf_counter()
    total = 0
    for i in range(200_000):
        total += i * i % 7
    return time.perf_counter() - start


def positions(slug: str, params: dict, count: int, rng: random.Random) -> list:
    game = get_game(slug, **params)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        end = getattr(game, "end_action", None)
        depth = rng.randrange(2, max(3, game.max_game_length // 2))
        for _ in range(depth):
            legal = [a for a in state.legal_actions() if a != end]
            if state.is_terminal() or not legal:
                break
            state.apply_action(rng.choice(legal))
        if not state.is_terminal():
            out.append(state)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    base = [baseline() for _ in range(5)]
    rows = []
    for name, (slug, params) in GAMES.items():
        states = positions(slug, params, args.positions, rng)
        for level in args.levels.split(","):
            times = []
            for state in states:
                start = time.perf_counter()
                choose_action(state.clone(), level, seed=rng.randrange(1 << 30))
                times.append(time.perf_counter() - start)
            row = {"game": name, "level": level, "median": round(statistics.median(times), 3),
                   "max": round(max(times), 3), "moves": len(times)}
            rows.append(row)
            print(f"{name:16} {level:7} median {row['median']:6.3f} s  max {row['max']:6.3f} s  ({len(times)} moves)",
                  flush=True)
    result = {"baseline_s": round(statistics.median(base), 4), "move_seconds": rows}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
