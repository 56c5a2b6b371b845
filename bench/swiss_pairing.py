"""One Swiss round of many players (docs/tournaments.md "Swiss", "Measured"):

    python bench/swiss_pairing.py [--players N] [--rounds K] [--repeat R]

Simulates K rounds (default 5) of a Swiss of N players (default 1,000) with the site's own
pairing (games/tournaments/swiss/pairing.py; random results: win, draw or loss), then times
the pairing of round K + 1 (scores spread by K rounds, each player with K opponents not to
meet again and a colour history) R times (default 5): past DUTCH_LIMIT players, our
score-group search. The same for a Swiss of DUTCH_LIMIT (40) players, paired by the FIDE
Dutch (caissify-pairings), and the ratio of the two medians. Budget: median 1 s each.

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

from games.tournaments.swiss.pairing import DUTCH_LIMIT, Entrant, Round, after_round, pair_round

BUDGET_S = 1.0


def simulate(players: int, rounds: int, seed: int = 1) -> list[Entrant]:
    rng = random.Random(seed)
    entrants = [Entrant(id=i, score=0, rating=1500 + rng.randint(-400, 400), number=i) for i in range(1, players + 1)]
    for _ in range(rounds):
        entrants = after_round(entrants, pair_round(entrants), lambda _pink, _blue: rng.choice((2, 1, 0)))
    return entrants


def timed(entrants: list[Entrant], repeat: int) -> tuple[list[float], Round]:
    times = []
    result = None
    for _ in range(repeat):
        t = time.perf_counter()
        result = pair_round(entrants)
        times.append(time.perf_counter() - t)
    assert result is not None
    return times, result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    times, result = timed(simulate(args.players, args.rounds), args.repeat)
    median = statistics.median(times)
    dutch_times, dutch = timed(simulate(DUTCH_LIMIT, args.rounds), args.repeat)
    dutch_median = statistics.median(dutch_times)
    report = {
        "bench": "swiss_pairing",
        "players": args.players,
        "after_rounds": args.rounds,
        "pairs": len(result.pairs),
        "bye": result.bye is not None,
        "repeats": result.repeats,
        "median_s": round(median, 4),
        "max_s": round(max(times), 4),
        "dutch_players": DUTCH_LIMIT,
        "dutch_median_s": round(dutch_median, 4),
        "dutch_over_search": round(dutch_median / median, 2),
        "budget_s": BUDGET_S,
        "python": platform.python_version(),
        "ok": median <= BUDGET_S and dutch_median <= BUDGET_S and result.repeats == dutch.repeats == 0,
    }
    print(
        f"{args.players} players after {args.rounds} rounds: median {median * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
    )
    print(f"{len(result.pairs)} pairs, bye {result.bye}, repeats {result.repeats}")
    print(f"{DUTCH_LIMIT} players (the FIDE Dutch) after {args.rounds} rounds: median {dutch_median * 1000:.1f} ms")
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
