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

from . import bot, puzzles
from .bot_board import WIN, Board
from .engine import OWN_GOAL

VERSION = "pilkarzyki-ab-2"  # 2: bounded by nodes, not by 0.25 s of the clock
MAX_NODES = 20_000
MAX_DEPTH = 8
SCALE = 60.0  # three rows nearer the opponent's goal than the own: about 73 %
ROW = 20  # the evaluation's value of a row (bot_board._position_value)


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


# The codes ``why`` gives (its docstring says each one's figures); the spec words every one.
WHY_CODES: tuple[str, ...] = (
    "own_goal",
    "dead_end",
    "missed_goal",
    "opened_goal",
    "win_let_go",
    "trapped",
    "forced_loss",
    "ball_back",
)


def _own_turns(ahead: int, *, to_move: bool) -> int:
    """The scorer's own turns, this one counted, in a forced goal ``ahead`` turns of the search
    ahead (0: within the turn being played; each side's turns counted), its scorer to move or not."""
    return ahead // 2 + 1 if to_move else (ahead + 1) // 2


def why(state: Any, played: int, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """A mistake's reason (``games.bots.review.Reviewer.why``), the first that holds:

    - ``own_goal``: the step put the ball in the mover's own goal;
    - ``dead_end``: it ran the ball into a point with no free line, and the mover loses;
    - ``missed_goal``: the mover could score within this turn, and after the step no longer;
    - ``opened_goal``: the turn passed and the opponent can score within theirs;
    - ``win_let_go``: the mover won by force (within ``turns`` of its own, this one
      counted) and after the step no longer;
    - ``trapped``: the mover goes on, but every way on ends this turn in a loss (an own goal, a
      dead end);
    - ``forced_loss``: after the step the opponent wins by force, within ``turns`` of theirs;
    - ``ball_back``: no goal in sight, but by the search's values (estimates: the ball's distance
      to the goals) the ball ends about ``rows`` rows nearer the mover's own goal.
    """
    mover = state.current_player()
    then = state.clone()
    then.apply_action(played)
    outcome = then.outcome()
    if outcome is not None:
        if outcome.winner != mover:
            return {"code": "own_goal" if outcome.reason == OWN_GOAL else "dead_end"}
        return None
    again = then.current_player() == mover
    if puzzles.scores_this_turn(state, mover) and not (again and puzzles.scores_this_turn(then, mover)):
        return {"code": "missed_goal"}
    if not again and puzzles.scores_this_turn(then, 3 - mover):
        return {"code": "opened_goal"}
    detail = after["detail"]
    won = before["detail"].get("win_in_turns")
    # ``after`` is for its player to move: the mover's again after a bounce, else the opponent's
    if won is not None and detail.get("win_in_turns" if again else "loss_in_turns") is None:
        return {"code": "win_let_go", "turns": _own_turns(won, to_move=True)}
    lost = detail.get("loss_in_turns" if again else "win_in_turns")
    if again and lost == 0:
        return {"code": "trapped"}
    if lost is not None:
        return {"code": "forced_loss", "turns": _own_turns(lost, to_move=not again)}
    value, later = before["detail"].get("value"), detail.get("value")
    if value is not None and later is not None:
        rows = round((value - (later if again else -later)) / ROW)
        if rows >= 1:
            return {"code": "ball_back", "rows": rows}
    return None
