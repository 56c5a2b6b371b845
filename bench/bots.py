"""Tournaments between the computer levels, one per game.

    python bench/bots.py [--games N] [--budget S] [--only GAME] [--workers 2]

Pairings per game: trudny vs sredni, sredni vs latwy, latwy vs a uniformly
random player; N games each (default 100), colours swapped every other game.
Prints win/draw/loss per pairing and the median and maximum seconds per move
per level, then one JSON line with ``pairings`` and ``move_seconds``.
``--budget`` caps every level's time budget per move (the defaults are the
levels' own: trudny 1.8 s). Kropki is played on 10x10; Piłkarzyki times
every action, a bounce chain's later steps included (the bots play a chosen
turn's path without searching again).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shlex
import statistics
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import RandomPlayer, choose_action, default_budget
from games.engine import BUILT_IN, get_game
from games.kropki import bot as kropki_bot

# Every game of the site (games.engine.BUILT_IN), at its default parameters but Kropki's.
GAMES: dict[str, dict[str, Any]] = {slug: {} for slug in sorted(BUILT_IN)} | {"kropki": {"width": 10, "height": 10}}
PAIRINGS = (("trudny", "sredni"), ("sredni", "latwy"), ("latwy", "losowy"))


class OutsideEngine:
    """An outside engine speaking the line protocol of docs/bots.md: one
    command per line on its stdin, one answer line (``= ...`` or ``? ...``)
    on its stdout."""

    def __init__(self, command: str) -> None:
        self.proc = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, line: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"the outside engine stopped after {line!r}")
        answer = answer.strip()
        if not answer.startswith("="):
            raise RuntimeError(f"the outside engine refused {line!r}: {answer!r}")
        return answer[1:].strip()

    def new_game(self, width: int, height: int, budget: float) -> None:
        self.ask(f"new {width} {height}")
        self.ask(f"time {budget:g}")

    def told(self, state, player: int, action: int) -> None:
        game = state.game
        if action == game.end_action:
            self.ask(f"play {player} end")
        else:
            self.ask(f"play {player} {action % game.width} {action // game.width}")

    def genmove(self, state, player: int) -> int:
        game = state.game
        words = self.ask(f"genmove {player}").split()
        if words == ["end"]:
            return game.end_action
        if len(words) != 2:
            raise RuntimeError(f"cannot read the outside engine's move {words!r}")
        return game.action_for(int(words[0]), int(words[1]))

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, BrokenPipeError, OSError):
            self.ask("quit")
        self.proc.wait(timeout=10)


def play_one(job: tuple) -> dict:
    """One game: ``a`` plays first on even ``index``. Returns the winner's
    label (or None), the scores by label and the seconds of every move by
    level. Labels: a level, ``losowy``, ``frozen-<level>`` (Kropki's
    pre-issue-16 search) or ``gtp`` (the outside engine of ``command``)."""
    slug, a, b, index, budget, params, max_plies, command = job
    game = get_game(slug, **params)
    state = game.new_initial_state()
    first, second = (a, b) if index % 2 == 0 else (b, a)
    labels = {1: first, 2: second}
    randoms = {p: RandomPlayer(seed=index * 7 + p) for p in (1, 2)}
    times: dict[str, list[float]] = {a: [], b: []}
    outside = None
    if "gtp" in (a, b):
        outside = OutsideEngine(command)
        outside.new_game(params["width"], params["height"], budget or default_budget(slug, "trudny"))
    ply = 0
    try:
        while not state.is_terminal() and (max_plies is None or ply < max_plies):
            player = state.current_player()
            assert player is not None
            level = labels[player]
            t0 = time.perf_counter()
            if level == "losowy":
                action = randoms[player].choose(state)
            elif level == "gtp":
                assert outside is not None
                action = outside.genmove(state, player)
                if not state.is_legal(action):
                    raise RuntimeError(f"the outside engine played an illegal move {action} at ply {ply}")
            else:
                base = level.removeprefix("frozen-")
                cap = None if budget is None else min(budget, default_budget(slug, base))
                if level.startswith("frozen-"):
                    action = kropki_bot.choose_frozen(state, base, random.Random(index * 1000 + ply), cap)
                else:
                    action = choose_action(state, level, seed=index * 1000 + ply, budget_s=cap)
            times[level].append(time.perf_counter() - t0)
            if outside is not None and level != "gtp":
                outside.told(state, player, action)
            state.apply_action(action)
            ply += 1
    finally:
        if outside is not None:
            outside.close()
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None
        winner = outcome.winner
    else:
        s = state.scores()
        winner = 1 if s[0] > s[1] else 2 if s[1] > s[0] else None
    scores = state.scores() if hasattr(state, "scores") else (0, 0)
    return {
        "index": index,
        "history": list(state.history),
        "labels": labels,
        "winner": None if winner is None else labels[winner],
        "times": times,
        "plies": ply,
        "scores": {labels[1]: scores[0], labels[2]: scores[1]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget", type=float, default=None, help="cap on every level's seconds per move")
    parser.add_argument("--only", choices=sorted(GAMES), action="append")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--vs-frozen", action="store_true", help="Kropki: trudny against the pre-issue-16 trudny")
    parser.add_argument("--gtp", metavar="CMD", help="Kropki: our --level against the outside engine CMD")
    parser.add_argument("--level", default="trudny", help="our level for --gtp (default trudny)")
    parser.add_argument("--size", type=int, action="append", help="Kropki board side: 10 or 20 (repeatable)")
    parser.add_argument("--max-plies", type=int, default=None, help="Kropki: stop and score a game after P plies")
    parser.add_argument(
        "--log",
        metavar="FILE",
        help="write every game (its actions, who played which colour, the score) as a JSON line",
    )
    parser.add_argument(
        "--pairing",
        action="append",
        metavar="A:B",
        help="Kropki: play A against B instead (levels, frozen-<level>, losowy), repeatable",
    )
    args = parser.parse_args(argv)

    boards: list[tuple[str, dict]] = []
    for slug in args.only or list(GAMES):
        if slug == "kropki" and args.size:
            boards += [(slug, {"width": n, "height": n}) for n in args.size]
        else:
            boards.append((slug, GAMES[slug]))
    if args.vs_frozen or args.gtp or args.pairing:
        boards = [(slug, params) for slug, params in boards if slug == "kropki"] or [("kropki", GAMES["kropki"])]
    if args.pairing:
        pairings = tuple(tuple(p.split(":", 1)) for p in args.pairing)
    elif args.vs_frozen:
        pairings = (("trudny", "frozen-trudny"),)
    elif args.gtp:
        pairings = ((args.level, "gtp"),)
    else:
        pairings = PAIRINGS

    pairings_out = []
    move_times: dict[tuple[str, str], list[float]] = {}
    with Pool(args.workers) as pool:
        for slug, params in boards:
            name = slug if slug != "kropki" else f"kropki {params['width']}x{params['height']}"
            for a, b in pairings:
                jobs = [
                    (slug, a, b, i, args.budget, params, args.max_plies if slug == "kropki" else None, args.gtp)
                    for i in range(args.games)
                ]
                results = pool.map(play_one, jobs, chunksize=1)
                if args.log:
                    with open(args.log, "a") as log:
                        for r in results:
                            game_line = {k: r[k] for k in ("index", "history", "labels", "winner", "scores")}
                            log.write(json.dumps({"game": name, **game_line}) + "\n")
                a_wins = sum(r["winner"] == a for r in results)
                b_wins = sum(r["winner"] == b for r in results)
                draws = len(results) - a_wins - b_wins
                points_a = sum(r["scores"][a] for r in results)
                points_b = sum(r["scores"][b] for r in results)
                for r in results:
                    for level, ts in r["times"].items():
                        if level != "losowy":
                            move_times.setdefault((name, level), []).extend(ts)
                decided = a_wins + b_wins
                share = a_wins / decided if decided else 1.0
                points = f"; points {points_a}:{points_b}" if points_a or points_b else ""
                print(
                    f"{name:15} {a:7} vs {b:7}: {a_wins:3} wins, {draws:3} draws, {b_wins:3} losses"
                    f"  ({share:.0%} of decided games{points})",
                    flush=True,
                )
                pairings_out.append(
                    {
                        "game": name,
                        "a": a,
                        "b": b,
                        "a_wins": a_wins,
                        "b_wins": b_wins,
                        "draws": draws,
                        "a_points": points_a,
                        "b_points": points_b,
                    }
                )
    seconds_out = []
    for (slug, level), ts in sorted(move_times.items()):
        med, mx = statistics.median(ts), max(ts)
        print(f"{slug:15} {level:7}: median {med:.3f} s, max {mx:.3f} s per move ({len(ts)} moves)")
        seconds_out.append({"game": slug, "level": level, "median": round(med, 4), "max": round(mx, 4)})
    print(json.dumps({"pairings": pairings_out, "move_seconds": seconds_out}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
