"""Kropki i kwadraty's review: exact once few segments are left, an estimate before.

- At most ``bot.EXACT_MAX`` undrawn segments: the end-game solver's exact margin over the
  boxes still to take (one solver for the whole game, so its table serves every later
  position), added to the boxes each side has: won, drawn or lost, exactly. The solver gets
  ``EXACT_NODES`` nodes a position (a count, not seconds: the same game gets the same figures
  on any machine); once a position needs more, every earlier one (more segments undrawn,
  harder still) is estimated.
- Before that: ``ROLLOUTS`` playouts of the safe-move phase (free boxes taken, then random
  moves that give no third side, until none is left), each ended by the loony end game's
  value of the chains and loops left (``bot.loony_value``, the long-chain rule), seeded by the
  ply. The expected result is the share of playouts the mover wins (a tie counts half); the
  better move is trudny's. The estimate is the playouts' own policy, so it cannot tell one
  safe move from another (nor one capture from another): a move it would play itself has no
  regret (``Evaluation.regret`` 0); a move outside it (a box handed out while a safe move was
  there, a box left untaken) is judged against the same playouts, with the same seed, from
  the position after it.

The played move's regret is the larger of two drops, both judged from the position before it:
its drop in winning chances (won, drawn, lost where exact), and the boxes it gave away
(``boxes``: the best margin minus the move's, exact or the playouts' mean) as
``tanh(boxes / BOX_SCALE)``. Winning chances alone say nothing once a game is decided, and the
estimate cannot see the decision coming (it says about even until the solver takes over), so a
player who threw boxes away in a lost game kept their accuracy; a box given away costs what it
costs whatever the score (issue 39's calibration: docs/analysis.md).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from games.bots.review import Evaluate, Evaluation

from . import bot

# 3: a move's boxes given away counted beside its winning chances, and a move outside the
# estimate's policy judged against the same playouts (2: the solver bounded by nodes)
VERSION = "dab-exact-3"
EXACT_NODES = 250_000  # about 3-4 s of this machine's Python
EXACT_GUARD_S = 10.0  # never reached at these nodes; a guard on a slower machine
ROLLOUTS = 200
# boxes given away -> a drop: 1 box 0.12 (a mistake), 2 boxes 0.24 (a blunder), 6 boxes 0.64
BOX_SCALE = 8.0


# bench/analysis.py's cases: (name, engine parameters, plies to play (None: to the end), target seconds).
BENCH_CASES: list[tuple[str, dict[str, Any], int | None, float]] = [
    ("dots_and_boxes", {"rows": 5, "cols": 5}, None, 30.0)
]


def _rollout(geo: bot.Geometry, drawn: int, rng: random.Random) -> int:
    """Margin for the player to move at ``drawn`` at the end of one playout."""
    margin = 0
    sign = 1  # +1 while the original mover is to move
    while True:
        caps = bot.capture_moves(geo, drawn)
        if caps:
            s = caps[0]
            margin += sign * bot.completes(geo, drawn, s)
            drawn |= 1 << s
            continue
        safe = [s for s in bot.undrawn(geo, drawn) if bot.is_safe(geo, drawn, s)]
        if not safe:
            break
        drawn |= 1 << rng.choice(safe)
        sign = -sign
    if drawn == geo.all_drawn:
        return margin
    return margin + sign * bot.loony_value(bot._comp_key(bot.components(geo, drawn)))


def _result(margin: float) -> float:
    return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5


def regret(chances: float, boxes: float) -> float:
    """A move's drop: the larger of its drop in winning chances and its boxes given away."""
    return max(0.0, chances, math.tanh(max(0.0, boxes) / BOX_SCALE))


