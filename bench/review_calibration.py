"""Does the review's accuracy mean what players think? Games of known strength, reviewed.

For every game (the first case of each folder's ``BENCH_CASES``: Kropki 10×10, Cztery w
rzędzie, Kropki i kwadraty, Piłkarzyki), each level — a uniformly random player (``losowy``),
łatwy, średni, trudny — plays ``--games`` games against średni (colours alternating; every computer move at
``--budget`` seconds, trudny's too unless ``--trudny-budget``), every game is reviewed by
``games.bots.review.analyse`` as the site reviews it, and the level's side's accuracy is kept.
The targets (issue 39): random play at most 40 %, the computer's own strongest moves at least
90 %, and the accuracy rising with the level, per game.

    .venv/bin/python bench/review_calibration.py [--games 4] [--budget 0.1] [--only kropki_10,...]
        [--levels losowy,latwy,sredni,trudny] [--trudny-budget S] [--jobs N]

``--no-review`` plays the games only and reports each level's results and final margins (its
score minus the opponent's: dots, boxes; 0 where a game keeps no score); ``--opponent LEVEL``
plays every level against another than średni (``losowy``: does łatwy beat random play?).

``--trudny-budget``: trudny's own seconds a move instead of ``--budget`` (its site budget is 1.8 s:
a Kropki i kwadraty trudny at 0.1 s cannot finish its end-game solver, and plays safe moves the
review's solver then shows to lose). The targets are judged only when all four levels ran.

``--jobs N`` plays and reviews N games at once (processes; the same games and figures as one at a
time, except where a computer move thinks by the clock, which a busier machine makes weaker).

Prints a table; the last line is one JSON object: per game and level the median and mean
accuracy, the games and how they ended for the level, and whether each target holds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import RandomPlayer, choose_action
from games.bots.review import analyse, move_accuracy
from games.engine import BUILT_IN, get_game

LEVELS = ("losowy", "latwy", "sredni", "trudny")
OPPONENT = "sredni"


def cases() -> dict[str, tuple[str, dict]]:
    out = {}
    for slug in BUILT_IN:
        name, params, _plies, _target = import_module(f"games.{slug}.review").BENCH_CASES[0]
        out[name] = (slug, params)
    return out


def play(
    slug: str,
    params: dict,
    level: str,
    side: int,
    seed: int,
    budget: float,
    trudny_budget: float | None = None,
    opponent: str = OPPONENT,
) -> list[int]:
    """A whole game: ``level`` plays ``side``, ``opponent`` (średni) the other (a Kropki bot never
    ends first: the board fills); each computer move at ``budget`` seconds (0.3 at most),
    trudny's at ``trudny_budget`` when given."""
    state = get_game(slug, **params).new_initial_state()
    randoms = RandomPlayer(seed=seed)
    ply = 0
    while not state.is_terminal():
        player = state.current_player()
        who = level if player == side else opponent
        if who == "losowy":
            end = getattr(state.game, "end_action", None)
            legal = [a for a in state.legal_actions() if a != end] or state.legal_actions()
            action = randoms.rng.choice(legal)
        else:
            seconds = trudny_budget if who == "trudny" and trudny_budget is not None else min(budget, 0.3)
            action = choose_action(state, who, seed=seed * 1000 + ply, budget_s=seconds)
        state.apply_action(action)
        ply += 1
    return list(state.history)


def one_game(
    name: str, level: str, index: int, args: argparse.Namespace
) -> tuple[int, str, float | None, float | None]:
    """Game ``index`` of ``level`` played and (unless ``--no-review``) reviewed: the level's margin,
    its result (win, draw, loss), its accuracy and the plain mean of its moves' accuracies."""
    slug, params = cases()[name]
    game = get_game(slug, **params)
    side = 1 + index % 2
    history = play(slug, params, level, side, 1 + index, args.budget, args.trudny_budget, args.opponent)
    final = game.state_from_history(history)
    scores = final.scores()
    end = final.outcome()
    winner = end.winner if end is not None else None
    outcome = "draw" if winner is None else "win" if winner == side else "loss"
    margin = scores[side - 1] - scores[2 - side]
    if args.no_review:
        return margin, outcome, None, None
    result = analyse(game, history, import_module(f"games.{slug}.review"))
    mine = [move_accuracy(m["drop"]) for m in result["moves"] if m["player"] == side]
    # the plain mean of the moves' accuracies (the review's figure before lichess' game accuracy)
    return margin, outcome, result["accuracy"][str(side)], sum(mine) / len(mine) if mine else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument(
        "--budget",
        type=float,
        default=0.1,
        help="seconds a computer move, 0.3 at most (trudny's too unless --trudny-budget)",
    )
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels (all four: the targets)")
    parser.add_argument("--trudny-budget", type=float, default=None, help="trudny's seconds a move (default: --budget)")
    parser.add_argument("--jobs", type=int, default=1, help="games played and reviewed at once (processes)")
    parser.add_argument("--opponent", default=OPPONENT, choices=LEVELS, help="who every level plays (default sredni)")
    parser.add_argument(
        "--no-review",
        action="store_true",
        help="play the games only: each level's results and final margins (its score minus the opponent's)",
    )
    args = parser.parse_args(argv)
    levels = [level for level in LEVELS if level in args.levels.split(",")]
    known = cases()
    names = [n for n in (args.only.split(",") if args.only else known) if n]
    figures: dict[str, dict] = {}
    for name in names:
        figures[name] = {}
        for level in levels:
            accuracies, plain, results = [], [], {"win": 0, "draw": 0, "loss": 0}
            margins = []
            jobs = [(name, level, index, args) for index in range(args.games)]
            if args.jobs > 1:
                with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                    games = list(pool.map(one_game, *zip(*jobs, strict=True)))
            else:
                games = [one_game(*job) for job in jobs]
            for margin, outcome, accuracy, mean_of_moves in games:
                margins.append(margin)
                results[outcome] += 1
                if accuracy is not None:
                    accuracies.append(accuracy)
                if mean_of_moves is not None:
                    plain.append(mean_of_moves)
            row = {
                "median": round(statistics.median(accuracies), 1) if accuracies else None,
                "mean": round(statistics.fmean(accuracies), 1) if accuracies else None,
                "plain_median": round(statistics.median(plain), 1) if plain else None,
                "games": len(accuracies),
                "margins": margins,
                "margin_median": statistics.median(margins),
                **results,
            }
            figures[name][level] = row
            print(
                f"{name:16} {level:7} accuracy median {row['median']!s:>5} mean {row['mean']!s:>5}"
                f" (plain mean of moves: median {row['plain_median']!s:>5})  {results} margins {margins}",
                flush=True,
            )
        if levels != list(LEVELS) or args.no_review:
            continue
        medians = [figures[name][level]["median"] for level in LEVELS]
        figures[name]["targets"] = {
            "random_at_most_40": medians[0] is not None and medians[0] <= 40.0,
            "trudny_at_least_90": medians[-1] is not None and medians[-1] >= 90.0,
            "monotone": all(a is not None and b is not None and a <= b for a, b in itertools.pairwise(medians)),
        }
    summary = {"games_each": args.games, "budget_s": args.budget, "trudny_budget_s": args.trudny_budget}
    print(json.dumps({**summary, "opponent": args.opponent, "reviewed": not args.no_review, "cases": figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
