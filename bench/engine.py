"""Cost of the game engines' moves.

    python bench/engine.py [--games N] [--seed S]

For every game and size: N seeded random games played to their end (Kropki
never chooses "end the game", so its games run until no free point is left).
Every ``apply_action`` is timed alone with ``time.perf_counter_ns``; the table
shows the median and the 90th percentile of that cost, the moves timed, and
random games per second (whole games: legal actions, the random choice and
the moves). A baseline is measured in the same run, the same way: one timed
list append plus one dict lookup. The timer's own overhead is in both, so the
``x baseline`` column compares like with like across machines.

Kropki runs on 10x10, 20x20 and 39x32 in the same run; its cost per move
must not grow with the board: ``kropki_39x32_over_10x10`` (ratio of the
medians) is at most 2. The last line printed is one JSON object of all the
figures. Default N = 30 (under half a minute on one core).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import BUILT_IN, get_game

# Every game of the site (games.engine.BUILT_IN) at its default parameters, but Kropki
# at three sizes and Kropki i kwadraty named by its size.
SIZES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "kropki": [(f"kropki_{w}x{h}", {"width": w, "height": h}) for w, h in ((10, 10), (20, 20), (39, 32))],
    "dots_and_boxes": [("dots_and_boxes_5x5", {"rows": 5, "cols": 5})],
}
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    (name, slug, params) for slug in BUILT_IN for name, params in SIZES.get(slug, [(slug, {})])
]


def percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])


def baseline(samples: int = 200_000) -> float:
    """Median ns of one timed list append + dict lookup (timer overhead included)."""
    clock = time.perf_counter_ns
    items: list[int] = []
    table = {i: i for i in range(64)}
    costs = []
    for i in range(samples):
        start = clock()
        items.append(table[i & 63])
        costs.append(clock() - start)
        if len(items) > 1000:
            items.clear()
    return statistics.median(costs)


def bench(slug: str, params: dict[str, Any], games: int, seed: int) -> dict[str, Any]:
    game = get_game(slug, **params)
    end = getattr(game, "end_action", None)
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    costs: list[int] = []
    wall = 0
    for _ in range(games):
        gc.collect()
        state = game.new_initial_state()
        started = clock()
        while not state.is_terminal():
            actions = state.legal_actions()
            if end is not None and len(actions) > 1:
                actions.pop()  # the end action is the last (highest) id
            action = rng.choice(actions)
            start = clock()
            state.apply_action(action)
            costs.append(clock() - start)
        wall += clock() - started
    return {
        "median_apply_ns": statistics.median(costs),
        "p90_apply_ns": percentile(costs, 0.9),
        "moves": len(costs),
        "games": games,
        "games_per_s": round(games / (wall / 1e9), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="random games per game and size (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    base_ns = baseline()
    results: dict[str, dict[str, Any]] = {}
    for label, slug, params in CONFIGS:
        figures = bench(slug, params, args.games, args.seed)
        figures["x_baseline"] = round(figures["median_apply_ns"] / base_ns, 1)
        results[label] = figures

    print(f"python {platform.python_version()}, {args.games} games each, seed {args.seed}")
    print(f"baseline (timed list append + dict lookup): median {base_ns:.0f} ns")
    header = f"{'game':<20} {'median ns':>10} {'p90 ns':>10} {'x baseline':>10} {'moves':>8} {'games/s':>9}"
    print(header)
    print("-" * len(header))
    for label, f in results.items():
        print(
            f"{label:<20} {f['median_apply_ns']:>10.0f} {f['p90_apply_ns']:>10.0f} "
            f"{f['x_baseline']:>10.1f} {f['moves']:>8} {f['games_per_s']:>9.1f}"
        )
    ratio = results["kropki_39x32"]["median_apply_ns"] / results["kropki_10x10"]["median_apply_ns"]
    print(f"kropki 39x32 / 10x10 median apply: {ratio:.2f} (must be <= 2)")
    summary = {
        "python": platform.python_version(),
        "games": args.games,
        "seed": args.seed,
        "baseline_ns": base_ns,
        "results": results,
        "kropki_39x32_over_10x10": round(ratio, 3),
    }
    print(json.dumps(summary, separators=(",", ":")))
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
