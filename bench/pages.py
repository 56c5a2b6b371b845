"""Server time of the pages that grow with a player's history.

    python bench/pages.py [--matches N] [--requests R] [--tree PATH]
    python bench/pages.py --compare OLD_TREE [--rounds K] [--matches N] [--requests R]

Builds a throw-away database (a temporary SQLite file; or, when DATABASE_URL
names PostgreSQL, a fresh database ``<name>_bench_<pid>`` on that server,
dropped afterwards), migrates it, and bulk-creates one player with N finished
rated Cztery w rzędzie matches (default 10 000) against two opponents, their
rating changes and ratings (tests/factories.py), plus one 400-move Kropki
20×20 match. Then it times R requests (default 40, after 3 warm-ups) of each
page through Django's full request stack (django.test.Client: middleware,
session, view, template), viewed by a logged-in player:

- ``trivial``: the log-in page (a form, no queries): the reference;
- ``profile``: /gracz/<player>/ (first page), and ``profile_deep``: page 100
  of the wins;
- ``record``: /partia/<id>/zapis/ of one of the N matches, and
  ``record_kropki_400``: the record of the 400-move Kropki match;
- ``frame_kropki_400``: one replay frame (/zapis/klatka/200/) of that match.

The pages are requested in turn (trivial, profile, ..., trivial, profile,
...), so a busy machine slows all of them alike. Each page's first request
(``first_ms``: nothing of it cached yet in this process) is reported apart
from the timed ones. On PostgreSQL the tables are ANALYZEd after the bulk
insert, as autovacuum would soon do on a real server.

Prints a table (median and p90 in ms, x trivial) and, as its last line, one
JSON object with every figure.

``--tree PATH`` runs the pages of another checkout (its code, settings and
templates; this script's seeding and timing). ``--compare OLD_TREE`` runs this
script K times (default 3) against OLD_TREE and against this checkout in turn
(old, new, old, new...; each run its own process and database) and prints the
medians over the rounds of each page's median ms and x trivial per tree, and
new ÷ old; its last line is one JSON object with every run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _prepare_database() -> tuple[str, Callable[[], None]]:
    """Point DATABASE_URL at a fresh database; return a description and a cleanup function."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import dj_database_url
        import psycopg

        cfg = dj_database_url.parse(url)
        name = f"{cfg['NAME']}_bench_{os.getpid()}"
        admin: dict[str, Any] = dict(
            host=cfg["HOST"] or None,
            port=cfg["PORT"] or None,
            user=cfg["USER"] or None,
            password=cfg["PASSWORD"] or None,
            dbname="postgres",
            autocommit=True,
        )
        with psycopg.connect(**{k: v for k, v in admin.items() if v is not None}) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + name

        def drop_database() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(**{k: v for k, v in admin.items() if v is not None}) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        return f"PostgreSQL ({name})", drop_database
    directory = tempfile.mkdtemp(prefix="kropki-bench-")
    path = Path(directory) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"

    def cleanup() -> None:
        import shutil

        shutil.rmtree(directory, ignore_errors=True)

    return "SQLite (temporary file)", cleanup


def _kropki_match(alice, bob, moves: int = 400, seed: int = 7):
    """A finished rated Kropki 20×20 match of ``moves`` random moves (rows written directly)."""
    from games.catalogue import variant as get_variant
    from games.models import Match, Move

    game = get_variant("kropki-20").game()
    state = game.new_initial_state()
    rng = random.Random(seed)
    history: list[int] = []
    players: list[int] = []
    while len(history) < moves and state.outcome() is None:
        legal = [a for a in state.legal_actions() if a != game.end_action]
        if not legal:
            break
        action = rng.choice(legal)
        player = state.current_player()
        assert player is not None
        players.append(player)
        state.apply_action(action)
        history.append(action)
    pink, blue = state.scores()
    match = Match.objects.create(
        variant="kropki-20",
        pink=alice,
        blue=bob,
        rated=True,
        status=Match.Status.FINISHED,
        winner=1 if pink > blue else 2 if blue > pink else None,
        end_reason="score",
        ply=len(history),
        history=history,
        pink_score=pink,
        blue_score=blue,
    )
    Move.objects.bulk_create(
        [
            Move(match=match, ply=i + 1, player=p, action=a)
            for i, (a, p) in enumerate(zip(history, players, strict=True))
        ]
    )
    return match


def _get(client, url: str) -> tuple[float, int]:
    t0 = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - t0
    assert response.status_code == 200, (url, response.status_code)
    return elapsed, len(response.content)


def _time(pages: dict[str, tuple], requests: int, warmup: int = 3) -> dict:
    """Time every page ``requests`` times, the pages in turn (round robin), so that all of
    them, and the trivial reference, share whatever load the machine has at each moment."""
    results = {name: {"url": url, "samples": []} for name, (_client, url) in pages.items()}
    for name, (client, url) in pages.items():
        for i in range(warmup):
            elapsed, _size = _get(client, url)
            if i == 0:
                results[name]["first_ms"] = round(elapsed * 1000, 2)
    for _ in range(requests):
        for name, (client, url) in pages.items():
            elapsed, results[name]["bytes"] = _get(client, url)
            results[name]["samples"].append(elapsed)
    for figures in results.values():
        samples = sorted(figures.pop("samples"))
        figures["median_ms"] = round(statistics.median(samples) * 1000, 2)
        figures["p90_ms"] = round(samples[int(0.9 * (len(samples) - 1))] * 1000, 2)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose pages are timed")
    parser.add_argument("--compare", type=Path, metavar="OLD_TREE", help="alternate runs: OLD_TREE, then this one")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.compare:
        return _compare(args)

    tree = args.tree.resolve()
    os.chdir(tree)
    sys.path.insert(0, str(tree))
    database, cleanup = _prepare_database()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")
    import django

    django.setup()
    try:
        return _run(args, database)
    finally:
        cleanup()


