"""From each of the 500 solved Cztery w rzędzie positions (scored by Pascal
Pons' perfect solver), the trudny move keeps the position's value: a win
stays a win, a draw at least a draw. Required: at least 95% of them.

The full 1.8 s budget on 500 positions takes too long for a test run, so
the test gives trudny ``BUDGET_S`` per move (see docs/bots.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.bots import choose_action
from games.engine import get_game

BUDGET_S = 0.5


@pytest.mark.slow
def test_trudny_keeps_the_value_of_at_least_95_percent(vectors_dir: Path) -> None:
    with open(vectors_dir / "connect4" / "positions_plies08-20.jsonl") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    assert len(rows) == 500
    game = get_game("connect4")
    kept, misses = 0, []
    for row in rows:
        state = game.state_from_history([int(d) - 1 for d in row["moves"]])
        col = choose_action(state, "trudny", seed=0, budget_s=BUDGET_S)
        after = row["analysis"][col]
        score = row["score"]
        ok = after is not None and (after > 0 if score > 0 else after >= 0 if score == 0 else True)
        kept += ok
        if not ok:
            misses.append(row["id"])
    share = kept / len(rows)
    print(
        f"connect4 trudny kept the value in {kept}/{len(rows)} = {share:.1%} positions (budget {BUDGET_S} s); misses: {misses}"
    )
    assert share >= 0.95
