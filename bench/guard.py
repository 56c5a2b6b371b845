"""What the live-position guard costs (issue 36, item 1: "next to nothing, measure it").

    python bench/guard.py [--matches N] [--moves M] [--others K]

Sets up a temporary database (SQLite, or a fresh PostgreSQL database next to DATABASE_URL
when set) and its own Redis, in one process without sockets (as bench/profile_move.py).
``K`` other active rated matches (default 300) stand on positions of their own past the
opening, so the guard's index is not empty. Then, for Cztery w rzędzie and Kropki 10×10:

- rated moves: N rated matches (default 8), M rounds of random moves (default 30) through
  ``match_play`` as the consumer calls it (each move past the opening computes and writes
  the position's key);
- computer moves: N matches against łatwy (the shortest think, so the guard's share is the
  largest), the human's random move, then ``match_bot_turn`` timed (the guard's question
  before and after the think, the think and the move).

Only moves past the opening are timed (in it the guard asks nothing): the worst case. A
match that ends is replaced by a new one.

Every round plays one move in each match, the guard on (``FAIR_PLAY_GUARD``) and off in
turn match by match (and each match the other way the next round), so both modes see the
same positions' mix and the same moments of a shared machine. The last line printed is one
JSON object: per game and kind, p50/p99 in milliseconds with the guard on and off and their
ratios (on / off), and ``check_us``: the guard's question alone (p50, microseconds) at a
position past the opening.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GAMES = ("cztery-w-rzedzie", "kropki-10")


def figures(on: list[float], off: list[float]) -> dict[str, float]:
    """p50/p99 in ms, guard on and off, and the ratios."""
    from live import percentile  # bench/live.py

    p50_on, p50_off = statistics.median(on), statistics.median(off)
    p99_on, p99_off = percentile(on, 0.99), percentile(off, 0.99)
    return {
        "n": len(on),
        "p50_on_ms": round(p50_on * 1000, 3),
        "p50_off_ms": round(p50_off * 1000, 3),
        "p99_on_ms": round(p99_on * 1000, 3),
        "p99_off_ms": round(p99_off * 1000, 3),
        "p50_ratio": round(p50_on / p50_off, 3),
        "p99_ratio": round(p99_on / p99_off, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--others", type=int, default=300)
    args = parser.parse_args()

    from live import in_process_site  # bench/live.py

    with in_process_site("guard", COMPUTER_MATCHES_PER_USER="1000", MATCH_STARTS_PER_MINUTE="100000"):
        result = run(args)
    print(json.dumps(result))
    return 0


def run(args: argparse.Namespace) -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from games import catalogue, selectors
    from games import play as services
    from games.models import Match
    from games.play import guard, publisher
    from games.play.computer import match_bot_turn

    publisher.call = lambda function, *a: None  # no broker round trips: the moves alone
    User = get_user_model()
    rng = random.Random(36)
    serial = iter(range(10**9))

    def user() -> Any:
        n = next(serial)
        return User.objects.create_user(username=f"g{n}", email=f"g{n}@example.com")

    def random_move(match: Match) -> tuple[int, int] | None:
        """(user id, action) of a random legal move for the side to move, or None when over."""
        match.refresh_from_db()
        if not match.is_active or match.to_move is None:
            return None
        state = selectors.match_state(match)
        end = state.game.end_action
        legal = [a for a in state.legal_actions() if a != end]
        uid = match.user_id_of(match.to_move)
        return (uid, rng.choice(legal)) if legal and uid is not None else None

    def play_one(match: Match) -> float | None:
        move = random_move(match)
        if move is None:
            return None
        started = time.perf_counter()
        services.match_play(match_id=match.pk, user_id=move[0], ply=match.ply, action=move[1])
        return time.perf_counter() - started

    result: dict[str, Any] = {"others": args.others, "matches": args.matches, "moves": args.moves}
    for variant in GAMES:
        # the others: rated matches standing past the opening, each on a position of its own
        for _ in range(args.others // len(GAMES)):
            other = services.match_create(variant=variant, pink_id=user().pk, blue_id=user().pk, rated=True)
            for _ in range(catalogue.variant(variant).game_spec.opening_plies + 2):
                play_one(other)
        opening = guard.opening_plies(variant)

        def rated_match(variant: str = variant) -> Match:
            return services.match_create(variant=variant, pink_id=user().pk, blue_id=user().pk, rated=True)

        def computer_match(variant: str = variant) -> Match:
            return services.match_create(variant=variant, pink_id=user().pk, blue_id=None, bot_level="latwy")

        rated = [rated_match() for _ in range(args.matches)]
        computer = [computer_match() for _ in range(args.matches)]
        times: dict[str, dict[bool, list[float]]] = {"rated": {True: [], False: []}, "computer": {True: [], False: []}}
        held = 0
        for round_ in range(args.moves):
            # on and off in turn, match by match (round by round each match sees both): the two
            # modes share the same moments of a machine others use too. Only moves past the
            # opening are timed (in it the guard asks nothing); a match that ends is replaced.
            for i, match in enumerate(rated):
                on = (round_ + i) % 2 == 0
                settings.FAIR_PLAY_GUARD = on
                spent = play_one(match)
                if spent is None:
                    rated[i] = rated_match()
                elif match.ply >= opening:  # the move made position ply + 1, which has a key
                    times["rated"][on].append(spent)
            for i, match in enumerate(computer):
                on = (round_ + i) % 2 == 0
                settings.FAIR_PLAY_GUARD = on
                if play_one(match) is None:  # the human's move; then the computer's, timed
                    computer[i] = computer_match()
                    continue
                match.refresh_from_db()
                if not match.is_active:
                    computer[i] = computer_match()
                    continue
                if match.to_move != match.bot_side or match.ply <= opening:  # (Kropki: the computer has ended)
                    match_bot_turn(match_id=match.pk, ply=match.ply)
                    continue
                started = time.perf_counter()
                played = match_bot_turn(match_id=match.pk, ply=match.ply)
                times["computer"][on].append(time.perf_counter() - started)
                held += not played
        settings.FAIR_PLAY_GUARD = True
        probe = catalogue.variant(variant).game().new_initial_state()
        while not guard.position_key(variant, probe):  # a position past the opening, the game not over
            if probe.is_terminal():  # a random game that ended early: another
                probe = probe.game.new_initial_state()
            probe.apply_action(rng.choice([a for a in probe.legal_actions() if a != probe.game.end_action]))
        checks = []
        for _ in range(300):
            started = time.perf_counter()
            guard.standing(variant, probe)
            checks.append(time.perf_counter() - started)
        result[variant] = {
            "rated_move": figures(times["rated"][True], times["rated"][False]),
            "computer_move": figures(times["computer"][True], times["computer"][False]),
            "check_us": round(statistics.median(checks) * 1e6, 1),
            "computer_moves_held": held,  # a random game on another's rated position: should be 0
        }
    return result


if __name__ == "__main__":
    sys.exit(main())
