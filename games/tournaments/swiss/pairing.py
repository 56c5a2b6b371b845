"""Swiss pairing (docs/tournaments.md "Swiss", "Pairing"): one round of a simplified Dutch
system, in pure Python (no Django: the pairing and its tests need no database).

Why not a library: the one Dutch-system package on PyPI (caissify-pairings 0.5, built on
networkx's maximum-weight matching) took 99 s for one round of 100 players (a 1,000-player
round must take under 1 s); bbpPairings and JaVaFo are external binaries.

The rules, in order of strength (where they differ from FIDE C.04.3, it says so):

1. **No repeats** (absolute): two players are paired at most once in a tournament (an unplayed
   game, a forfeit, counts as a meeting too: FIDE would allow it again). Only when no pairing
   without a repeat exists at all is a repeat allowed, the fewest the search finds.
2. **The bye**: with an odd number of players, the lowest-ranked player who has had no bye
   gets it (a win); if every player has had one, the lowest-ranked. Then the one above, and
   so on, if the rest cannot be paired without repeats.
3. **Score groups top-down**: players are ranked by score, then rating (at joining), then
   their number (joining order). The highest-ranked unpaired player is paired first, with a
   player of their own score group when one fits, else with the highest-ranked lower one (a
   downfloat). FIDE also minimises the number of floaters over the whole round and avoids a
   player floating twice in a row; this search does not look at floats.
4. **Dutch order within a group**: the group's top half (S1) meets its bottom half (S2), the
   first of S1 the first of S2, and so on; the search tries the partners nearest that one.
5. **Colours**: a pair in which both players must have the same colour (absolute: a colour
   difference beyond ±1 after the game, or a third same colour in a row) is avoided when the
   group allows another partner (FIDE makes it absolute). The colours then go: to each their
   preference when they differ; when equal, the stronger preference (absolute > strong:
   difference ±1 > mild: alternate from the last) wins, and at equal strength the
   higher-ranked player gets theirs. Nobody has a preference (round 1): the higher-ranked
   player takes pink (first move) on odd boards, blue on even ones.

The search is a depth-first search over these choices with a budget of steps (``BUDGET``):
the first complete pairing found is the answer, so in the common case it is one greedy pass
(1,000 players: tens of milliseconds, bench/swiss_pairing.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

PINK, BLUE, UNPLAYED = "W", "B", "-"  # a colour history's letters: pink (moves first), blue, no game
BUDGET = 200_000  # search steps per attempt before the next, looser one


@dataclass(frozen=True)
class Entrant:
    """One player to pair: ``score`` in half points (a win 2, a draw 1), ``colours`` their
    colour history, one letter a round (``PINK``, ``BLUE``, ``UNPLAYED``)."""

    id: int
    score: int
    rating: float = 0.0
    number: int = 0  # joining order: the last tie-break of the ranking
    opponents: frozenset[int] = field(default_factory=frozenset)
    colours: str = ""
    had_bye: bool = False


@dataclass(frozen=True)
class Round:
    """A round's pairing: ``pairs`` as (pink id, blue id), board 1 first; ``bye``: who has it."""

    pairs: list[tuple[int, int]]
    bye: int | None
    repeats: int = 0  # pairs that meet again (only when no pairing without one exists)


def _preference(colours: str) -> tuple[str, int]:
    """(the colour a player wants, its strength: 3 absolute, 2 strong, 1 mild, 0 none)."""
    played = colours.replace(UNPLAYED, "")
    if not played:
        return "", 0
    diff = played.count(PINK) - played.count(BLUE)
    if len(played) >= 2 and played[-1] == played[-2]:
        return (BLUE if played[-1] == PINK else PINK), 3
    if abs(diff) >= 2:
        return (BLUE if diff > 0 else PINK), 3
    if diff:
        return (BLUE if diff > 0 else PINK), 2
    return (BLUE if played[-1] == PINK else PINK), 1


def _clash(a: tuple[str, int], b: tuple[str, int]) -> bool:
    """Both must have the same colour."""
    return a[1] == 3 and b[1] == 3 and a[0] == b[0]


def colours_for(high: Entrant, low: Entrant, board: int) -> tuple[int, int]:
    """(pink id, blue id) for a pair; ``high`` is the higher-ranked, ``board`` counts from 1."""
    ph, pl = _preference(high.colours), _preference(low.colours)
    if ph[1] == 0 and pl[1] == 0:
        return (high.id, low.id) if board % 2 else (low.id, high.id)
    if ph[1] == 0 or (ph[0] == pl[0] and pl[1] > ph[1]):
        return (low.id, high.id) if pl[0] == PINK else (high.id, low.id)  # the lower-ranked's wish
    return (high.id, low.id) if ph[0] == PINK else (low.id, high.id)  # the higher-ranked's wish


