"""Kropki's review: the compiled UCT search (``bot.review_search``) at a fixed number of playouts.

Each position gets the search's win rate for the player to move, with a playout won by
the side ahead at its end (``komi=0``; the player's search counts a gain from now on
instead), and the expected final lead: the mover's lead now plus the chosen move's mean gain
over its playouts. The seed is the ply, so the same game always gets the same figures.
The end of the game is exact (the engine's scores).

The move played from a position is judged in that position's own search: it is a root child
searched at least ``PLAYED_MIN`` playouts (a far point, outside the search's candidates, is
added to them), and its drop is the chosen move's win rate minus its own (``regret``), both
from one tree. The values of two searches (the positions before and after the move) differ by
more than the move: each search's chosen move is the best of many noisy ones, for the side
to move each time, so every move, the search's own too, showed a drop of a few points.

Where the mover is losing (the search's win rate for it under ``LOSING``), the played move's
drop is the larger of that win-rate regret and the dots it gave away: the chosen move's mean gain
minus its own (``dots``), as ``DOTS_CAP · tanh(max(0, dots − DOTS_NOISE) / DOTS_SCALE)``. A lost
side's win rate tells one move from another no more (lichess' way: nothing more to lose), so a
player who dropped dot after dot in a game already lost kept an accuracy of about 88; the dots are
what is still at stake. A side that stands well rightly gives up dots for certainty (the player's
search maximises its chances, not its lead), so there its win rate alone judges it; the
calibration (docs/analysis.md) measured both.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.bots.review import Evaluate, Evaluation

from . import bot, puzzles

# 3: a losing side's dots given away counted beside its win rate; 2: the played move judged in
# the search before it (regret)
VERSION = "kropki-uct-3"
# Playouts a position, by board width: about 0.1 s on 10×10 and 0.4 s on 20×20 here
# (bench/analysis.py), within the 60 s for 100 moves and 5 min for 400.
PLAYOUTS = {10: 30_000, 20: 15_000}
DEFAULT_PLAYOUTS = 15_000
PLAYED_MIN = 2_000  # playouts of the played move at least: its win rate within about ±1 point
TIME_CAP_S = 5.0  # never reached at these playouts; a guard on a slower machine
LOSING = 0.4  # the mover's win rate below which the dots it gives away count
DOTS_NOISE = 0.1  # dots: within the played move's noise at PLAYED_MIN playouts, free
DOTS_SCALE = 0.1
DOTS_CAP = 0.4  # 0.15 dots a mistake (0.19), 0.2 a blunder (0.30), a dot or more 0.40
GIVEN_SAID = 0.5  # a side not losing: its mistake's reason names the dots it gives away from here


# bench/analysis.py's cases: (name, engine parameters, plies to play, the target seconds).
BENCH_CASES: list[tuple[str, dict[str, Any], int | None, float]] = [
    ("kropki_10", {"width": 10, "height": 10}, 100, 60.0),
    ("kropki_20", {"width": 20, "height": 20}, 400, 300.0),
]


def dots_drop(dots: float) -> float:
    """The drop of a move that gave away ``dots`` of the best move's mean gain (a losing side's)."""
    return DOTS_CAP * math.tanh(max(0.0, dots - DOTS_NOISE) / DOTS_SCALE)


def evaluator(game: Any) -> Evaluate:
    if not bot.available():
        raise RuntimeError("the compiled Kropki search is not built: no review")
    playouts = PLAYOUTS.get(game.width, DEFAULT_PLAYOUTS)

    def evaluate(state: Any, ply: int, played: int | None = None) -> Evaluation:
        mover = state.current_player()
        pink, blue = state.scores()
        lead_now = pink - blue if mover == 1 else blue - pink
        rng = random.Random(1_000_003 * ply + 7)
        move = -1 if played is None else played
        action, info = bot.review_search(state, move, playouts, PLAYED_MIN, rng, TIME_CAP_S)
        regret = None
        detail = {"lead": round(lead_now + info["best_gain"], 1)}
        if played == action:
            regret = 0.0
        elif info["played_visits"] > 0:
            regret = max(0.0, info["best_rate"] - info["played_rate"])
            given = info["best_gain"] - info["played_gain"]
            if info["best_rate"] < LOSING:
                regret = max(regret, dots_drop(given))
            # its reason's figures: the dots it gives away, the playouts it wins fewer (points)
            detail["given"] = round(given, 2)
            detail["fewer"] = round(100 * (info["best_rate"] - info["played_rate"]))
        return Evaluation(expected=float(info["best_rate"]), best=int(action), detail=detail, regret=regret)

    return evaluate


def explain(effect: Any) -> dict[str, Any] | None:
    """Why a move took dots: the dots its rings took (the board marks them), how many, the
    move, its player and each ring that took something (``owner``, ``chain``, ``captured``:
    points as ``[x, y]``); games/kropki/spec.py says it in words. None for a move that took
    nothing."""
    rings = [t for t in effect.details.get("territories", ()) if t["captured"]]
    if not rings:
        return None
    taken = [list(point) for ring in rings for point in ring["captured"]]
    return {
        "highlight": taken,
        "taken": len(taken),
        "move": [effect.details["x"], effect.details["y"]],
        "player": effect.player,
        "rings": [{"owner": r["owner"], "chain": r["chain"], "captured": r["captured"]} for r in rings],
    }


# The codes ``why`` gives (its docstring says each one's figures); the spec words every one.
WHY_CODES: tuple[str, ...] = ("missed_capture", "left_capture", "allowed_capture", "costs_dots", "fewer_wins")


def _capture_after(state: Any, action: int, rival: int) -> tuple[int, int | None]:
    """``rival``'s best capture (``puzzles.best_capture``) once ``action`` is played, when it is
    then ``rival``'s move; (0, None) otherwise (the game over, the mover playing on alone)."""
    then = state.clone()
    then.apply_action(action)
    return puzzles.best_capture(then, rival) if then.current_player() == rival else (0, None)