def _run(args, database: str) -> int:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
    User = get_user_model()
    player = User.objects.create_user("gracz", "gracz@example.com", "kropka-Trudna-2024")
    opponents = [User.objects.create_user(n, f"{n}@example.com", "kropka-Trudna-2024") for n in ("rywal1", "rywal2")]

    from tests.factories import bulk_finished_matches

    t0 = time.perf_counter()
    ids = bulk_finished_matches(player, opponents, args.matches)
    long_match = _kropki_match(player, opponents[0])
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    build_s = time.perf_counter() - t0

    client = Client()
    client.force_login(opponents[1])
    deep_page = max(1, min(100, args.matches // 20 // 4))  # wins are about a third of the matches
    pages = {
        "trivial": "/konto/logowanie/",
        "profile": "/gracz/gracz/",
        "profile_deep": f"/gracz/gracz/?wynik=win&strona={deep_page}",
        "record": f"/partia/{ids[len(ids) // 2]}/zapis/",
        "record_kropki_400": f"/partia/{long_match.pk}/zapis/",
        "frame_kropki_400": f"/partia/{long_match.pk}/zapis/klatka/200/",
    }
    anonymous = Client()
    results = _time(
        {name: (anonymous if name == "trivial" else client, url) for name, url in pages.items()}, args.requests
    )
    trivial = results["trivial"]["median_ms"]
    for figures in results.values():
        figures["x_trivial"] = round(figures["median_ms"] / trivial, 1) if trivial else None

    print(
        f"{database}; {args.matches} matches for one player (built in {build_s:.1f} s); "
        f"{args.requests} requests per page, Django test client; tree {args.tree.resolve()}"
    )
    print(f"{'page':<20} {'median ms':>10} {'p90 ms':>8} {'x trivial':>10} {'first ms':>9} {'KB':>7}")
    for name, f in results.items():
        print(
            f"{name:<20} {f['median_ms']:>10.2f} {f['p90_ms']:>8.2f} {f['x_trivial']:>10} "
            f"{f['first_ms']:>9.2f} {f['bytes'] / 1024:>7.1f}"
        )
    print(
        json.dumps(
            {
                "tree": str(args.tree.resolve()),
                "load_avg_1m": round(os.getloadavg()[0], 2),
                "database": database,
                "matches": args.matches,
                "requests": args.requests,
                "python": platform.python_version(),
                "results": results,
            }
        )
    )
    return 0


def _compare(args) -> int:
    """``--rounds`` runs of this script on the old tree and on this one, in turn; medians per tree."""
    trees = {"old": args.compare.resolve(), "new": ROOT}
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for r in range(args.rounds):
        for name, tree in trees.items():
            cmd = [
                sys.executable,
                str(Path(__file__).resolve()),
                "--tree",
                str(tree),
                "--matches",
                str(args.matches),
                "--requests",
                str(args.requests),
            ]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
            if proc.returncode or not lines:
                print(f"round {r + 1} {name}: failed (exit {proc.returncode}): {proc.stderr[-2000:]}", file=sys.stderr)
                return 1
            report = json.loads(lines[-1])
            runs[name].append(report)
            figures = ", ".join(
                f"{page} {f['median_ms']} ms ({f['x_trivial']}x)" for page, f in report["results"].items()
            )
            print(f"round {r + 1} {name} (load {report['load_avg_1m']}): {figures}", file=sys.stderr, flush=True)

    def median(name: str, page: str, key: str) -> float:
        return round(statistics.median(run["results"][page][key] for run in runs[name]), 2)

    pages = list(runs["new"][0]["results"])
    summary: dict[str, dict[str, Any]] = {
        page: {name: {key: median(name, page, key) for key in ("median_ms", "x_trivial", "first_ms")} for name in trees}
        for page in pages
    }
    print(f"{args.rounds} rounds, old = {trees['old']}, new = {trees['new']}; medians of the rounds")
    print(f"{'page':<20} {'old ms':>8} {'old x':>6} {'new ms':>8} {'new x':>6} {'new/old':>8}")
    for page, s in summary.items():
        s["new_over_old"] = round(s["new"]["median_ms"] / s["old"]["median_ms"], 2)
        print(
            f"{page:<20} {s['old']['median_ms']:>8.2f} {s['old']['x_trivial']:>6} "
            f"{s['new']['median_ms']:>8.2f} {s['new']['x_trivial']:>6} {s['new_over_old']:>8}"
        )
    print(
        json.dumps(
            {"rounds": args.rounds, "trees": {k: str(v) for k, v in trees.items()}, "summary": summary, "runs": runs}
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
