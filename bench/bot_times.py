"""Seconds per move of the computer at its real (default) budgets.

The site's promise for trudny is a median of at most 2 s and never more than
5 s per move on this machine. This plays each level from positions reached by
random play (a few plies in, mid-game and late), one move at a time in this
process, and reports the median and maximum per game and level, next to a
baseline measured in the same run (a fixed amount of pure-Python work), so a
loaded machine shows up as a larger baseline.

    .venv/bin/python bench/bot_times.py [--positions N] [--levels trudny,sredni]
    .venv/bin/python bench/bot_times.py --queue [--only kropki_10x10,kropki_20x20] [--positions N]

``--queue`` sends the Kropki moves through a Celery ``bots`` queue instead
(``bench/kropki_bot_queue.py``: an embedded Redis, a prefork worker of 2
processes as the site's ``default,bots`` worker, one task per move) and
times each move from sending the task to its result.

Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import LEVELS, choose_action
from games.engine import get_game

GAMES = {
    "connect4": ("connect4", {}),
    "dots_and_boxes": ("dots_and_boxes", {"rows": 5, "cols": 5}),
    "kropki_10x10": ("kropki", {"width": 10, "height": 10}),
    "kropki_20x20": ("kropki", {"width": 20, "height": 20}),
}


def baseline() -> float:
    start = time.perf_counter()
    total = 0
    for i in range(200_000):
        total += i * i % 7
    return time.perf_counter() - start


def positions(slug: str, params: dict, count: int, rng: random.Random) -> list:
    game = get_game(slug, **params)
    out: list = []
    while len(out) < count:
        state = game.new_initial_state()
        end = getattr(game, "end_action", None)
        depth = rng.randrange(2, max(3, game.max_game_length // 2))
        for _ in range(depth):
            legal = [a for a in state.legal_actions() if a != end]
            if state.is_terminal() or not legal:
                break
            state.apply_action(rng.choice(legal))
        if not state.is_terminal():
            out.append(state)
    return out


class BotQueue:
    """An embedded Redis and a Celery worker on the ``bots`` queue running
    ``bench/kropki_bot_queue.py``; ``move()`` sends one task and waits."""

    def __init__(self) -> None:
        from kropki_site.lib import devredis

        self.workdir = Path(tempfile.mkdtemp(prefix="kropki-bot-queue-"))
        sock = self.workdir / "redis.sock"
        self.redis = devredis.start(sock)
        os.environ["KROPKI_BENCH_BROKER"] = f"redis+socket://{sock}"
        root = Path(__file__).resolve().parent.parent
        env = dict(os.environ, PYTHONPATH=str(root))
        with open(self.workdir / "worker.log", "w") as log:  # the worker keeps its own copy
            self.worker = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "bench.kropki_bot_queue",
                    "worker",
                    "-Q",
                    "bots",
                    "--concurrency",
                    "2",
                    "--pool",
                    "prefork",
                    "--loglevel",
                    "WARNING",
                    "-n",
                    "bench-bots@%h",
                ],
                cwd=root,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
        sys.path.insert(0, str(root))
        from bench import kropki_bot_queue

        self.app = kropki_bot_queue.app
        self.app.conf.broker_url = self.app.conf.result_backend = os.environ["KROPKI_BENCH_BROKER"]
        self.task = kropki_bot_queue.bot_move
        deadline = time.monotonic() + 60
        while not self.app.control.ping(timeout=0.5):
            if time.monotonic() > deadline or self.worker.poll() is not None:
                raise RuntimeError(f"the bots worker did not start; see {self.workdir / 'worker.log'}")

    def move(self, state, level: str, seed: int) -> tuple[float, float]:
        """(seconds from sending to the result, seconds of the search in the worker)."""
        game = state.game
        start = time.perf_counter()
        result = self.task.apply_async((game.width, game.height, list(state.history), level, seed), queue="bots").get(
            timeout=60
        )
        return time.perf_counter() - start, result["search_s"]

    def close(self) -> None:
        import signal

        for proc in (self.worker, self.redis):
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", default=None, help="comma-separated names of GAMES")
    parser.add_argument("--queue", action="store_true", help="Kropki moves through a Celery bots queue")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    base = [baseline() for _ in range(5)]
    rows = []
    names = args.only.split(",") if args.only else list(GAMES)
    if args.queue:
        names = [name for name in names if name.startswith("kropki")]
    queue = BotQueue() if args.queue else None
    try:
        rows = measure(names, args, rng, queue)
    finally:
        if queue is not None:
            queue.close()
    result = {"baseline_s": round(statistics.median(base), 4), "queue": args.queue, "move_seconds": rows}
    print(json.dumps(result))
    return 0


def measure(names: list[str], args, rng: random.Random, queue: BotQueue | None) -> list[dict]:
    rows = []
    for name in names:
        slug, params = GAMES[name]
        states = positions(slug, params, args.positions, rng)
        for level in args.levels.split(","):
            times = []
            for state in states:
                if queue is not None:
                    elapsed, _ = queue.move(state, level, rng.randrange(1 << 30))
                    times.append(elapsed)
                    continue
                start = time.perf_counter()
                choose_action(state.clone(), level, seed=rng.randrange(1 << 30))
                times.append(time.perf_counter() - start)
            row = {
                "game": name,
                "level": level,
                "median": round(statistics.median(times), 3),
                "max": round(max(times), 3),
                "moves": len(times),
            }
            rows.append(row)
            print(
                f"{name:16} {level:7} median {row['median']:6.3f} s  max {row['max']:6.3f} s  ({len(times)} moves)",
                flush=True,
            )
    return rows


if __name__ == "__main__":
    sys.exit(main())
