"""Swiss pairing (docs/tournaments.md "Swiss", "Pairing"): one round, in pure Python (no
Django: the pairing and its tests need no database).

**Up to ``DUTCH_LIMIT`` players** (a club's Swiss): the pairs of the FIDE Dutch system
(C.04.3) of caissify-pairings, a library checked against bbpPairings, the FIDE-endorsed
program; the colours by the 2025 rules here (``colours_for``: the library's differ from
bbpPairings' in 23 of the 154 rounds replayed). tests/games/play/test_swiss_dutch.py replays
tournaments paired by bbpPairings itself through ``pair_round`` and finds every round's
pairs, colours and bye. Two rules of ours go in as its input: an unplayed game (a no-show)
counts as a meeting (FIDE would allow the pair again), and rounds missed before joining
count as FIDE's zero-point byes.

**Above it**, or when the Dutch finds no pairing (more rounds than the field can play without
a repeat), our score-group search: the library's maximum-weight matching is cubic (a round
of 100 players took 10-99 s; a 1,000-player round must take under 1 s, bench/swiss_pairing.py).
Its rules, in order of strength (where they differ from FIDE C.04.3, it says so):

1. **No repeats** (absolute): two players are paired at most once in a tournament. Only when
   no pairing without a repeat exists at all is a repeat allowed: one, else two, and so on.
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

Pink, who moves first, is FIDE's white.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from caissify_pairings import generate_pairings

PINK, BLUE, UNPLAYED = "W", "B", "-"  # a colour history's letters: pink (moves first), blue, no game
UP, DOWN, LEVEL = "U", "D", "-"  # a float history's letters: up, down, neither
BUDGET = 200_000  # search steps per attempt before the next, looser one
# Players up to which the FIDE Dutch pairs a round: its matching takes about 0.3-0.4 s for 40
# (bench/swiss_pairing.py, "dutch_median_s"), 10-99 s for 100.
DUTCH_LIMIT = 40

_COLOUR_NAMES = {PINK: "white", BLUE: "black"}
_FLOAT_NAMES = {UP: "up", DOWN: "down", LEVEL: "none"}
# the library warns of its "forced byes" (no pairing found): the score-group search takes over
logging.getLogger("caissify_pairings").setLevel(logging.ERROR)


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
    # one letter a round the player took part in (a game, a bye, a forfeit): UP when their
    # opponent had more points before it, DOWN when fewer or for a bye or a forfeit won
    floats: str = ""
    missed: int = 0  # rounds before they joined (FIDE's zero-point byes: no bye for them first)
    forfeit_wins: int = 0  # games won because the opponent never moved (no bye for them first)


@dataclass(frozen=True)
class Round:
    """A round's pairing: ``pairs`` as (pink id, blue id), board 1 first; ``bye``: who has it."""

    pairs: list[tuple[int, int]]
    bye: int | None
    repeats: int = 0  # pairs that meet again (only when no pairing without one exists)


def _preference(colours: str) -> tuple[str, int]:
    """(the colour a player wants, its strength: 3 absolute, 2 strong, 1 mild, 0 none), from
    their played games (FIDE C.04.3, 2025: absolute after two more of one colour or two of one
    in a row, strong after one more, mild: the other colour than the last)."""
    played = colours.replace(UNPLAYED, "")
    if not played:
        return "", 0
    diff = played.count(PINK) - played.count(BLUE)
    fewer = BLUE if diff > 0 else PINK
    other = BLUE if played[-1] == PINK else PINK
    if abs(diff) > 1:
        return fewer, 3
    if len(played) >= 2 and played[-1] == played[-2]:
        return other, 3
    return (fewer, 2) if diff else (other, 1)


def _clash(a: tuple[str, int], b: tuple[str, int]) -> bool:
    """Both must have the same colour."""
    return a[1] == 3 and b[1] == 3 and a[0] == b[0]


