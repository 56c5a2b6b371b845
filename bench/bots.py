"""Tournaments between the computer levels, one per game.

    python bench/bots.py [--games N] [--budget S] [--only GAME] [--workers 2]

Pairings per game: trudny vs sredni, sredni vs latwy, latwy vs a uniformly
random player; N games each (default 100), colours swapped every other game.
Prints win/draw/loss per pairing and the median and maximum seconds per move
per level, then one JSON line with ``pairings`` and ``move_seconds``.
``--budget`` caps every level's time budget per move (the defaults are the
levels' own: trudny 1.8 s). Kropki is played on 10x10.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import RandomPlayer, choose_action, default_budget  # noqa: E402
from games.engine import get_game  # noqa: E402

GAMES = {
    "connect4": {},
    "dots_and_boxes": {},
    "kropki": {"width": 10, "height": 10},
}
PAIRINGS = (("trudny", "sredni"), ("sredni", "latwy"), ("latwy", "losowy"))


def play_one(job: tuple[str, str, str, int, float | None]) -> dict:
    """One game: ``a`` plays first on even ``index``. Returns the winner's
    label (or None) and the seconds of every move by level."""
    slug, a, b, index, budget = job
    game = get_game(slug, **GAMES[slug])
    state = game.new_initial_state()
    first, second = (a, b) if index % 2 == 0 else (b, a)
    labels = {1: first, 2: second}
    randoms = {p: RandomPlayer(seed=index * 7 + p) for p in (1, 2)}
    times: dict[str, list[float]] = {a: [], b: []}
    ply = 0
    while not state.is_terminal():
        player = state.current_player()
        level = labels[player]
        t0 = time.perf_counter()
        if level == "losowy":
            action = randoms[player].choose(state)
        else:
            cap = None if budget is None else min(budget, default_budget(slug, level))
            action = choose_action(state, level, seed=index * 1000 + ply, budget_s=cap)
        times[level].append(time.perf_counter() - t0)
        state.apply_action(action)
        ply += 1
    winner = state.outcome().winner
    return {"winner": None if winner is None else labels[winner], "times": times}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget", type=float, default=None, help="cap on every level's seconds per move")
    parser.add_argument("--only", choices=sorted(GAMES), action="append")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    pairings_out = []
    move_times: dict[tuple[str, str], list[float]] = {}
    with Pool(args.workers) as pool:
        for slug in args.only or list(GAMES):
            for a, b in PAIRINGS:
                jobs = [(slug, a, b, i, args.budget) for i in range(args.games)]
                results = pool.map(play_one, jobs, chunksize=1)
                a_wins = sum(r["winner"] == a for r in results)
                b_wins = sum(r["winner"] == b for r in results)
                draws = len(results) - a_wins - b_wins
                for r in results:
                    for level, ts in r["times"].items():
                        if level != "losowy":
                            move_times.setdefault((slug, level), []).extend(ts)
                decided = a_wins + b_wins
                share = a_wins / decided if decided else 1.0
                print(f"{slug:15} {a:7} vs {b:7}: {a_wins:3} wins, {draws:3} draws, {b_wins:3} losses"
                      f"  ({share:.0%} of decided games)", flush=True)
                pairings_out.append({"game": slug, "a": a, "b": b, "a_wins": a_wins, "b_wins": b_wins, "draws": draws})
    seconds_out = []
    for (slug, level), ts in sorted(move_times.items()):
        med, mx = statistics.median(ts), max(ts)
        print(f"{slug:15} {level:7}: median {med:.3f} s, max {mx:.3f} s per move ({len(ts)} moves)")
        seconds_out.append({"game": slug, "level": level, "median": round(med, 4), "max": round(mx, 4)})
    print(json.dumps({"pairings": pairings_out, "move_seconds": seconds_out}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