def why(state: Any, played: int, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """A mistake's reason (``games.bots.review.Reviewer.why``), the first that holds, points as
    ``[x, y]``:

    - ``missed_capture``: one move (at ``point``) took ``dots``, more than the move played took;
    - ``left_capture``: the opponent could already take ``dots`` at ``point`` and still can,
      more than after the better move;
    - ``allowed_capture``: the move let the opponent take ``dots`` at ``point`` (they could not
      before), more than after the better move;
    - ``costs_dots``: no capture at once, but in the search of the position before it (its
      playouts) the move ends about ``dots`` (tenths) worse than the better move
      (``detail["given"]``): a losing side's (what its drop counts, past ``DOTS_NOISE``), or at
      least ``GIVEN_SAID``;
    - ``fewer_wins``: otherwise, in the same search the player ends ahead in ``percent`` points
      fewer of the move's playouts than of the better move's (a position, not dots, lost).
    """
    game = state.game
    mover = state.current_player()
    rival = 3 - mover
    best = before["best"]
    if played != game.end_action:
        top, where = puzzles.best_capture(state, mover)
        if where is not None and top > puzzles.gain(state, played, mover):
            if best is not None and best != game.end_action and puzzles.gain(state, best, mover) == top:
                where = best  # the reviewer's own move, where it takes as much
            return {"code": "missed_capture", "dots": top, "point": list(game.xy(where))}
    threat, where = _capture_after(state, played, rival)
    if where is not None and threat > (_capture_after(state, best, rival)[0] if best not in (None, played) else 0):
        already = puzzles.best_capture(state, rival)[0] >= threat
        code = "left_capture" if already else "allowed_capture"
        return {"code": code, "dots": threat, "point": list(game.xy(where))}
    given = before["detail"].get("given")
    losing = (before["pink"] if mover == 1 else 1 - before["pink"]) < LOSING
    # what made it a mistake: a losing side's dots (``dots_drop``), else its win rate, unless the
    # dots are many anyway
    if given is not None and given > DOTS_NOISE and (losing or given >= GIVEN_SAID):
        return {"code": "costs_dots", "dots": given}
    fewer = before["detail"].get("fewer")
    if fewer is not None and fewer >= 1:
        return {"code": "fewer_wins", "percent": fewer}
    return None
