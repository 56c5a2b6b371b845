"""Computer review of a finished game: an evaluation of every position, each move classified.

No Django: a game's reviewer (``games/<slug>/review.py``, named by its GameSpec's
``review``) evaluates one position for the player to move; ``analyse`` walks the
game's history, turns every evaluation into pink's expected result (1 win, ½ draw,
0 loss), and classifies each move by what it cost its player:

    drop = the mover's expected result before the move − after it (never below 0)

unless the reviewer judged the played move within the search of the position before it
(``Evaluation.regret``: the played move's value against the best move's, one search): then
that regret is the drop. Two searches' values differ by their noise and by what a search
makes of the side to move; one search's two values share both.

=====================  ==================================================
``best``               the move the reviewer would play (or one as good)
``good``               drop < INACCURACY
``inaccuracy``         INACCURACY ≤ drop < MISTAKE
``mistake``            MISTAKE ≤ drop < BLUNDER
``blunder``            drop ≥ BLUNDER
=====================  ==================================================

The thresholds are lichess' (0.1, 0.2, 0.3 on its −1…1 winning-chances scale),
on the 0…1 scale of an expected result, with the blunder raised so that an exact
win given up for a draw (½) is a blunder and a noisy estimate's wobble is not.
A player's accuracy is lichess' (``game_accuracy``): each move's accuracy by lichess'
per-move formula, ``103.1668 · e^(−0.04354 · 100 · drop) − 3.1669``, clamped to 0…100;
then the mean of two means of the player's moves: one weighted by how much pink's chances
swung around the move (the standard deviation of a window of positions, 0.5…12 points),
so the moves that decided the game count most, and the harmonic mean, so a few bad moves
pull it down more than many good ones push it up.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
# A move whose drop is below this is as good as the reviewer's own choice.
EQUAL = 0.01
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
# Changes whenever the walk's classes or accuracy would: stored analyses of another are redone
# (2: lichess' game accuracy, volatility-weighted and harmonic, instead of a plain mean; 3: the
# mistakes' and blunders' reasons, ``why``).
WALK_VERSION = "walk-3"
# The moves whose reason the review says (the reviewer's ``why``): the biggest mistakes.
EXPLAINED = ("mistake", "blunder")


@dataclass(frozen=True)
class Evaluation:
    """One position, for the player to move."""

    expected: float  # 0 (lost) ... 1 (won); a draw is 0.5
    best: int | None  # the action the reviewer would play there; None at the end of the game
    exact: bool = False  # a proven value (a solver's), not an estimate
    # What the number means in the game's own terms, for the page: {"win_in": 7} (plies),
    # {"loss_in": 4}, {"draw": True}, {"lead": 2.5} (expected points ahead)...
    detail: dict[str, Any] = field(default_factory=dict)
    # The move played from here (``played``), judged in the same search: its drop on the same
    # scale as ``expected`` (0 for a move as good as ``best``); None when the reviewer cannot
    # tell, and the drop is then the two positions' difference.
    regret: float | None = None
    # The moves after ``best`` that the same search already chose for the same side (Piłkarzyki:
    # the rest of the best turn's steps): the analysis board's line takes them without searching.
    then: tuple[int, ...] = ()


class Evaluate(Protocol):
    """One position's evaluation: ``(state, ply)``, and the move ``played`` from it when the
    walk knows it (the reviewer may then judge it: ``Evaluation.regret``)."""

    def __call__(self, state: Any, ply: int, played: int | None = None) -> Evaluation: ...


class Reviewer(Protocol):
    """A game's evaluator (``games/<slug>/review.py``)."""

    VERSION: str  # changes whenever its figures would: stored analyses of older versions are redone
    WHY_CODES: tuple[str, ...]  # every reason ``why`` gives: its game's spec words each one

    def evaluator(self, game: Any) -> Evaluate:
        """A function evaluating ``(state, ply, played)`` of ``game``; it may keep tables between positions."""
        ...

    def why(self, state: Any, played: int, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
        """Why the move ``played`` from ``state`` was a mistake or a blunder, in the game's terms
        (the four it allowed, the chain it gave away, the goal it opened): a ``code`` and its
        figures, JSON, which the game's spec words (``GameSpec.mistake_words``); None when the
        game has nothing to say beyond the figures. ``before`` and ``after``: the walk's positions
        around the move (``pink``, ``exact``, ``best``, ``detail``, each for its player to move)."""
        ...


def sigmoid(value: float, scale: float) -> float:
    """An estimate's value (points, margins) as an expected result."""
    return 1.0 / (1.0 + math.exp(-value / scale))


def finished(state: Any) -> Evaluation:
    """The end of the game, from pink's side (player 1)."""
    outcome = state.outcome()
    winner = outcome.winner if outcome is not None else None
    return Evaluation(expected=1.0 if winner == 1 else 0.0 if winner == 2 else 0.5, best=None, exact=True)


def classify(drop: float, played_best: bool) -> str:
    if played_best or drop < EQUAL:
        return "best"
    if drop < INACCURACY:
        return "good"
    if drop < MISTAKE:
        return "inaccuracy"
    if drop < BLUNDER:
        return "mistake"
    return "blunder"


def move_accuracy(drop: float) -> float:
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100 * drop) - 3.1669))


