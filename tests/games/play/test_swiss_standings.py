"""A Swiss tournament's tie-breaks (games/tournaments/swiss/standings.py): hand-checked."""

from __future__ import annotations

from games.tournaments.swiss.standings import Result, standings


def both(a: int, b: int, pa: int, played: bool = True) -> list[Result]:
    return [Result(a, b, pa, played), Result(b, a, 2 - pa if played or pa else 0, played)]


def test_sonneborn_berger_and_buchholz():
    # Four players, two rounds. R1: 1 beats 3, 2 draws 4. R2: 1 draws 2, 3 beats 4.
    # Scores (half points): 1: 3, 2: 2, 3: 2, 4: 1.
    # 1: BH = 3's 2 + 2's 2 = 4; SB (quarters) = 2×2 (win vs 3) + 2×1 (draw vs 2) = 6.
    # 2: BH = 4's 1 + 1's 3 = 4; SB = 1×1 + 3×1 = 4.  3: BH = 1's 3 + 4's 1 = 4; SB = 1×2 = 2.
    # 4: BH = 2 + 2 = 4; SB = 2×1 = 2.
    results = both(1, 3, 2) + both(2, 4, 1) + both(1, 2, 1) + both(3, 4, 2)
    table = standings([1, 2, 3, 4], results)
    assert [(table[p].score, table[p].sonneborn_berger, table[p].buchholz) for p in (1, 2, 3, 4)] == [
        (3, 6, 4),
        (2, 4, 4),
        (2, 2, 4),
        (1, 2, 4),
    ]


def test_a_bye_and_a_forfeit_score_but_add_nothing_to_the_tie_breaks():
    results = [Result(1, None, 2, False), Result(2, 3, 2, False), Result(3, 2, 0, False)]
    table = standings([1, 2, 3], results)
    assert [(table[p].score, table[p].sonneborn_berger, table[p].buchholz) for p in (1, 2, 3)] == [
        (2, 0, 0),
        (2, 0, 0),
        (0, 0, 0),
    ]
