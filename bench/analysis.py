"""What the computer's review of a finished game costs, and what it does to live computer moves.

1. **Cost on one core**: a game of each kind, played by the computer (średni against średni,
   seeded) to the issue's length, is reviewed by ``games.bots.review.analyse`` with this
   process pinned to one core; the seconds beside the issue's targets (a 100-move Kropki
   10×10 ≤ 60 s, a 400-move Kropki 20×20 ≤ 5 min, a whole Cztery w rzędzie ≤ 2 s, a Kropki i
   kwadraty ≤ 30 s, a Piłkarzyki ≤ 60 s).
2. **Live computer moves beside a review**: Kropki 20×20 średni moves (CPU-bound: a fixed
   number of playouts) through a real Celery ``bots`` worker (``bench/kropki_bot_queue.py``,
   as ``bench/bot_times.py --queue``), first quiet, then while another process runs reviews
   as the ``analysis`` worker would; p50 and p99 of each, and the ratio (aim: p99 ≤ 1.2×).

    .venv/bin/python bench/analysis.py [--only kropki_10,kropki_20,connect4,...] [--moves 40] [--skip-live]

Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose_action
from games.bots.review import analyse
from games.engine import BUILT_IN, get_game


def cases() -> dict[str, tuple[str, dict, int | None, float]]:
    """name: (engine slug, params, plies to play (None: to the end), target seconds), from each
    game folder's review.py (``BENCH_CASES``)."""
    out = {}
    for slug in BUILT_IN:
        for name, params, plies, target in import_module(f"games.{slug}.review").BENCH_CASES:
            out[name] = (slug, params, plies, target)
    return out


def play(slug: str, params: dict, plies: int | None, seed: int) -> tuple[object, list[int]]:
    game = get_game(slug, **params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (plies is None or len(state.history) < plies):
        state.apply_action(choose_action(state, "sredni", seed=rng.randrange(1 << 30)))
    return game, list(state.history)


def cost(names: list[str], seed: int) -> dict:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    out = {}
    known = cases()
    for name in names:
        slug, params, plies, target = known[name]
        game, history = play(slug, params, plies, seed)
        reviewer = import_module(f"games.{slug}.review")
        start = time.perf_counter()
        result = analyse(game, history, reviewer)
        seconds = time.perf_counter() - start
        flagged = sum(1 for m in result["moves"] if m["class"] in ("inaccuracy", "mistake", "blunder"))
        out[name] = {
            "moves": len(history),
            "seconds": round(seconds, 2),
            "per_position_s": round(seconds / (len(history) + 1), 4),
            "target_s": target,
            "met": seconds <= target,
            "flagged_moves": flagged,
        }
        print(name, out[name], flush=True)
    return out


def _review_forever() -> None:
    """The analysis worker's load: reviews of a Kropki 20×20 game, one after another."""
    game, history = play("kropki", {"width": 20, "height": 20}, 200, 3)
    reviewer = import_module("games.kropki.review")
    while True:
        analyse(game, history, reviewer)


def live_moves(count: int, seed: int) -> dict:
    from bench.bot_times import BotQueue

    rng = random.Random(seed)
    game = get_game("kropki", width=20, height=20)
    positions = []
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(rng.randrange(20, 160)):
            state.apply_action(choose_action(state, "latwy", seed=rng.randrange(1 << 30)))
        positions.append(state)
    queue = BotQueue()
    try:
        for state in positions[:3]:  # warm the worker's processes
            queue.move(state, "sredni", 1)

        def run() -> list[float]:
            return [queue.move(state, "sredni", i)[0] for i, state in enumerate(positions)]

        quiet = run()
        loader = multiprocessing.Process(target=_review_forever, daemon=True)
        loader.start()
        time.sleep(5.0)  # the review is under way
        busy = run()
        loader.kill()
        loader.join(timeout=30)
        quiet_again = run()
    finally:
        queue.close()

    def figures(times: list[float]) -> dict[str, float]:
        ordered = sorted(times)
        return {
            "p50_ms": round(1000 * statistics.median(ordered), 1),
            "p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
        }

    calm, loaded = figures(quiet + quiet_again), figures(busy)
    p99_ratio = round(loaded["p99_ms"] / calm["p99_ms"], 3)
    return {
        "moves": count,
        "quiet": calm,
        "during_review": loaded,
        "p99_ratio": p99_ratio,
        "p50_ratio": round(loaded["p50_ms"] / calm["p50_ms"], 3),
        "met": p99_ratio <= 1.2,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, help="comma-separated names of cases (kropki_10, connect4...)")
    parser.add_argument("--moves", type=int, default=40, help="live computer moves in each phase")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--skip-live", action="store_true")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(cases())
    result: dict = {}
    if not args.skip_live:
        result["live_computer_moves"] = live_moves(args.moves, args.seed)
        print("live", result["live_computer_moves"], flush=True)
    result["cost_one_core"] = cost(names, args.seed)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
