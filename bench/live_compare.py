"""Two checkouts, one bench client, the same minutes: ``bench/live.py`` run
alternately against an old and a new tree.

    python bench/live_compare.py --old /tmp/kropki-base [--new .] [--variants kropki-10,kropki-20,...]
                                 [--rounds R] [--matches N] [--moves M] [--daphnes D] [--think-ms T] [--out FILE]
    python bench/live_compare.py --search --old /tmp/kropki-base [--new .] [--think-ms 2000] [--p99-ms 50]
                                 [--daphnes-list 1,2] [--start N0] [--max-matches NMAX] [--budget-min MIN]

Compare (default): for each of R rounds and each variant, one ``bench/live.py``
run on the old tree, then one on the new (A B A B ...), each run a fresh Redis,
database and daphne(s) (``--tree``); every run's JSON line is kept (``--out``
writes them one per line). Prints a table per variant: the median over the
rounds of moves/s, latency p50/p99, the baseline's p50/p99, daphne's CPU ms
per move (and per baseline relay), the bytes of ``state``/``moved``/
``finished`` frames (median of the runs' medians; max of the maxima), and
new ÷ old. A run that fails (e.g. Kropki 20×20 on a tree whose state frame is
over the 64 KiB limit) is listed with its error and left out of the medians.

Search (``--search``): the human-pace capacity. For each tree and each number
of daphnes in ``--daphnes-list``: the largest number of concurrent matches
(``--variant``, default kropki-10; ``--think-ms``, default 2000) whose p99
latency stays <= ``--p99-ms`` (default 50), found by doubling from
``--start`` (default 8) until a run fails the target (or ``--max-matches``),
then bisecting until the bracket is within ``--tolerance`` (default 10 %) of
the best passing N. One run per candidate N (``--moves``, default 10: a run
then lasts about moves × think); the searches advance in turn (old, new, old,
...), and stop where they are when ``--budget-min`` (default 30) has passed
(``complete: false``). A run with an error counts as a failure. The search runs
no relay baseline (``bench/live.py --no-baseline``): its target is absolute.

The last line printed is one JSON object: compare — ``results[<variant>]``
with ``old``/``new`` medians, ``ratio`` (new ÷ old) and ``errors``; search —
``results[<tree>][<daphnes>]`` with ``max_matches``, ``first_failing``,
``complete`` and its ``runs``, and ``ratio`` (new ÷ old per daphnes).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

from live import tree_revision  # bench/live.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
LIVE = ROOT / "bench" / "live.py"
VARIANTS = ("kropki-10", "kropki-20", "cztery-w-rzedzie", "kropki-i-kwadraty")

# (key in the table, how to read it from a run's JSON, how to combine the runs)
METRICS = [
    ("moves/s", lambda r: r.get("moves_per_s"), "median"),
    ("p50 ms", lambda r: r.get("p50_ms"), "median"),
    ("p99 ms", lambda r: r.get("p99_ms"), "median"),
    ("baseline p50 ms", lambda r: r.get("baseline_p50_ms"), "median"),
    ("baseline p99 ms", lambda r: r.get("baseline_p99_ms"), "median"),
    ("daphne CPU ms/move", lambda r: r.get("daphne_cpu_ms_per_move"), "median"),
    ("baseline daphne CPU ms/relay", lambda r: r.get("baseline_daphne_cpu_ms_per_relay"), "median"),
    ("state B median", lambda r: r.get("frame_bytes", {}).get("state", {}).get("median"), "median"),
    ("state B max", lambda r: r.get("frame_bytes", {}).get("state", {}).get("max"), "max"),
    ("moved B median", lambda r: r.get("frame_bytes", {}).get("moved", {}).get("median"), "median"),
    ("moved B max", lambda r: r.get("frame_bytes", {}).get("moved", {}).get("max"), "max"),
    ("finished B median", lambda r: r.get("frame_bytes", {}).get("finished", {}).get("median"), "median"),
    ("finished B max", lambda r: r.get("frame_bytes", {}).get("finished", {}).get("max"), "max"),
]


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_live(
    tree: Path,
    variant: str,
    matches: int,
    moves: int,
    daphnes: int,
    think_ms: float,
    seed: int,
    timeout: float,
    run_timeout: float,
    baseline: bool = True,
) -> dict:
    """One ``bench/live.py`` run; its JSON line (``error`` set when it failed or printed none)."""
    cmd = [
        sys.executable,
        str(LIVE),
        "--tree",
        str(tree),
        "--variant",
        variant,
        "--matches",
        str(matches),
        "--moves",
        str(moves),
        "--daphnes",
        str(daphnes),
        "--think-ms",
        str(think_ms),
        "--seed",
        str(seed),
        "--timeout",
        str(timeout),
        "--max-seconds",
        str(max(60.0, run_timeout - 60)),
        *([] if baseline else ["--no-baseline"]),
    ]
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=run_timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"error": f"bench/live.py did not end within {run_timeout} s", "tree": str(tree), "variant": variant}
    lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
    try:
        report = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        report = {"error": f"no JSON line (exit {proc.returncode}): {proc.stderr[-1500:]}"}
    report.setdefault("tree", str(tree))
    report.setdefault("variant", variant)
    report["wall_s"] = round(time.monotonic() - t0, 1)
    return report


def combine(values: list, how: str):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return max(values) if how == "max" else round(statistics.median(values), 2)


def ratio(new, old):
    if new is None or old in (None, 0):
        return None
    return round(new / old, 2)


def short(report: dict) -> str:
    if report.get("error"):
        return f"ERROR {report['error'][:300]}"
    fb = report.get("frame_bytes", {})
    return (
        f"{report.get('moves_per_s')} moves/s, p50 {report.get('p50_ms')} p99 {report.get('p99_ms')} ms "
        f"(baseline {report.get('baseline_p50_ms')}/{report.get('baseline_p99_ms')}), daphne "
        f"{report.get('daphne_cpu_ms_per_move')} ms CPU/move, moved {fb.get('moved', {}).get('median')}"
        f"/{fb.get('moved', {}).get('max')} B, state max {fb.get('state', {}).get('max')} B, "
        f"load {report.get('load_avg_1m')}, {report.get('wall_s')} s"
    )


def compare(args, trees: dict[str, Path]) -> dict:
    runs: dict[str, dict[str, list[dict]]] = {v: {name: [] for name in trees} for v in args.variants}
    out = open(args.out, "a") if args.out else None  # noqa: SIM115 - optional, closed after the rounds
    for r in range(args.rounds):
        for variant in args.variants:
            for name, tree in trees.items():  # A B, A B, ...
                report = run_live(
                    tree,
                    variant,
                    args.matches,
                    args.moves,
                    args.daphnes,
                    args.think_ms,
                    args.seed + r,
                    args.timeout,
                    args.run_timeout,
                )
                report["round"] = r + 1
                report["code"] = name
                runs[variant][name].append(report)
                log(f"round {r + 1}/{args.rounds} {variant} {name}: {short(report)}")
                if out is not None:
                    out.write(json.dumps(report) + "\n")
                    out.flush()
    if out is not None:
        out.close()

    results = {}
    for variant in args.variants:
        entry: dict = {"errors": {}}
        for name in trees:
            good = [x for x in runs[variant][name] if not x.get("error")]
            entry[name] = {key: combine([get(x) for x in good], how) for key, get, how in METRICS}
            entry[name]["runs_ok"] = len(good)
            entry["errors"][name] = sorted({x["error"] for x in runs[variant][name] if x.get("error")})
        entry["ratio"] = {key: ratio(entry["new"][key], entry["old"][key]) for key, _, _ in METRICS}
        results[variant] = entry

    print(
        f"\n{args.matches} matches, {args.daphnes} daphne(s), think {args.think_ms} ms, up to {args.moves} moves; "
        f"medians of {args.rounds} rounds (old = {trees['old']} {tree_revision(trees['old'])}, "
        f"new = {trees['new']} {tree_revision(trees['new'])})"
    )
    for variant, entry in results.items():
        print(f"\n{variant} (runs ok: old {entry['old']['runs_ok']}, new {entry['new']['runs_ok']})")
        print(f"  {'':30} {'old':>10} {'new':>10} {'new/old':>8}")
        for key, _, _ in METRICS:
            o, n, q = entry["old"][key], entry["new"][key], entry["ratio"][key]
            if o is None and n is None:
                continue
            print(f"  {key:30} {fmt(o):>10} {fmt(n):>10} {fmt(q):>8}")
        for name, errors in entry["errors"].items():
            for e in errors:
                print(f"  {name} error: {e[:400]}")
    return {
        "mode": "compare",
        "matches": args.matches,
        "daphnes": args.daphnes,
        "think_ms": args.think_ms,
        "max_moves": args.moves,
        "rounds": args.rounds,
        "trees": {name: {"path": str(t), "rev": tree_revision(t)} for name, t in trees.items()},
        "results": results,
    }


def fmt(v) -> str:
    return "-" if v is None else (f"{v:g}" if isinstance(v, float) else str(v))


class Search:
    """Largest N with p99 <= target: doubling from ``start``, then bisecting."""

    def __init__(self, tree: str, daphnes: int, start: int, most: int, tolerance: float) -> None:
        self.tree, self.daphnes, self.most, self.tolerance = tree, daphnes, most, tolerance
        self.lo = 0  # best passing
        self.hi: int | None = None  # first failing
        self.next: int | None = min(start, most)
        self.runs: list[dict] = []

    def record(self, n: int, report: dict, target: float) -> None:
        p99 = report.get("p99_ms")
        ok = not report.get("error") and p99 is not None and p99 <= target
        self.runs.append(
            {
                "matches": n,
                "ok": ok,
                "p99_ms": p99,
                "p50_ms": report.get("p50_ms"),
                "moves_per_s": report.get("moves_per_s"),
                "daphne_cpu_ms_per_move": report.get("daphne_cpu_ms_per_move"),
                "load_avg_1m": report.get("load_avg_1m"),
                **({"error": report["error"][:300]} if report.get("error") else {}),
            }
        )
        if ok:
            self.lo = max(self.lo, n)
        else:
            self.hi = n if self.hi is None else min(self.hi, n)
        if self.hi is None:
            self.next = None if self.lo >= self.most else min(2 * self.lo, self.most)
        elif self.hi - self.lo <= max(1, math.ceil(self.lo * self.tolerance)):
            self.next = None
        else:
            self.next = (self.lo + self.hi) // 2

    def result(self) -> dict:
        return {"max_matches": self.lo, "first_failing": self.hi, "complete": self.next is None, "runs": self.runs}


def search(args, trees: dict[str, Path]) -> dict:
    deadline = time.monotonic() + args.budget_min * 60
    searches = [
        Search(name, d, args.start, args.max_matches, args.tolerance) for d in args.daphnes_list for name in trees
    ]
    while any(s.next is not None for s in searches):
        for s in searches:
            if s.next is None:
                continue
            if time.monotonic() > deadline:
                log(f"budget of {args.budget_min} min spent: stopping the searches where they are")
                break
            n = s.next
            # No relay baseline: the target is absolute (p99 <= --p99-ms), and the baseline's own
            # channels_redis relay loses frames past ~200 matches, which ended the runs before the moves.
            report = run_live(
                trees[s.tree],
                args.variant,
                n,
                args.moves,
                s.daphnes,
                args.think_ms,
                args.seed,
                args.timeout,
                args.run_timeout,
                baseline=False,
            )
            s.record(n, report, args.p99_ms)
            log(f"search {s.tree} daphnes={s.daphnes} N={n}: {'ok' if s.runs[-1]['ok'] else 'FAIL'} {short(report)}")
        else:
            continue
        break

    results: dict = {name: {} for name in trees}
    for s in searches:
        results[s.tree][str(s.daphnes)] = s.result()
    ratios = {
        str(d): ratio(results["new"][str(d)]["max_matches"], results["old"][str(d)]["max_matches"])
        for d in args.daphnes_list
    }
    print(f"\n{args.variant}, think {args.think_ms} ms, p99 <= {args.p99_ms} ms, {args.moves} moves per match")
    print(f"  {'daphnes':>8} {'old N':>8} {'new N':>8} {'new/old':>8}  (complete old/new; first failing N)")
    for d in args.daphnes_list:
        o, n = results["old"][str(d)], results["new"][str(d)]
        print(
            f"  {d:>8} {o['max_matches']:>8} {n['max_matches']:>8} {fmt(ratios[str(d)]):>8}  "
            f"({o['complete']}/{n['complete']}; {o['first_failing']}/{n['first_failing']})"
        )
    return {
        "mode": "search",
        "variant": args.variant,
        "think_ms": args.think_ms,
        "p99_target_ms": args.p99_ms,
        "max_moves": args.moves,
        "trees": {name: {"path": str(t), "rev": tree_revision(t)} for name, t in trees.items()},
        "results": results,
        "ratio": ratios,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the old checkout (e.g. a worktree of current main)")
    parser.add_argument("--new", type=Path, default=ROOT, help="the new checkout (default: this one)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="compare: comma separated (default: all four)")
    parser.add_argument("--variant", default="kropki-10", help="search: the variant (default kropki-10)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--moves", type=int, default=None, help="moves per match (default 40; 10 with --search)")
    parser.add_argument("--daphnes", type=int, default=1)
    parser.add_argument("--think-ms", type=float, default=None, help="default 0; 2000 with --search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0, help="live.py --timeout (per frame)")
    parser.add_argument("--run-timeout", type=float, default=900.0, help="seconds one live.py run may take")
    parser.add_argument("--out", help="append every run's JSON line to this file")
    parser.add_argument("--search", action="store_true", help="the human-pace capacity search (see above)")
    parser.add_argument("--p99-ms", type=float, default=50.0)
    parser.add_argument("--daphnes-list", default="1,2")
    parser.add_argument("--start", type=int, default=8)
    parser.add_argument("--max-matches", type=int, default=1024)
    parser.add_argument("--tolerance", type=float, default=0.1)
    parser.add_argument("--budget-min", type=float, default=30.0)
    args = parser.parse_args()
    args.variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    args.daphnes_list = [int(d) for d in args.daphnes_list.split(",") if d.strip()]
    if args.moves is None:
        args.moves = 10 if args.search else 40
    if args.think_ms is None:
        args.think_ms = 2000.0 if args.search else 0.0
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    report = search(args, trees) if args.search else compare(args, trees)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
