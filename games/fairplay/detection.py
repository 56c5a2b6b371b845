"""Engine-use detection: how often a player's moves are the computer's best where it matters,
and whether their think times ever vary (docs/fairplay.md, "Detection"). No Django.

Two steps, so that a game is evaluated once however often its player is assessed:

1. ``game_facts``: both sides of one finished game, position by position. Of each side's moves
   past the opening (``GameSpec.fair_play.opening_plies``), with more than one legal move, at most
   ``POSITIONS_PER_SIDE`` (a sample seeded by the match: Kropki's long games) are evaluated by
   the game's reviewer (``games/<slug>/review.py``, the review's own evaluator). A position
   **matters** (``Look.matters``) when it is not decided (not a proven loss; an estimate between
   ``DECIDED`` and 1 − ``DECIDED``) and the best move is not the obvious one: łatwy, the weakest
   computer (seeded by the ply), plays something else there. Each move then says whether it
   *matters*, whether it was the *best*, its *think time* (seconds since the opponent's move; a
   continuation of one's own turn, a box closed or a bounce, has none) and, when the next position
   was evaluated too, its *drop* (the review's: the expected result it gave away).
2. ``assess``: a player's recent games together. The number of best moves among the positions that
   matter is set against a binomial with the agreement of the strongest honest player the bench
   simulates (``fair_play.reference``, per game); the think times' coefficient of variation says
   whether the pace ever changes; the drops give the review's accuracy (a figure for staff, beside
   the rating: no criterion, docs/fairplay.md). A player is flagged when, over at least ``MIN_POSITIONS``
   positions that matter,

   - the agreement alone is beyond chance (p < ``ALPHA``), or
   - the think times never vary, whatever the position (CV < ``FLAT_CV`` over at least
     ``MIN_TIMED`` timed moves, and the positions that matter take no longer: the log of their mean
     over the others' under ``FLAT_SLOWER``), and the agreement is beyond a club player's
     (``fair_play.flat_reference``; p < ``ALPHA_FLAT``).

The thresholds come from ``bench/fairplay.py`` (its numbers in docs/fairplay.md).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from games import catalogue
from games.bots.review import move_accuracy
from games.catalogue.spec import FairPlayFigures

# Changes whenever a game's facts would: cached facts of older versions are redone (2: the drops;
# 3: the reviewers of Kropki and Kropki i kwadraty, 5 December: other values and estimates).
VERSION = "fairplay-detect-3"

POSITIONS_PER_SIDE = 20
DECIDED = 0.03
WINDOW = 20  # the most recent rated games of a variant assessed together
MIN_POSITIONS = 12
MIN_TIMED = 30
ALPHA = 1e-4
ALPHA_FLAT = 1e-2
FLAT_CV = 0.35
# ... and no slower where it matters: log(mean think time there / elsewhere) under this.
FLAT_SLOWER = 0.2
# The per-game figures (the opening detection skips, the agreement bars) are the game's:
# ``GameSpec.fair_play`` (games/catalogue/spec.py FairPlayFigures), measured by bench/fairplay.py.
EVIDENCE_PLIES = 12  # at most this many plies a game named in the evidence

Evaluate = Callable[[Any, int], Any]  # (state, ply) -> games.bots.review.Evaluation
EasyMove = Callable[[Any, int], int]  # (state, ply) -> łatwy's action there


@dataclass(frozen=True)
class MoveFacts:
    ply: int
    matters: bool
    best: bool  # the computer's best move was played
    think_s: float | None  # seconds since the opponent's move; None: a continuation, or unknown
    legal: int
    drop: float | None = None  # the expected result the move gave away (games.bots.review); None: unknown


@dataclass(frozen=True)
class GameFacts:
    """One side of one game: the moves assessed (the evaluated ones, and the timed ones)."""

    match: int
    side: int
    moves: tuple[MoveFacts, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"match": self.match, "side": self.side, "moves": [asdict(m) for m in self.moves]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameFacts:
        return cls(data["match"], data["side"], tuple(MoveFacts(**m) for m in data["moves"]))


@dataclass(frozen=True)
class Verdict:
    flagged: bool
    figures: dict[str, Any]
    evidence: list[dict[str, Any]]


def think_times(movers: Sequence[int], stamps: Sequence[float]) -> list[float | None]:
    """Per ply (index 0 = ply 1): seconds since the previous move when the opponent made it."""
    out: list[float | None] = [None]
    for i in range(1, len(movers)):
        out.append(max(0.0, stamps[i] - stamps[i - 1]) if movers[i] != movers[i - 1] else None)
    return out[: len(movers)]


def sample_plies(candidates: list[int], match: int, side: int, limit: int = POSITIONS_PER_SIDE) -> list[int]:
    """At most ``limit`` of ``candidates``, the same ones every time for this match and side."""
    if len(candidates) <= limit:
        return list(candidates)
    return sorted(random.Random(match * 2 + side).sample(candidates, limit))


@dataclass(frozen=True)
class Look:
    """What the computer sees in one position, for the player to move."""

    expected: float  # the reviewer's expected result, 0 (lost) ... 1 (won)
    exact: bool
    best: int | None  # the reviewer's move
    easy: int  # łatwy's move (seeded by the ply)

    @property
    def matters(self) -> bool:
        """A choice with something at stake that the obvious move misses: not a proven loss (every
        move loses), not an estimate already decided either way, and łatwy does not find the best."""
        if self.best is None or self.easy == self.best:
            return False
        if self.exact:
            return self.expected > 0
        return DECIDED <= self.expected <= 1 - DECIDED


def look(state: Any, ply: int, evaluate: Evaluate, easy: EasyMove) -> Look:
    ev = evaluate(state, ply)
    return Look(float(ev.expected), bool(ev.exact), ev.best, easy(state, ply))


def game_figures(slug: str) -> FairPlayFigures:
    """The game's detection figures (its spec's ``fair_play``; the defaults for a game not registered)."""
    try:
        return catalogue.game_spec(slug).fair_play
    except KeyError:
        return FairPlayFigures()


def replay(game: Any, history: Sequence[int]) -> list[Any]:
    """The position before each move (index 0 = before ply 1)."""
    states = [game.new_initial_state()]
    for action in history[:-1]:
        state = states[-1].clone()
        state.apply_action(action)
        states.append(state)
    return states


def plies_to_check(states: list[Any], slug: str, side: int, match: int) -> tuple[list[int], list[int]]:
    """(``side``'s plies, the ones of them evaluated: past the opening, a choice, sampled)."""
    opening = game_figures(slug).opening_plies
    mine = [ply for ply in range(1, len(states) + 1) if states[ply - 1].current_player() == side]
    candidates = [ply for ply in mine if ply > opening and len(states[ply - 1].legal_actions()) > 1]
    return mine, sample_plies(candidates, match, side)


def game_facts(
    game: Any,
    slug: str,
    history: Sequence[int],
    times: Sequence[float | None],
    match: int,
    evaluate: Evaluate,
    easy: EasyMove,
) -> dict[int, GameFacts]:
    """Both sides' moves of one game (``history``, ``times`` per ply as ``think_times`` gives), by side.

    Both at once: the position after a player's move is the opponent's next one, so when both are
    evaluated (short games: nearly all) the move's drop is known at no cost, and its accuracy."""
    states = replay(game, history)
    plies = {side: plies_to_check(states, slug, side, match) for side in (1, 2)}
    seen: dict[int, Look] = {}
    # From the last position to the first: a solver's table meets the end game first (games.bots.review).
    for ply in sorted({p for _, chosen in plies.values() for p in chosen}, reverse=True):
        seen[ply] = look(states[ply - 1], ply, evaluate, easy)
    out = {}
    for side, (mine, _chosen) in plies.items():
        moves = []
        for ply in mine:
            if ply not in seen:
                if times[ply - 1] is not None:
                    moves.append(MoveFacts(ply, False, False, times[ply - 1], 0))
                continue
            here, after = seen[ply], seen.get(ply + 1)
            drop = None
            if after is not None:  # the mover's expected result after the move, from the next position
                kept = after.expected if states[ply].current_player() == side else 1 - after.expected
                drop = round(max(0.0, here.expected - kept), 4)
            legal = len(states[ply - 1].legal_actions())
            moves.append(MoveFacts(ply, here.matters, history[ply - 1] == here.best, times[ply - 1], legal, drop))
        out[side] = GameFacts(match, side, tuple(moves))
    return out


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    total = 0.0
    for i in range(k, n + 1):
        total += math.exp(
            math.lgamma(n + 1)
            - math.lgamma(i + 1)
            - math.lgamma(n - i + 1)
            + i * math.log(p)
            + (n - i) * math.log1p(-p)
        )
    return min(1.0, total)


def think_cv(times: list[float]) -> float | None:
    if len(times) < 2:
        return None
    mean = statistics.fmean(times)
    return statistics.pstdev(times) / mean if mean > 0 else 0.0


def assess(games: Sequence[GameFacts], slug: str) -> Verdict:
    """A verdict on one player's recent games of one game (the newest ``WINDOW``, newest last)."""
    recent = list(games)[-WINDOW:]
    mattering = [(g, m) for g in recent for m in g.moves if m.matters]
    n = len(mattering)
    k = sum(1 for _, m in mattering if m.best)
    reference = game_figures(slug).reference
    p_value = binomial_tail(k, n, reference) if n else 1.0
    flat_reference = game_figures(slug).flat_reference
    p_flat = binomial_tail(k, n, flat_reference) if n else 1.0
    times = [m.think_s for g in recent for m in g.moves if m.think_s is not None]
    cv = think_cv(times)
    # Do the hard positions take longer? log of the mean think time there over elsewhere.
    hard = [m.think_s for g in recent for m in g.moves if m.matters and m.think_s]
    easy = [m.think_s for g in recent for m in g.moves if not m.matters and m.think_s]
    slower = round(math.log(statistics.fmean(hard) / statistics.fmean(easy)), 3) if hard and easy else None
    drops = [m.drop for g in recent for m in g.moves if m.drop is not None]
    accuracy = round(statistics.fmean(move_accuracy(d) for d in drops), 1) if drops else None
    enough = n >= MIN_POSITIONS
    by_agreement = enough and p_value < ALPHA
    flat = cv is not None and len(times) >= MIN_TIMED and cv < FLAT_CV and (slower is None or slower < FLAT_SLOWER)
    by_pace = enough and p_flat < ALPHA_FLAT and flat
    figures = {
        "version": VERSION,
        "games": len(recent),
        "positions": n,
        "best": k,
        "agreement": round(k / n, 3) if n else None,
        "expected": reference,
        "p_value": float(f"{p_value:.3g}"),
        "expected_if_flat": flat_reference,
        "p_value_if_flat": float(f"{p_flat:.3g}"),
        "accuracy": accuracy,  # the review's mean move accuracy (0-100) over the moves whose drop is known
        "accuracy_moves": len(drops),
        "think_cv": round(cv, 3) if cv is not None else None,
        "timed_moves": len(times),
        "slower_when_it_matters": slower,
        "reasons": [r for r, hit in (("agreement", by_agreement), ("agreement_and_flat_times", by_pace)) if hit],
    }
    evidence = []
    for g in recent:
        plies = [m.ply for m in g.moves if m.matters and m.best]
        mattered = sum(1 for m in g.moves if m.matters)
        thinks = [round(m.think_s, 1) for m in g.moves if m.think_s is not None][:EVIDENCE_PLIES]
        evidence.append(
            {
                "match": g.match,
                "side": g.side,
                "positions": mattered,
                "best": len(plies),
                "plies": plies[:EVIDENCE_PLIES],
                "think_s": thinks,
                # the moderation page's line (games/fairplay/selectors.py, Evidence.note): data, not words
                "note": f"best {len(plies)}/{mattered} · think s {' '.join(f'{t:g}' for t in thinks) or '-'}",
            }
        )
    return Verdict(by_agreement or by_pace, figures, evidence)


__all__ = [
    "VERSION",
    "GameFacts",
    "Look",
    "MoveFacts",
    "Verdict",
    "assess",
    "binomial_tail",
    "game_facts",
    "look",
    "think_times",
]
