"""A Swiss tournament's standings from its boards (docs/tournaments.md "Swiss", "Scoring"), in
pure Python: score, Sonneborn-Berger, Buchholz.

- **Score**: a win 2 half points, a draw 1, a loss 0; a bye and a forfeit win 2, a no-show 0.
- **Buchholz**: the sum of the final scores of the opponents met in games played (kind
  ``game``); a bye and a forfeit add nothing (FIDE C.07 would count a virtual opponent).
- **Sonneborn-Berger**: over the same games, each opponent's final score times the points
  scored against them (a win: the whole score, a draw: half of it). Kept in quarter points
  (half points × half points): divide by 4 to read it in points.
- **Ranking**: score, then Sonneborn-Berger, then Buchholz, then the joining order.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One side of a finished board: ``opponent`` None for a bye; ``played`` False for a bye or
    a forfeit; ``points`` in half points."""

    player: int
    opponent: int | None
    points: int
    played: bool


@dataclass(frozen=True)
class Line:
    player: int
    score: int  # half points
    sonneborn_berger: int  # quarter points
    buchholz: int  # half points


def standings(players: list[int], results: list[Result]) -> dict[int, Line]:
    score = dict.fromkeys(players, 0)
    for r in results:
        score[r.player] = score.get(r.player, 0) + r.points
    sb = dict.fromkeys(score, 0)
    bh = dict.fromkeys(score, 0)
    for r in results:
        if not r.played or r.opponent is None:
            continue
        opponent_score = score.get(r.opponent, 0)
        bh[r.player] += opponent_score
        sb[r.player] += opponent_score * r.points
    return {p: Line(p, score[p], sb[p], bh[p]) for p in score}


__all__ = ["Line", "Result", "standings"]