def _playouts(geo: bot.Geometry, drawn: int, ahead: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [ahead + _rollout(geo, drawn, rng) for _ in range(ROLLOUTS)]


def evaluator(game: Any) -> Evaluate:
    params = game.params
    geo = bot.geometry(params.get("rows", 5), params.get("cols", 5))
    solver = bot.Solver(geo, 0.0)
    gave_up = [False]

    def exact(drawn: int, ahead: int, played: int | None) -> Evaluation:
        value, optimal = solver.best_moves(drawn)
        final = ahead + value
        judged = None
        if played is not None:
            n = bot.completes(geo, drawn, played)
            after = drawn | (1 << played)
            own = n + solver.value(after, -999, 999) if n else -solver.value(after, -999, 999)
            judged = regret(_result(final) - _result(ahead + own), value - own)
        return Evaluation(
            expected=_result(final), best=min(optimal), exact=True, detail={"margin": final}, regret=judged
        )

    def evaluate(state: Any, ply: int, played: int | None = None) -> Evaluation:
        mover = state.current_player()
        pink, blue = state.scores()
        ahead = pink - blue if mover == 1 else blue - pink
        _, drawn = bot._drawn_of(state)
        left = bot.undrawn(geo, drawn)
        if len(left) <= bot.EXACT_MAX and not gave_up[0]:
            solver.deadline = time.perf_counter() + EXACT_GUARD_S
            solver.node_limit = solver.nodes + EXACT_NODES
            try:
                return exact(drawn, ahead, played)
            except bot.Timeout:
                gave_up[0] = True
        seed = 1_000_003 * ply + 11
        results = _playouts(geo, drawn, ahead, seed)
        expected = sum(map(_result, results)) / ROLLOUTS
        mean = sum(results) / ROLLOUTS
        best = bot.choose_trudny_drawn(geo, drawn, 0.0, random.Random(ply))
        own = bot.capture_moves(geo, drawn) or [s for s in left if bot.is_safe(geo, drawn, s)] or [best]
        judged = None
        if played is not None:
            judged = 0.0
            if played not in own and played != best:
                # the same playouts from the position after the move, for the same player
                n = bot.completes(geo, drawn, played)
                after = drawn | (1 << played)
                if n:  # the mover goes on (the last segment always completes a box)
                    then = _playouts(geo, after, ahead + n, seed)
                else:
                    then = [-r for r in _playouts(geo, after, -ahead, seed)]
                judged = regret(expected - sum(map(_result, then)) / ROLLOUTS, mean - sum(then) / ROLLOUTS)
        return Evaluation(expected=expected, best=best, detail={"margin": round(mean, 1)}, regret=judged)

    return evaluate


def _run(geo: bot.Geometry, drawn: int) -> int:
    """The boxes the player to move can take one after another now (a chain's, all of them)."""
    taken = 0
    while caps := bot.capture_moves(geo, drawn):
        taken += bot.completes(geo, drawn, caps[0])
        drawn |= 1 << caps[0]
    return taken


# The codes ``why`` gives (its docstring says each one's figures); the spec words every one.
WHY_CODES: tuple[str, ...] = ("missed_boxes", "gave_boxes", "no_double_deal", "costs_boxes")


def why(state: Any, played: int, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """A mistake's reason (``games.bots.review.Reviewer.why``), the first that holds:

    - ``missed_boxes``: the mover could take ``boxes`` in a row, the better move takes them, and
      the move took none;
    - ``gave_boxes``: the move hands the opponent ``boxes`` in a row (a chain's), more than the
      better move hands over (``better``);
    - ``no_double_deal``: the move took boxes where the better move declines them (the last two
      of a chain left to the opponent, who must then open the next one: the long-chain rule);
    - ``costs_boxes``: no box changes hands at once, but with best play from both positions
      (exact) the move loses ``boxes`` by the end.
    """
    geo, drawn = bot._drawn_of(state)
    best = before["best"]
    best_takes = best is not None and bot.completes(geo, drawn, best) > 0
    took = bot.completes(geo, drawn, played)
    if not took:
        on_offer = _run(geo, drawn)
        if on_offer and best_takes:
            return {"code": "missed_boxes", "boxes": on_offer}
        given = _run(geo, drawn | (1 << played))
        better = 0 if best is None or best_takes else _run(geo, drawn | (1 << best))
        if given > better:
            return {"code": "gave_boxes", "boxes": given, "better": better}
    elif best is not None and not best_takes:
        return {"code": "no_double_deal"}
    margin, then = before["detail"].get("margin"), after["detail"].get("margin")
    if before["exact"] and after["exact"] and margin is not None and then is not None:
        lost = margin - (then if took else -then)  # ``after`` is the opponent's unless the mover goes on
        if lost >= 1:
            return {"code": "costs_boxes", "boxes": lost}
    return None
