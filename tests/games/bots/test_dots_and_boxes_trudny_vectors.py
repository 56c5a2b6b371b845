"""From every one of the 220 solved Kropki i kwadraty end games, the trudny
move keeps the optimal margin (it is in the position's ``best`` list)."""

from __future__ import annotations

import json
from pathlib import Path

from games.bots import choose_action
from games.dots_and_boxes.bot import Solver, geometry
from games.engine import get_game


def _rows(vectors_dir: Path) -> list[dict]:
    with open(vectors_dir / "dots_and_boxes" / "endgames_5x5.jsonl") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    assert len(rows) == 220
    return rows


def test_trudny_plays_an_optimal_segment_in_every_end_game(vectors_dir: Path) -> None:
    # the vectors play to the last segment: the site's majority end is off
    game = get_game("dots_and_boxes", majority_end=False)
    rows = _rows(vectors_dir)
    kept, misses = 0, []
    for row in rows:
        state = game.state_from_history(row["moves"])
        assert state.current_player() == row["to_move"]
        seg = choose_action(state, "trudny", seed=0)
        if seg in row["best"]:
            kept += 1
        else:
            misses.append(row["id"])
    print(
        f"dots_and_boxes trudny kept the optimal margin in {kept}/{len(rows)} = {kept / len(rows):.1%} end games; misses: {misses}"
    )
    assert kept == len(rows)


def test_the_exact_solver_agrees_with_every_value(vectors_dir: Path) -> None:
    geo = geometry(5, 5)
    for row in _rows(vectors_dir)[::10]:
        drawn = sum(1 << s for s in row["moves"])
        value, best = Solver(geo, deadline=float("inf")).best_moves(drawn)
        assert value == row["value"], row["id"]
        assert sorted(best) == sorted(row["best"]), row["id"]
