"""An arena with many players (docs/tournaments.md "Measured"):

    python bench/tournament.py [--players N] [--waves W] [--requests R]

Builds a throw-away database (bench/pages.py's: a temporary SQLite file, or a fresh
PostgreSQL database when DATABASE_URL names one) and, unless REDIS_URL is set, an
embedded Redis of its own (the wave publishes its frames after commit). Then, with N
players (default 1,000) in one running arena, every one of them free, with points,
ratings and ten games' results each:

- ``wave_ms``: one pairing wave (``tournaments_pair``: the advisory lock, reading the
  free players, choosing the pairs, creating the N/2 matches, the players' lines, and
  after commit the standings frame and one pipelined publish telling every paired
  player), W times (default 5; the matches are deleted and the players freed between
  waves); median and max. Budget: 200 ms.
- ``frame_bytes``: the ``tournament`` frame of that arena as the socket sends it (JSON,
  UTF-8). Budget: 32 kB.
- the tournament page (Django's whole request stack, a logged-in player of the arena)
  against the trivial page (the log-in form), R requests each in turn (default 40);
  ``x_trivial``. Budget: 3×.

Prints a table and, as its last line, one JSON object with every figure and ``ok``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pages import _prepare_database, _time  # noqa: E402 - the same database and timing as the pages' bench

BUDGET_WAVE_MS = 200.0
BUDGET_FRAME_BYTES = 32 * 1024
BUDGET_X_TRIVIAL = 3.0


def _seed(n: int):
    from django.utils import timezone

    from accounts.models import User
    from games.tournaments.models import Tournament, TournamentPlayer
    from tests.helpers import C4

    rng = random.Random(27)
    now = timezone.now()
    users = User.objects.bulk_create(
        [User(username=f"gracz_{i:05d}_arena", email=f"g{i}@example.com", password="!") for i in range(n)]
    )
    t = Tournament.objects.create(
        name="Arena wieczorna (bench)",
        variant=C4,
        starts_at=now - timedelta(minutes=5),
        ends_at=now + timedelta(hours=1),
        minutes=65,
        status=Tournament.Status.RUNNING,
    )
    lines = []
    for u in users:
        results = [
            {"m": 0, "r": r, "p": {"w": 2, "d": 1, "l": 0}[r], "f": False, "b": False} for r in rng.choices("wdl", k=10)
        ]
        lines.append(
            TournamentPlayer(
                tournament=t,
                user=u,
                rating=rng.gauss(1500, 200),
                points=sum(r["p"] for r in results),
                games=10,
                wins_in_row=rng.choice((0, 0, 1, 2, 3)),
                performance=rng.gauss(1500, 200),
                results=results,
                joined_at=now,
            )
        )
    TournamentPlayer.objects.bulk_create(lines, batch_size=500)
    return t, users


def _free_everyone(t) -> None:
    from games.models import Match
    from games.tournaments.models import TournamentPlayer

    TournamentPlayer.objects.filter(tournament=t).update(match=None, last_opponent=None)
    Match.objects.filter(tournament=t).delete()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--waves", type=int, default=5)
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args()
    os.chdir(ROOT)
    database, cleanup = _prepare_database()
    redis_proc = None
    if not os.environ.get("REDIS_URL"):
        from bench.live import start_redis

        redis_proc, os.environ["REDIS_URL"] = start_redis(Path(tempfile.mkdtemp(prefix="kropki-bench-redis-")))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")
    import django

    django.setup()
    try:
        return _run(args, database)
    finally:
        cleanup()
        if redis_proc is not None:
            redis_proc.terminate()


def _run(args, database: str) -> int:
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from games.tournaments.selectors import standings_frame
    from games.tournaments.services import tournaments_pair

    setup_test_environment()
    call_command("migrate", verbosity=0)
    t, users = _seed(args.players)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    waves, paired = [], 0
    for _ in range(args.waves):
        _free_everyone(t)
        t0 = time.perf_counter()
        matches = tournaments_pair()
        waves.append((time.perf_counter() - t0) * 1000)
        paired = len(matches)
    frame = standings_frame(t)
    frame_bytes = len(json.dumps(frame, ensure_ascii=False).encode())

    client = Client()
    client.force_login(users[len(users) // 2])
    results = _time(
        {
            "trivial": (Client(), "/konto/logowanie/"),
            "tournament": (client, f"/turnieje/{t.pk}/"),
            "trivial_logged_in": (client, "/zasady/"),  # for reading only: a member's light page
        },
        args.requests,
    )
    trivial = results["trivial"]["median_ms"]
    x_trivial = round(results["tournament"]["median_ms"] / trivial, 2) if trivial else None

    report = {
        "database": database,
        "players": args.players,
        "paired_per_wave": paired,
        "wave_ms_median": round(statistics.median(waves), 1),
        "wave_ms_max": round(max(waves), 1),
        "frame_bytes": frame_bytes,
        "page": results,
        "page_x_trivial": x_trivial,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
    }
    report["ok"] = bool(
        report["wave_ms_median"] <= BUDGET_WAVE_MS
        and frame_bytes <= BUDGET_FRAME_BYTES
        and x_trivial is not None
        and x_trivial <= BUDGET_X_TRIVIAL
    )
    print(f"{database}; {args.players} players in one arena; {args.waves} waves; {args.requests} requests per page")
    print(f"wave: median {report['wave_ms_median']} ms, max {report['wave_ms_max']} ms ({paired} matches a wave)")
    print(f"standings frame: {frame_bytes} bytes ({frame_bytes / 1024:.1f} kB)")
    for name, f in results.items():
        print(f"{name:<12} median {f['median_ms']:>7.2f} ms  p90 {f['p90_ms']:>7.2f} ms  {f['bytes'] / 1024:>6.1f} kB")
    print(f"tournament page: {x_trivial} x trivial")
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
