"""How well engine-use detection (games/fairplay/detection.py) tells engine users from honest players.

1. **A pool of real positions per game.** ``CASES``' games of each kind (``--games``: as many of each) are played by the
   computer (each move by łatwy or średni at random, średni at ``GEN_BUDGET_S``, seeded). Of each
   side's moves the detection's own choice of positions (past the opening, a choice, at most
   ``POSITIONS_PER_SIDE`` sampled) is evaluated as the site does it (``detection.look``:
   the game's reviewer, łatwy for "obvious"), and at each of them the move of every level is
   asked (łatwy and średni at their budgets, trudny at ``TRUDNY_BUDGET_S`` instead of 1.8 s, to
   keep the bench in minutes; seeds apart from the look's).
2. **Simulated players, resampled from the pool.** A rated game of a simulated player is one
   side of one pool game (drawn at random): at each evaluated position the player plays the move
   of a level drawn from their mixture, or the computer's best; their think times are drawn too.
   - honest players, four strengths of 50 players each (level mixtures łatwy/średni/trudny:
     weak .6/.3/.1, club .3/.5/.2, strong .15/.45/.4, top .1/.3/.6), times log-normal around
     the player's own pace (3–15 s), sigma 0.5–0.9, 65 % longer where the position matters;
   - engine users: the computer's best in every move (``engine100``) or in 70 % of them, the
     others a club player's (``engine70``), at a human-looking pace that never varies with the
     position (log-normal, sigma 0.15, 4–10 s); and ``engine100_varied``: every move the best, with
     times as varied as an honest player's (sigma 0.7) but never longer where it matters.
   Beyond the targets (``beyond_targets``): ``engine70_varied`` (70 % with varied times), and 50
   top honest players whose pace happens to be flat (sigma 0.15), still slower where it matters
   (``honest_top_flat_pace``) or not even there (``honest_top_metronome``): the share flagged.
   After each game the player's last ``detection.WINDOW`` games are assessed; honest players
   play ``--honest-games`` games each, engine users up to 20.
3. **Cost**: the seconds one game's facts take for both sides (what a check costs the ``fairplay``
   worker when nothing is cached), a game of each kind, Kropki 20×20 too (``--skip-cost``: none).
4. **Figures**: the agreement each strength reaches (positions that matter), the share of the 200
   honest players ever flagged (target ≤ 1 %), and for the engine users how many games until the
   flag (target ≤ 10: the share flagged within 10, the median and the worst).

The resampling ignores that a move changes the positions after it (a strong move leads to other
positions than a weak one): the agreement per position is real, the games are stitched.

    .venv/bin/python bench/fairplay.py [--games N] [--only connect4,kropki,...] [--pool /tmp/fairplay-pool.json] [--skip-cost]

``--pool`` keeps the pool in a file and reuses it (the thresholds can be tried again in seconds).
Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import asdict
from importlib import import_module
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import LEVELS, choose_action
from games.engine import BUILT_IN, get_game
from games.fairplay import detection
from games.fairplay.detection import GameFacts, Look, MoveFacts

# game: (engine parameters, games in the pool; Cztery w rzędzie's are short and cheap: more of them)
# (every built-in game; those not named here: their default board, 6 games)
CASES: dict[str, tuple[dict[str, Any], int]] = {
    "connect4": ({}, 20),
    "dots_and_boxes": ({"rows": 5, "cols": 5}, 6),
    "kropki": ({"width": 10, "height": 10}, 6),
} | {slug: ({}, 6) for slug in BUILT_IN if slug not in ("connect4", "dots_and_boxes", "kropki")}
GEN_BUDGET_S = 0.1
TRUDNY_BUDGET_S = 0.4
STRENGTHS = {
    "weak": (0.6, 0.3, 0.1),
    "club": (0.3, 0.5, 0.2),
    "strong": (0.15, 0.45, 0.4),
    "top": (0.1, 0.3, 0.6),
}
HONEST_PER_STRENGTH = 50
ENGINES = {"engine100": (1.0, 0.15), "engine70": (0.7, 0.15), "engine100_varied": (1.0, 0.7)}
# Beyond the targets, what the method cannot promise: an engine user at 70 % with varied times,
# and strong honest players whose pace happens to be flat (the time rule's own false positives).
HARDER = {"engine70_varied": (0.7, 0.7)}
FLAT_HONEST = 50
ENGINE_PLAYERS = 50
ENGINE_GAMES = 20
TARGET_GAMES = 10
POOL_VERSION = 2  # changes whenever a pool's rows would (--pool files of older ones are rebuilt)


def easy_move(state: Any, ply: int) -> int:
    return choose_action(state, "latwy", seed=ply)


def play(slug: str, params: dict[str, Any], seed: int) -> list[int]:
    state = get_game(slug, **params).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        level = rng.choice(("latwy", "sredni"))
        budget = GEN_BUDGET_S if level == "sredni" else None
        state.apply_action(choose_action(state, level, seed=rng.randrange(1 << 30), budget_s=budget))
    return list(state.history)


def build_pool(slug: str, params: dict[str, Any], games: int) -> list[dict[str, Any]]:
    """Per game side: its moves, each {ply, think (a turn's first step), evaluated: matters, best
    move, the levels' moves}."""
    templates = []
    for g in range(games):
        game = get_game(slug, **params)
        evaluate = import_module(f"games.{slug}.review").evaluator(game)
        history = play(slug, params, seed=1000 + g)
        states = detection.replay(game, history)
        movers = [s.current_player() for s in states]
        for side in (1, 2):
            mine, chosen = detection.plies_to_check(states, slug, side, match=g)
            moves = []
            for ply in mine:
                row: dict[str, Any] = {"ply": ply, "timed": ply > 1 and movers[ply - 2] != side}
                if ply in chosen:
                    state = states[ply - 1]
                    seen = detection.look(state, ply, evaluate, easy_move)
                    row.update(seen=asdict(seen), best=seen.best, legal=len(state.legal_actions()))
                    row["levels"] = {
                        level: choose_action(
                            state,
                            level,
                            seed=7919 * ply + 17 * g + i,
                            budget_s=TRUDNY_BUDGET_S if level == "trudny" else None,
                        )
                        for i, level in enumerate(LEVELS)
                    }
                moves.append(row)
            templates.append({"game": g, "side": side, "moves": moves})
    return templates


def matters_at(row: dict[str, Any]) -> bool:
    return "seen" in row and Look(**row["seen"]).matters


def honest_move(row: dict[str, Any], mix: tuple[float, ...], rng: random.Random) -> int:
    level = rng.choices(LEVELS, weights=mix)[0]
    return int(row["levels"][level])


def simulate_game(template: dict[str, Any], match: int, player: dict[str, Any], rng: random.Random) -> GameFacts:
    moves = []
    for row in template["moves"]:
        evaluated = "best" in row
        matters = evaluated and matters_at(row)
        think = None
        if row["timed"]:
            # an honest player takes longer where it matters; an engine user's pace never changes
            slower = 0.5 if matters and player["engine"] is None and player["slows"] else 0.0
            mu = player["pace"] + slower
            think = round(rng.lognormvariate(mu, player["sigma"]), 2)
        if not evaluated:
            if think is not None:
                moves.append(MoveFacts(row["ply"], False, False, think, 0))
            continue
        if player["engine"] is not None and rng.random() < player["engine"]:
            played = row["best"]
        else:
            played = honest_move(row, player["mix"], rng)
        moves.append(MoveFacts(row["ply"], matters, played == row["best"], think, row["legal"]))
    return GameFacts(match, template["side"], tuple(moves))


def games_until_flag(
    slug: str, pool: list[dict[str, Any]], player: dict[str, Any], games: int, rng: random.Random
) -> int | None:
    played: list[GameFacts] = []
    for i in range(games):
        played.append(simulate_game(rng.choice(pool), i, player, rng))
        if detection.assess(played, slug).flagged:
            return i + 1
    return None


def honest_player(mix: tuple[float, ...], rng: random.Random) -> dict[str, Any]:
    pace = math.log(rng.uniform(3, 15))
    return {"engine": None, "mix": mix, "pace": pace, "sigma": rng.uniform(0.5, 0.9), "slows": True}


def engine_player(share: float, sigma: float, rng: random.Random) -> dict[str, Any]:
    return {
        "engine": share,
        "mix": STRENGTHS["club"],
        "pace": math.log(rng.uniform(4, 10)),
        "sigma": sigma,
        "slows": False,
    }


def agreement(pool: list[dict[str, Any]], mix: tuple[float, ...]) -> float:
    """The expected share of best moves among the positions that matter, for a level mixture."""
    rows = [row for t in pool for row in t["moves"] if matters_at(row)]
    if not rows:
        return float("nan")
    hits = [sum(w for level, w in zip(LEVELS, mix, strict=True) if row["levels"][level] == row["best"]) for row in rows]
    return statistics.fmean(hits)


def measure(slug: str, pool: list[dict[str, Any]], honest_games: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    mattering = sum(1 for t in pool for row in t["moves"] if matters_at(row))
    evaluated = sum(1 for t in pool for row in t["moves"] if "best" in row)
    out: dict[str, Any] = {
        "templates": len(pool),
        "evaluated": evaluated,
        "matter": mattering,
        "reference": detection.game_figures(slug).reference,
        "agreement": {name: round(agreement(pool, mix), 3) for name, mix in STRENGTHS.items()},
    }
    flagged_honest: dict[str, int] = {}
    for name, mix in STRENGTHS.items():
        flagged_honest[name] = sum(
            games_until_flag(slug, pool, honest_player(mix, rng), honest_games, rng) is not None
            for _ in range(HONEST_PER_STRENGTH)
        )
    total = HONEST_PER_STRENGTH * len(STRENGTHS)
    out["honest"] = {
        "players": total,
        "games_each": honest_games,
        "flagged": sum(flagged_honest.values()),
        "flagged_by_strength": flagged_honest,
        "rate": round(sum(flagged_honest.values()) / total, 4),
    }
    out["engines"] = {}
    for name, (share, sigma) in ENGINES.items():
        found = [
            games_until_flag(slug, pool, engine_player(share, sigma, rng), ENGINE_GAMES, rng)
            for _ in range(ENGINE_PLAYERS)
        ]
        caught = sorted(n for n in found if n is not None)
        within = sum(1 for n in caught if n <= TARGET_GAMES)
        out["engines"][name] = {
            "players": ENGINE_PLAYERS,
            "within_10": round(within / ENGINE_PLAYERS, 3),
            "median_games": statistics.median(caught) if caught else None,
            "worst_games": (caught[-1] if len(caught) == ENGINE_PLAYERS else None),
            "never_in_20": ENGINE_PLAYERS - len(caught),
        }
    out["beyond_targets"] = {}
    for name, (share, sigma) in HARDER.items():
        found = [
            games_until_flag(slug, pool, engine_player(share, sigma, rng), ENGINE_GAMES, rng)
            for _ in range(ENGINE_PLAYERS)
        ]
        out["beyond_targets"][name] = {
            "within_10": round(sum(1 for n in found if n is not None and n <= TARGET_GAMES) / ENGINE_PLAYERS, 3),
            "never_in_20": sum(1 for n in found if n is None),
        }
    for name, slows in (("honest_top_flat_pace_flagged", True), ("honest_top_metronome_flagged", False)):
        flat_top = [{**honest_player(STRENGTHS["top"], rng), "sigma": 0.15, "slows": slows} for _ in range(FLAT_HONEST)]
        out["beyond_targets"][name] = round(
            sum(games_until_flag(slug, pool, p, honest_games, rng) is not None for p in flat_top) / FLAT_HONEST, 3
        )
    return out


# What a check costs on the fairplay worker: one game's facts, both sides (Kropki 20×20 too).
COST_CASES = {
    "connect4": ("connect4", {}),
    "dots_and_boxes": ("dots_and_boxes", {"rows": 5, "cols": 5}),
    "kropki_10": ("kropki", {"width": 10, "height": 10}),
    "kropki_20": ("kropki", {"width": 20, "height": 20}),
} | {slug: (slug, {}) for slug in BUILT_IN if slug not in ("connect4", "dots_and_boxes", "kropki")}


def cost(names: list[str]) -> dict[str, Any]:
    """Seconds to compute one game's facts for both sides, as the task does (no cache)."""
    out = {}
    for name, (slug, params) in COST_CASES.items():
        if slug not in names:
            continue
        history = play(slug, params, seed=99)
        for seed in range(100, 110):  # a game of a usual length (Piłkarzyki's can end in a few moves)
            if len(history) >= 30:
                break
            history = play(slug, params, seed=seed)
        game = get_game(slug, **params)
        evaluate = import_module(f"games.{slug}.review").evaluator(game)
        started = time.perf_counter()
        detection.game_facts(game, slug, history, [None] * len(history), 99, evaluate, easy_move)
        out[name] = {"moves": len(history), "seconds": round(time.perf_counter() - started, 1)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="games a kind in the pool (0: CASES')")
    parser.add_argument("--only", default="", help="comma-separated: " + ",".join(CASES))
    parser.add_argument("--honest-games", type=int, default=20)
    parser.add_argument("--pool", default="", help="a JSON file keeping the pool between runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-cost", action="store_true", help="no timing of one game's facts a kind")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(CASES)
    cached: dict[str, Any] = {}
    if args.pool and Path(args.pool).exists():
        cached = json.loads(Path(args.pool).read_text())
    results: dict[str, Any] = {}
    for slug in names:
        params, games = CASES[slug]
        games = args.games or games
        key = f"{slug}:{games}:{POOL_VERSION}"
        started = time.perf_counter()
        if key not in cached:
            cached[key] = build_pool(slug, params, games)
            if args.pool:
                Path(args.pool).write_text(json.dumps(cached))
        built = time.perf_counter() - started
        results[slug] = measure(slug, cached[key], args.honest_games, args.seed)
        results[slug]["pool_seconds"] = round(built, 1)
        results[slug]["measure_seconds"] = round(time.perf_counter() - started - built, 1)
        print(slug, json.dumps(results[slug]), file=sys.stderr, flush=True)
    seconds = {} if args.skip_cost else cost(names)
    honest_rate = max(r["honest"]["rate"] for r in results.values())
    engine_ok = all(e["within_10"] == 1.0 for r in results.values() for e in r["engines"].values())
    summary = {
        "bench": "fairplay",
        "games": results,
        "honest_rate_max": honest_rate,
        "honest_ok": honest_rate <= 0.01,
        "engines_within_10_ok": engine_ok,
        "check_seconds": seconds,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
