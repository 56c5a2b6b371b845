"""How often the review says why: the mistakes and blunders of reviewed games that get a reason.

For every game (bench/review_calibration.py's cases), each ``--levels`` level plays ``--games``
games against średni (colours alternating, computer moves at ``--budget`` seconds), each game
is reviewed as the site reviews it (``games.bots.review.analyse``), and every move classed
mistake or blunder, both sides', is counted with the reason its game's reviewer gave
(``why``: docs/analysis.md "Why a mistake"), or none. Not a timing: the figure is the share.

    .venv/bin/python bench/review_reasons.py [--games 4] [--levels losowy,latwy] [--only connect4,...] [--jobs 2]

Prints a line per game; the last line is one JSON object: per game the moves explained, the
moves flagged, their share and the count of each reason (``null``: none found).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.review_calibration import cases, play
from games.bots.review import EXPLAINED, analyse
from games.engine import get_game


def reasons_of(name: str, level: str, index: int, budget: float) -> list[str | None]:
    """Game ``index`` of ``level`` against średni, reviewed: each flagged move's reason code."""
    slug, params = cases()[name]
    history = play(slug, params, level, 1 + index % 2, 1 + index, budget)
    result = analyse(get_game(slug, **params), history, import_module(f"games.{slug}.review"))
    return [(m.get("why") or {}).get("code") for m in result["moves"] if m["class"] in EXPLAINED]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--levels", default="losowy,latwy")
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    names = [n for n in (args.only.split(",") if args.only else cases()) if n]
    levels = [level for level in args.levels.split(",") if level]
    figures = {}
    for name in names:
        jobs = [(name, level, index, args.budget) for level in levels for index in range(args.games)]
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                games = list(pool.map(reasons_of, *zip(*jobs, strict=True)))
        else:
            games = [reasons_of(*job) for job in jobs]
        codes = Counter(code for game in games for code in game)
        flagged = sum(codes.values())
        explained = flagged - codes[None]
        figures[name] = {
            "games": len(games),
            "flagged": flagged,
            "explained": explained,
            "share": round(explained / flagged, 3) if flagged else None,
            "codes": {str(code) if code else "null": n for code, n in sorted(codes.items(), key=lambda kv: -kv[1])},
        }
        print(f"{name:16} {explained}/{flagged} explained  {figures[name]['codes']}", flush=True)
    print(json.dumps({"levels": levels, "games_each": args.games, "budget_s": args.budget, "cases": figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
