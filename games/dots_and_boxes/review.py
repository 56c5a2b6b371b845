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
  regret (``Evaluation.regret`` 0), and only a move outside it (a box handed out while a
  safe move was there, a box left untaken) is judged by the two positions' values.
"""

from __future__ import annotations

import random
import time
from typing import Any

from games.bots.review import Evaluate, Evaluation

from . import bot

# 2: the solver bounded by nodes, and the estimate's own moves judged without regret
VERSION = "dab-exact-2"
EXACT_NODES = 250_000  # about 3-4 s of this machine's Python
EXACT_GUARD_S = 10.0  # never reached at these nodes; a guard on a slower machine
ROLLOUTS = 200


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


def evaluator(game: Any) -> Evaluate:
    params = game.params
    geo = bot.geometry(params.get("rows", 5), params.get("cols", 5))
    solver = bot.Solver(geo, 0.0)
    gave_up = [False]

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
                value, optimal = solver.best_moves(drawn)
            except bot.Timeout:
                gave_up[0] = True
            else:
                final = ahead + value
                expected = 1.0 if final > 0 else 0.0 if final < 0 else 0.5
                return Evaluation(expected=expected, best=min(optimal), exact=True, detail={"margin": final})
        rng = random.Random(1_000_003 * ply + 11)
        results = [ahead + _rollout(geo, drawn, rng) for _ in range(ROLLOUTS)]
        expected = sum(1.0 if r > 0 else 0.5 if r == 0 else 0.0 for r in results) / ROLLOUTS
        best = bot.choose_trudny_drawn(geo, drawn, 0.0, random.Random(ply))
        own = bot.capture_moves(geo, drawn) or [s for s in left if bot.is_safe(geo, drawn, s)] or [best]
        return Evaluation(
            expected=expected,
            best=best,
            detail={"margin": round(sum(results) / ROLLOUTS, 1)},
            regret=0.0 if played in own or played == best else None,
        )

    return evaluate
