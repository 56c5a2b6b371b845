"""Where the time of one move goes, in one process, without sockets.

    python bench/profile_move.py [--matches N] [--moves M] [--variant KEY] [--cprofile]

Sets up a temporary database (SQLite, or a fresh PostgreSQL database next to
DATABASE_URL when set) and its own Redis, creates N matches, and plays M random
legal moves in each through ``services.match_play`` exactly as the consumer
does (one sync call; the commit hook builds the frame and does the Redis
``PUBLISH``). Prints the mean wall time per move split into the
transaction and the commit hook's parts, and with ``--cprofile`` the top of a
cProfile of the whole run.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--variant", default="kropki-10")
    parser.add_argument("--cprofile", action="store_true")
    args = parser.parse_args()

    from live import in_process_site  # bench/live.py

    with in_process_site("prof"):
        run(args)
    return 0


def run(args) -> None:
    from django.contrib.auth import get_user_model

    from games import play as services
    from games import selectors
    from games.display import snapshot
    from games.live import transport as realtime

    User = get_user_model()
    matches = []
    for i in range(args.matches):
        pink = User.objects.create_user(username=f"prof-p{i}", email=f"p{i}@example.com")
        blue = User.objects.create_user(username=f"prof-b{i}", email=f"b{i}@example.com")
        matches.append((services.match_create(variant=args.variant, pink_id=pink.pk, blue_id=blue.pk), pink, blue))

    # Wrap the parts to time them (the wrappers cost ~1 µs each).
    spent: dict[str, float] = defaultdict(float)

    def timed(module, name, label):
        orig = getattr(module, name)

        def wrapper(*a, **kw):
            t = time.perf_counter()
            try:
                return orig(*a, **kw)
            finally:
                spent[label] += time.perf_counter() - t

        setattr(module, name, wrapper)

    import games.display.boards as render

    timed(services, "match_play", "total: match_play (transaction + commit hook)")
    timed(realtime, "send_to_match", "  commit hook: send_to_match (encode + publish)")
    timed(snapshot, "match_snapshot", "      match_snapshot")
    timed(render, "render_board", "        render_board (SVG)")
    timed(realtime, "publish", "    publish (one Redis round trip, games/live/hub.py)")
    if hasattr(services, "_enqueue_expire"):  # trees before the beat-driven clock: a publish per move
        timed(services, "_enqueue_expire", "  commit hook: the clock's alarm (Celery publish)")

    rng = random.Random(1)
    prof = cProfile.Profile() if args.cprofile else None

    def one_round() -> int:
        if prof:
            prof.enable()
        done = 0
        for match, pink, blue in matches:
            match.refresh_from_db()
            if not match.is_active:
                continue
            state = selectors.match_state(match)
            legal = [a for a in state.legal_actions() if a != getattr(state.game, "end_action", None)]
            if not legal:
                continue
            user = pink if match.to_move == 1 else blue
            services.match_play(match_id=match.pk, user_id=user.pk, ply=match.ply, action=rng.choice(legal))
            done += 1
        if prof:
            prof.disable()
        return done

    async def play_all() -> int:
        # As in daphne: the sync service runs in a worker thread of a running event loop
        # (the consumer's database_sync_to_async(thread_sensitive=False)), so the commit
        # hook's publish runs in that thread.
        try:  # the consumer's own wrapper (its connection handling and loop-queued sends)
            from games.live.dbcall import db_call
        except ImportError:
            from channels.db import database_sync_to_async

            def db_call(func):  # type: ignore[misc]  # for a tree older than games.live.dbcall
                return database_sync_to_async(func, thread_sensitive=False)

        total = 0
        for _ in range(args.moves):
            total += await db_call(one_round)()
        return total

    import asyncio

    t0 = time.perf_counter()
    moves = asyncio.run(play_all())
    wall = time.perf_counter() - t0
    print(
        f"{moves} moves of {args.variant} in {len(matches)} matches; wall {wall * 1000 / moves:.2f} ms per move "
        f"(including the harness's own refresh and legal list)"
    )
    for label, secs in spent.items():
        print(f"  {secs * 1000 / moves:7.2f} ms  {label}")
    total = spent["total: match_play (transaction + commit hook)"]
    hooks = spent["  commit hook: broadcast_match"] + spent["  commit hook: the clock's alarm (Celery publish)"]
    print(f"  {(total - hooks) * 1000 / moves:7.2f} ms  = transaction (lock, checks, engine, move row, save, commit)")
    if prof:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(45)
        print(out.getvalue())


if __name__ == "__main__":
    sys.exit(main())
