"""One Swiss round of many players (docs/tournaments.md "Swiss", "Measured"):

    python bench/swiss_pairing.py [--players N] [--rounds K] [--repeat R]

Simulates K rounds (default 5) of a Swiss of N players (default 1,000) with the site's own
pairing (games/tournaments/swiss/pairing.py; random results: win, draw or loss), then times
the pairing of round K + 1 (scores spread by K rounds, each player with K opponents not to
meet again and a colour history) R times (default 5). Budget: median 1 s.

Prints a line per figure and, as its last line, one JSON object with every figure and ``ok``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.tournaments.swiss.pairing import Entrant, after_round, pair_round

BUDGET_S = 1.0


def simulate(players: int, rounds: int, seed: int = 1) -> list[Entrant]:
    rng = random.Random(seed)
    entrants = [Entrant(id=i, score=0, rating=1500 + rng.randint(-400, 400), number=i) for i in range(1, players + 1)]
    for _ in range(rounds):
        entrants = after_round(entrants, pair_round(entrants), lambda _pink, _blue: rng.choice((2, 1, 0)))
    return entrants


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    entrants = simulate(args.players, args.rounds)
    times = []
    result = None
    for _ in range(args.repeat):
        t = time.perf_counter()
        result = pair_round(entrants)
        times.append(time.perf_counter() - t)
    assert result is not None
    median = statistics.median(times)
    report = {
        "bench": "swiss_pairing",
        "players": args.players,
        "after_rounds": args.rounds,
        "pairs": len(result.pairs),
        "bye": result.bye is not None,
        "repeats": result.repeats,
        "median_s": round(median, 4),
        "max_s": round(max(times), 4),
        "budget_s": BUDGET_S,
        "python": platform.python_version(),
        "ok": median <= BUDGET_S and result.repeats == 0,
    }
    print(
        f"{args.players} players after {args.rounds} rounds: median {median * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
    )
    print(f"{len(result.pairs)} pairs, bye {result.bye}, repeats {result.repeats}")
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
