"""How fast the exact Cztery w rzędzie solver is, and how often trudny keeps
the value.

    .venv/bin/python bench/c4_solver.py [--per-ply 8] [--plies 8,10,14,20] [--cap 60]
                                        [--vectors-every 1] [--budget 1.8]

1. Solving: ``--per-ply`` random reachable positions (seeded random play, no
   finished game) at each of ``--plies``; each is solved once, from an empty
   transposition table (``solver.solve``; a position the opening book covers
   is a look-up), on one core; ``--cap`` seconds at most each (a position
   over it counts as ``--cap`` and as a timeout). Median and p90 per ply and
   over all.
2. trudny: from each position of the solver set
   (``shared/vectors/connect4/positions_plies08-20.jsonl``, 500 positions scored
   by Pascal Pons' solver; every ``--vectors-every``-th), the column trudny plays
   through ``games.bots.choose_action`` at ``--budget`` must keep the value (a
   win stays a win at the same score or better, a draw a draw, a loss the
   slowest loss); also whether it merely keeps the result (win / draw / loss),
   which is what tests/games/bots/test_connect4_trudny_vectors.py counts, and
   the seconds per move.

The last line is one JSON object with the figures.
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

from games.bots import choose_action, default_budget
from games.connect4 import book, solver
from games.connect4.solver_ext import lib
from games.engine import get_game

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors" / "connect4" / "positions_plies08-20.jsonl"


def random_position(rng: random.Random, plies: int) -> list[int]:
    game = get_game("connect4")
    while True:
        state = game.new_initial_state()
        while len(state.history) < plies and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return list(state.history)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_solving(plies: list[int], per_ply: int, cap: float) -> dict:
    rng = random.Random(28)
    out: dict = {"per_ply": {}, "timeouts": 0}
    every: list[float] = []
    for ply in plies:
        times = []
        for _ in range(per_ply):
            columns = random_position(rng, ply)
            lib.c4_reset()
            t0 = time.perf_counter()
            try:
                solver.solve(columns, budget_s=cap)
                times.append(time.perf_counter() - t0)
            except solver.SolverTimeout:
                times.append(cap)
                out["timeouts"] += 1
        every += times
        row = {"median": round(statistics.median(times), 3), "p90": round(quantile(times, 0.9), 3), "n": len(times)}
        out["per_ply"][str(ply)] = row
        print(f"ply {ply:2}: median {row['median']:.3f} s, p90 {row['p90']:.3f} s ({len(times)} positions)", flush=True)
    out["median"] = round(statistics.median(every), 3)
    out["p90"] = round(quantile(every, 0.9), 3)
    print(f"from ply {plies[0]} on: median {out['median']:.3f} s, p90 {out['p90']:.3f} s, timeouts {out['timeouts']}")
    return out


def bench_trudny(every: int, budget: float | None) -> dict:
    with open(VECTORS) as f:
        rows = [json.loads(line) for line in f if line.strip()][::every]
    game = get_game("connect4")
    kept_value = kept_result = 0
    times, misses = [], []
    for i, row in enumerate(rows):
        state = game.state_from_history([int(d) - 1 for d in row["moves"]])
        t0 = time.perf_counter()
        col = choose_action(state, "trudny", seed=i, budget_s=budget)
        times.append(time.perf_counter() - t0)
        after, score = row["analysis"][col], row["score"]
        kept_value += after == score
        same_result = (after > 0) == (score > 0) and (after < 0) == (score < 0)
        kept_result += same_result
        if after != score:
            misses.append({"id": row["id"], "plies": row["plies"], "score": score, "played": after})
    n = len(rows)
    out = {
        "positions": n,
        "kept_value": kept_value,
        "kept_value_share": round(kept_value / n, 4),
        "kept_result_share": round(kept_result / n, 4),
        "move_median_s": round(statistics.median(times), 3),
        "move_max_s": round(max(times), 3),
        "moves_over_budget": sum(t > default_budget("connect4", "trudny") for t in times),
        "misses": misses,
    }
    print(
        f"trudny kept the exact value in {kept_value}/{n} = {kept_value / n:.1%} positions of the solver set, "
        f"the result in {kept_result / n:.1%}; seconds per move median {out['move_median_s']:.3f}, "
        f"max {out['move_max_s']:.3f}, over the default budget {out['moves_over_budget']}",
        flush=True,
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-ply", type=int, default=8)
    parser.add_argument("--plies", default="8,10,14,20")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds at most per solve")
    parser.add_argument("--vectors-every", type=int, default=1, help="use every N-th position of the solver set")
    parser.add_argument("--budget", type=float, default=None, help="trudny's budget (default: its own, 1.8 s)")
    parser.add_argument("--skip-solving", action="store_true")
    parser.add_argument("--skip-trudny", action="store_true")
    args = parser.parse_args(argv)
    plies = [int(p) for p in args.plies.split(",")]
    figures: dict = {"book_plies": book.plies()}
    if not args.skip_solving:
        figures["solving"] = bench_solving(plies, args.per_ply, args.cap)
    if not args.skip_trudny:
        figures["trudny"] = bench_trudny(args.vectors_every, args.budget)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