def colours_for(high: Entrant, low: Entrant, high_number: int) -> tuple[int, int]:
    """(pink id, blue id) for a pair by FIDE C.04.3's colour rules (2025); ``high`` ranks
    higher (more points, else the lower pairing number ``high_number``, counted from 1).

    1. Each gets their wish when the wishes differ (or one has none).
    2. Same wish: an absolute one beats a weaker one (two absolute: the wider colour difference).
    3. A strong one beats a mild one.
    4. Else each takes the other's colour of the last round in which their colours differed.
    5. Else the higher-ranked gets their wish; with no wish at all, pink when their pairing
       number is odd (pink is the initial colour)."""
    (wh, sh), (wl, sl) = _preference(high.colours), _preference(low.colours)
    imbalance = [abs(e.colours.count(PINK) - e.colours.count(BLUE)) for e in (high, low)]
    if wh != wl:
        high_pink = wh == PINK if wh else wl == BLUE
    elif sh == 3 and (sl < 3 or imbalance[0] > imbalance[1]):
        high_pink = wh == PINK
    elif sl == 3 and (sh < 3 or imbalance[1] > imbalance[0]):
        high_pink = wl == BLUE
    elif sh == 2 and sl != 2:
        high_pink = wh == PINK
    elif sl == 2 and sh != 2:
        high_pink = wl == BLUE
    else:
        differ = next(
            (
                (a, b)
                for a, b in zip(
                    reversed(high.colours.replace(UNPLAYED, "")),
                    reversed(low.colours.replace(UNPLAYED, "")),
                    strict=False,
                )
                if a != b
            ),
            None,
        )
        if differ is not None and wh:
            high_pink = differ[1] == PINK
        elif wh:
            high_pink = wh == PINK
        else:
            high_pink = high_number % 2 == 1
    return (high.id, low.id) if high_pink else (low.id, high.id)


def pairing_numbers(entrants: list[Entrant]) -> dict[int, int]:
    """FIDE's pairing numbers, from 1: rating at joining, then joining order."""
    return {e.id: k for k, e in enumerate(sorted(entrants, key=lambda e: (-e.rating, e.number, e.id)), 1)}