def ranked(entrants: list[Entrant]) -> list[Entrant]:
    """Score, then rating, then number (joining order)."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.number, e.id))


class _OutOfSteps(Exception):
    pass


def _search(players: list[Entrant], *, colours_strict: bool, repeats_allowed: bool) -> list[tuple[int, int]] | None:
    """Pairs of indexes into ``players`` (ranked), or None. Depth-first, highest first."""
    n = len(players)
    prefs = [_preference(p.colours) for p in players]
    # Each player's place in their score group and the group's bounds (the Dutch mirror).
    group_start = [0] * n
    group_end = [0] * n
    start = 0
    for i in range(1, n + 1):
        if i == n or players[i].score != players[start].score:
            for j in range(start, i):
                group_start[j], group_end[j] = start, i
            start = i
    free = [True] * n
    pairs: list[tuple[int, int]] = []
    steps = 0

    def candidates(i: int) -> list[int]:
        """Partners for ``i`` in the order tried: own group nearest the Dutch mirror, then the
        groups below in rank order; a colour clash last (or never, when strict)."""
        lo, hi = group_start[i], group_end[i]
        mirror = i + (hi - lo) // 2 if i - lo < (hi - lo) // 2 else i + 1
        own = [j for j in range(i + 1, hi) if free[j]]
        own.sort(key=lambda j: abs(j - mirror))
        below = (j for j in range(hi, n) if free[j])
        good: list[int] = []
        bad: list[int] = []
        for j in [*own, *below]:
            if not repeats_allowed and players[j].id in players[i].opponents:
                continue
            (bad if _clash(prefs[i], prefs[j]) else good).append(j)
            if len(good) >= 24 and j >= hi:  # enough lower candidates: the search seldom needs more
                break
        return good if colours_strict else good + bad

    def go(k: int) -> bool:
        nonlocal steps
        while k < n and not free[k]:
            k += 1
        if k == n:
            return True
        free[k] = False
        for j in candidates(k):
            steps += 1
            if steps > BUDGET:
                raise _OutOfSteps
            free[j] = False
            pairs.append((k, j))
            if go(k + 1):
                return True
            pairs.pop()
            free[j] = True
        free[k] = True
        return False

    try:
        return pairs if go(0) else None
    except _OutOfSteps:
        return None


def _repeat_count(players: list[Entrant], pairs: list[tuple[int, int]]) -> int:
    return sum(1 for i, j in pairs if players[j].id in players[i].opponents)


def pair_round(entrants: list[Entrant]) -> Round:
    """Pair one round of ``entrants`` (the players who play it). Raises ValueError for a
    player listed twice."""
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("a player is listed twice")
    order = ranked(entrants)
    if len(order) < 2:
        return Round(pairs=[], bye=order[0].id if order else None)
    bye_order: list[Entrant | None]
    if len(order) % 2:
        # The bye: lowest-ranked without one first, then the others from the bottom.
        bye_order = [*(e for e in reversed(order) if not e.had_bye), *(e for e in reversed(order) if e.had_bye)]
    else:
        bye_order = [None]
    for strict, repeats in ((True, False), (False, False), (False, True)):
        for bye in bye_order:
            players = [e for e in order if bye is None or e.id != bye.id]
            found = _search(players, colours_strict=strict, repeats_allowed=repeats)
            if found is None:
                continue
            found.sort()
            pairs = [colours_for(players[i], players[j], board) for board, (i, j) in enumerate(found, start=1)]
            return Round(pairs=pairs, bye=bye.id if bye else None, repeats=_repeat_count(players, found))
    raise ValueError("no pairing found")  # unreachable: with repeats allowed any even group pairs


def after_round(entrants: list[Entrant], played: Round, pink_points: Callable[[int, int], int]) -> list[Entrant]:
    """``entrants`` as they stand after ``played``: each pair scored ``pink_points(pink, blue)``
    half points for pink (the rest of 2 for blue), the bye a win (simulations: the bench, tests)."""
    by_id = {e.id: e for e in entrants}
    for pink, blue in played.pairs:
        a, b = by_id[pink], by_id[blue]
        r = pink_points(pink, blue)
        by_id[pink] = replace(a, score=a.score + r, opponents=a.opponents | {blue}, colours=a.colours + PINK)
        by_id[blue] = replace(b, score=b.score + 2 - r, opponents=b.opponents | {pink}, colours=b.colours + BLUE)
    if played.bye is not None:
        e = by_id[played.bye]
        by_id[e.id] = replace(e, score=e.score + 2, colours=e.colours + UNPLAYED, had_bye=True)
    return [by_id[e.id] for e in entrants]


__all__ = ["BLUE", "PINK", "UNPLAYED", "Entrant", "Round", "after_round", "colours_for", "pair_round", "ranked"]