def _std(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def game_accuracy(pink: list[float], movers: list[int], drops: list[float]) -> dict[str, float | None]:
    """Each player's accuracy, as lichess computes a game's: ``pink`` is pink's expected result
    at every position (one more than the moves), ``movers`` and ``drops`` each move's player (0:
    a move left out, yet its window still counts) and drop. The weight of move i is the standard deviation, in percentage points, of pink's chances
    over the window of positions ending after it (windows of len/10 positions, 2…8; the first
    moves share the first window), clamped to 0.5…12; a player's accuracy is the mean of the
    weighted mean and the harmonic mean of their moves' accuracies."""
    n = len(drops)
    if n == 0:
        return {"1": None, "2": None}
    size = max(2, min(8, n // 10))
    percent = [100.0 * p for p in pink]
    windows = [percent[:size] for _ in range(max(0, size - 2))]
    windows += [percent[i : i + size] for i in range(len(percent) - size + 1)]
    weights = [max(0.5, min(12.0, _std(w))) for w in windows[:n]]
    out: dict[str, float | None] = {}
    for side in (1, 2):
        mine = [(move_accuracy(d), w) for m, d, w in zip(movers, drops, weights, strict=True) if m == side]
        if not mine:
            out[str(side)] = None
            continue
        weighted = sum(a * w for a, w in mine) / sum(w for _, w in mine)
        harmonic = len(mine) / sum(1.0 / max(a, 1.0) for a, _ in mine)
        out[str(side)] = round((weighted + harmonic) / 2, 1)
    return out


def analyse(
    game: Any, history: list[int], reviewer: Reviewer, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Every position of the game ``history`` evaluated, every move classified.

    Returns ``{"positions": [{"pink": expected for pink, "exact", "best", "detail"}, ...]``
    (one more than the moves: the start first), ``"moves": [{"ply", "player", "drop", "class",
    "best", "why" (a mistake's or a blunder's reason, when the reviewer has one)}, ...]``,
    ``"accuracy": {"1": ..., "2": ...}`` and ``"counts"`` per player and class.
    ``progress(done, total)`` is called after each position (they are evaluated from the last
    to the first)."""
    evaluate = reviewer.evaluator(game)
    # Every position first, then their evaluations from the last to the first: a reviewer that
    # keeps a table (the solvers) then meets the end game before the positions leading to it.
    states = [game.new_initial_state()]
    for action in history:
        state = states[-1].clone()
        state.apply_action(action)
        states.append(state)
    total = len(states)
    found: list[dict[str, Any]] = [{}] * total
    movers: list[int | None] = [None] * total
    regrets: list[float | None] = [None] * total
    for done, ply in enumerate(range(total - 1, -1, -1), start=1):
        state = states[ply]
        if state.is_terminal():
            ev = finished(state)
            pink = ev.expected
        else:
            movers[ply] = mover = state.current_player()
            ev = evaluate(state, ply, played=history[ply] if ply < len(history) else None)
            pink = ev.expected if mover == 1 else 1.0 - ev.expected
            regrets[ply] = ev.regret
        found[ply] = {"pink": round(pink, 4), "exact": ev.exact, "best": ev.best, "detail": ev.detail}
        if progress is not None:
            progress(done, total)
    positions = found
    moves: list[dict[str, Any]] = []
    counts: dict[str, dict[str, int]] = {side: dict.fromkeys(CLASSES, 0) for side in ("1", "2")}
    for ply, action in enumerate(history, start=1):
        mover = movers[ply - 1]
        if mover is None:  # cannot happen for a legal history: a move is made only before the end
            continue
        before, after = positions[ply - 1]["pink"], positions[ply]["pink"]
        judged = regrets[ply - 1]
        drop = max(0.0, judged if judged is not None else before - after if mover == 1 else after - before)
        best = positions[ply - 1]["best"]
        kind = classify(drop, best == action)
        counts[str(mover)][kind] += 1
        # Kropki: a move made alone, after the other side ended its game, risks nothing (the
        # ender's dots stay, it cannot answer): classified, but left out of the accuracy
        ended = getattr(states[ply - 1], "has_ended", None)
        alone = bool(ended is not None and ended(3 - mover))
        move = {"ply": ply, "player": mover, "drop": round(drop, 4), "class": kind, "best": best, "alone": alone}
        if kind in EXPLAINED:
            reason = reviewer.why(states[ply - 1], action, positions[ply - 1], positions[ply])
            if reason is not None:
                move["why"] = reason
        moves.append(move)
    accuracy = game_accuracy(
        [p["pink"] for p in positions], [0 if m["alone"] else m["player"] for m in moves], [m["drop"] for m in moves]
    )
    return {"positions": positions, "moves": moves, "accuracy": accuracy, "counts": counts}


__all__ = [
    "CLASSES",
    "EXPLAINED",
    "WALK_VERSION",
    "Evaluate",
    "Evaluation",
    "Reviewer",
    "analyse",
    "asdict",
    "classify",
    "finished",
    "game_accuracy",
    "sigmoid",
]
