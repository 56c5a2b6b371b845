"""Piłkarzyki's review: trudny's alpha-beta over whole turns, for a fixed number of nodes a position.

Each position (every step, a bounce's too) gets the search's value for the player to
move: a forced goal found within the depth reached is exact (won or lost, in so many
turns); otherwise the evaluation (the ball's distance to the goals, about 20 a row) is
turned into an expected result by a logistic curve of scale ``SCALE``. The better move
is the first step of the best turn.

The search is bounded by nodes (``MAX_NODES``: depth 6 at the median, about 0.4 s a
position here, a 100-move game 41 s: docs/analysis.md), not by the clock: the same game
always gets the same figures, however loaded the machine (version 1 stopped at 0.25 s and
reached different depths).
"""

from __future__ import annotations

import math
from typing import Any

from games.bots.review import Evaluate, Evaluation, sigmoid

from . import bot
from .bot_board import WIN, Board

VERSION = "pilkarzyki-ab-2"  # 2: bounded by nodes, not by 0.25 s of the clock
MAX_NODES = 20_000
MAX_DEPTH = 8
SCALE = 60.0  # three rows nearer the opponent's goal than the own: about 73 %


# bench/analysis.py's cases: (name, engine parameters, plies to play (None: to the end), target seconds).
BENCH_CASES: list[tuple[str, dict[str, Any], int | None, float]] = [("pilkarzyki", {}, None, 60.0)]


def evaluator(game: Any) -> Evaluate:
    def evaluate(state: Any, ply: int, played: int | None = None) -> Evaluation:
        board = Board.from_state(state)
        path, value = bot.search_turns(board, math.inf, MAX_DEPTH, MAX_NODES)
        best, then = int(path[0]), tuple(int(step) for step in path[1:])
        if value is None:
            value = board.evaluate()
        if value >= WIN // 2:
            expected, exact, detail = 1.0, True, {"win_in_turns": WIN - value}
        elif value <= -WIN // 2:
            expected, exact, detail = 0.0, True, {"loss_in_turns": WIN + value}
        else:
            expected, exact, detail = sigmoid(value, SCALE), False, {"value": value}
        return Evaluation(expected=expected, best=best, exact=exact, detail=detail, then=then)

    return evaluate