def ranked(entrants: list[Entrant]) -> list[Entrant]:
    """Score, then rating, then number (joining order)."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.number, e.id))


class _OutOfSteps(Exception):
    pass


def _search(players: list[Entrant], *, colours_strict: bool, repeats: int) -> list[tuple[int, int]] | None:
    """Pairs of indexes into ``players`` (ranked) with at most ``repeats`` pairs that met
    before, or None. Depth-first, highest first."""
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
    repeated = 0

    def candidates(i: int) -> list[int]:
        """Partners for ``i`` in the order tried: own group nearest the Dutch mirror, then the
        groups below in rank order; a colour clash last (or never, when strict); a repeat after
        all of them, while the search may still repeat."""
        lo, hi = group_start[i], group_end[i]
        mirror = i + (hi - lo) // 2 if i - lo < (hi - lo) // 2 else i + 1
        own = [j for j in range(i + 1, hi) if free[j]]
        own.sort(key=lambda j: abs(j - mirror))
        below = (j for j in range(hi, n) if free[j])
        good: list[int] = []
        bad: list[int] = []
        again: list[int] = []
        for j in [*own, *below]:
            if players[j].id in players[i].opponents:
                if repeated < repeats:
                    again.append(j)
                continue
            (bad if _clash(prefs[i], prefs[j]) else good).append(j)
            if len(good) >= 24 and j >= hi:  # enough lower candidates: the search seldom needs more
                break
        return (good if colours_strict else good + bad) + again

    def go(k: int) -> bool:
        nonlocal steps, repeated
        while k < n and not free[k]:
            k += 1
        if k == n:
            return True
        free[k] = False
        for j in candidates(k):
            steps += 1
            if steps > BUDGET:
                raise _OutOfSteps
            again = players[j].id in players[k].opponents
            free[j] = False
            repeated += again
            pairs.append((k, j))
            if go(k + 1):
                return True
            pairs.pop()
            repeated -= again
            free[j] = True
        free[k] = True
        return False

    try:
        return pairs if go(0) else None
    except _OutOfSteps:
        return None


def _repeat_count(players: list[Entrant], pairs: list[tuple[int, int]]) -> int:
    return sum(1 for i, j in pairs if players[j].id in players[i].opponents)


def pair_round(entrants: list[Entrant], rounds: int = 0) -> Round:
    """Pair one round of ``entrants`` (the players who play it) of a Swiss of ``rounds``
    rounds (0: this is the last). Raises ValueError for a player listed twice."""
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("a player is listed twice")
    if 2 <= len(entrants) <= DUTCH_LIMIT:
        found = _dutch(entrants, rounds)
        if found is not None:
            return found
    return score_group_pairing(entrants)


def _dutch(entrants: list[Entrant], rounds: int) -> Round | None:
    """The FIDE Dutch pairing of caissify-pairings, or None when it found none (it then
    gives more than one bye)."""
    numbers = pairing_numbers(entrants)
    this_round = max(len(e.colours) for e in entrants) + 1
    players = [
        {
            "id": e.id,
            "name": str(e.id),
            "score": e.score / 2,
            "rating": round(e.rating),
            "starting_number": numbers[e.id],
            "color_hist": [_COLOUR_NAMES[c] for c in e.colours if c != UNPLAYED],
            "float_history": [_FLOAT_NAMES[f] for f in DOWN * e.missed + e.floats],
            "bye_count": int(e.had_bye) + e.missed,
            "forfeit_win_count": e.forfeit_wins,
        }
        for e in entrants
    ]
    previous = {(e.id, o) for e in entrants for o in e.opponents}
    rows = generate_pairings(
        system="dutch",
        players=players,
        previous_pairings=previous,
        round_number=this_round,
        total_rounds=max(rounds, this_round),
    )
    byes = [r["white_id"] for r in rows if r.get("bye")]
    games = [(r["white_id"], r["black_id"]) for r in sorted(rows, key=lambda r: r["table"]) if not r.get("bye")]
    seated = [i for pair in games for i in pair] + byes
    if len(byes) != len(entrants) % 2 or sorted(seated) != sorted(numbers):
        return None
    # its pairs; the colours by the 2025 rules (the library allocates them by older ones)
    rank = {e.id: k for k, e in enumerate(ranked(entrants))}
    by_id = {e.id: e for e in entrants}
    pairs = []
    for a, b in games:
        high, low = sorted((by_id[a], by_id[b]), key=lambda e: rank[e.id])
        pairs.append(colours_for(high, low, numbers[high.id]))
    return Round(pairs=pairs, bye=byes[0] if byes else None)


def score_group_pairing(entrants: list[Entrant]) -> Round:
    """Our score-group search (the module's docstring)."""
    order = ranked(entrants)
    if len(order) < 2:
        return Round(pairs=[], bye=order[0].id if order else None)
    bye_order: list[Entrant | None]
    if len(order) % 2:
        # The bye: lowest-ranked without one first, then the others from the bottom.
        bye_order = [*(e for e in reversed(order) if not e.had_bye), *(e for e in reversed(order) if e.had_bye)]
    else:
        bye_order = [None]
    attempts = [(True, 0), (False, 0), *((False, k) for k in range(1, len(order) // 2 + 1))]
    for strict, repeats in attempts:
        for bye in bye_order:
            players = [e for e in order if bye is None or e.id != bye.id]
            found = _search(players, colours_strict=strict, repeats=repeats)
            if found is None:
                continue
            found.sort()
            numbers = pairing_numbers(players)
            pairs = [colours_for(players[i], players[j], numbers[players[i].id]) for i, j in found]
            return Round(pairs=pairs, bye=bye.id if bye else None, repeats=_repeat_count(players, found))
    raise ValueError("no pairing found")  # unreachable: with every pair allowed to repeat any even group pairs


def after_round(entrants: list[Entrant], played: Round, pink_points: Callable[[int, int], int]) -> list[Entrant]:
    """``entrants`` as they stand after ``played``: each pair scored ``pink_points(pink, blue)``
    half points for pink (the rest of 2 for blue), the bye a win (simulations: the bench, tests)."""
    by_id = {e.id: e for e in entrants}
    for pink, blue in played.pairs:
        a, b = by_id[pink], by_id[blue]
        r = pink_points(pink, blue)
        fa, fb = float_letters(a.score, b.score)
        by_id[pink] = replace(
            a, score=a.score + r, opponents=a.opponents | {blue}, colours=a.colours + PINK, floats=a.floats + fa
        )
        by_id[blue] = replace(
            b, score=b.score + 2 - r, opponents=b.opponents | {pink}, colours=b.colours + BLUE, floats=b.floats + fb
        )
    if played.bye is not None:
        e = by_id[played.bye]
        by_id[e.id] = replace(e, score=e.score + 2, colours=e.colours + UNPLAYED, had_bye=True, floats=e.floats + DOWN)
    return [by_id[e.id] for e in entrants]


def float_letters(mine: int, theirs: int) -> tuple[str, str]:
    """The float of each side of a game between players of ``mine`` and ``theirs`` points."""
    if mine == theirs:
        return LEVEL, LEVEL
    return (DOWN, UP) if mine > theirs else (UP, DOWN)


__all__ = [
    "BLUE",
    "DOWN",
    "LEVEL",
    "PINK",
    "UNPLAYED",
    "UP",
    "Entrant",
    "Round",
    "after_round",
    "colours_for",
    "float_letters",
    "pair_round",
    "pairing_numbers",
    "ranked",
    "score_group_pairing",
]
