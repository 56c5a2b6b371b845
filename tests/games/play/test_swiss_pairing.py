"""The Swiss pairing (games/tournaments/swiss/pairing.py, docs/tournaments.md "Swiss"): hand-checked
rounds, of the FIDE Dutch (up to DUTCH_LIMIT players) and of the score-group search past it; no
database. tests/games/play/test_swiss_dutch.py replays tournaments paired by bbpPairings."""

from __future__ import annotations

import random

import pytest

from games.tournaments.swiss.pairing import (
    BLUE,
    PINK,
    UNPLAYED,
    Entrant,
    after_round,
    colours_for,
    pair_round,
    score_group_pairing,
)


def seeded(n: int) -> list[Entrant]:
    """Players 1..n, player 1 the highest rated."""
    return [Entrant(id=i, score=0, rating=2000 - 10 * i, number=i) for i in range(1, n + 1)]


def test_round_one_pairs_the_top_half_with_the_bottom_half_colours_alternating_by_board():
    # Dutch: 1-4, 2-5, 3-6; board 1 the higher-ranked pink, board 2 blue, board 3 pink.
    assert pair_round(seeded(6)).pairs == [(1, 4), (5, 2), (3, 6)]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    players = seeded(7)
    assert pair_round(players).bye == 7
    players[6] = Entrant(id=7, score=2, rating=1930, number=7, colours=UNPLAYED, had_bye=True)
    # 7 had one (and now leads on points): the lowest-ranked of the others, 6, gets it.
    assert pair_round(players).bye == 6


def test_score_groups_first_then_a_downfloat():
    # After round 1: 1, 2, 3 won (score 2), 4, 5, 6 lost. Group {1,2,3}: 1 meets 2 (S1 = [1], S2 =
    # [2, 3]), 3 floats down to the top of {4,5,6} not met: 3 met 6, so 3-4; then 5-6.
    history = {1: 4, 2: 5, 3: 6}
    opp = {**history, **{v: k for k, v in history.items()}}
    col = {1: PINK, 4: BLUE, 2: BLUE, 5: PINK, 3: PINK, 6: BLUE}
    players = [
        Entrant(
            id=i,
            score=2 if i <= 3 else 0,
            rating=2000 - 10 * i,
            number=i,
            opponents=frozenset({opp[i]}),
            colours=col[i],
            floats="-",
        )
        for i in range(1, 7)
    ]
    found = pair_round(players)
    assert [frozenset(p) for p in found.pairs] == [frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6})]
    # Colours: 1 (was pink) and 2 (was blue): each gets their wish, 2 pink. 3 (pink) - 4 (blue): 4 pink.
    # 5 (pink) - 6 (blue): 6 pink.
    assert found.pairs == [(2, 1), (4, 3), (6, 5)]
    assert found.repeats == 0


def test_never_a_repeat_when_a_pairing_without_one_exists():
    # Four players, 1-2 and 3-4 drew in round 1, 1-3 and 2-4 in round 2: only 1-4, 2-3 remains.
    meet = {1: {2, 3}, 2: {1, 4}, 3: {4, 1}, 4: {3, 2}}
    colours = {1: PINK + BLUE, 2: BLUE + PINK, 3: PINK + PINK, 4: BLUE + BLUE}
    players = [
        Entrant(id=i, score=2, rating=2000 - i, number=i, opponents=frozenset(meet[i]), colours=colours[i], floats="--")
        for i in range(1, 5)
    ]
    found = pair_round(players)
    assert sorted(frozenset(p) for p in found.pairs) == sorted([frozenset({1, 4}), frozenset({2, 3})], key=sorted)
    assert found.repeats == 0


def test_the_score_group_search_moves_the_bye_up_when_the_rest_cannot_be_paired_without_a_repeat():
    # 1, 2, 3: 2-3 met. The lowest, 3, gets the bye only if 1-2 is new: it is. Make 1-2 met too:
    # then the bye goes to 2 (1-3 new), not 3.
    players = [
        Entrant(id=1, score=0, rating=3, number=1, opponents=frozenset({2})),
        Entrant(id=2, score=0, rating=2, number=2, opponents=frozenset({1, 3})),
        Entrant(id=3, score=0, rating=1, number=3, opponents=frozenset({2})),
    ]
    assert score_group_pairing(players).bye == 2


def test_a_repeat_only_when_nothing_else_is_possible():
    # the Dutch finds no pairing (it gives two byes): the score-group search allows the repeat
    players = [
        Entrant(id=1, score=2, rating=2, number=1, opponents=frozenset({2}), colours=PINK, floats="-"),
        Entrant(id=2, score=0, rating=1, number=2, opponents=frozenset({1}), colours=BLUE, floats="-"),
    ]
    found = pair_round(players)
    assert found.repeats == 1 and len(found.pairs) == 1


@pytest.mark.parametrize(
    ("high", "low", "expected"),
    [
        (PINK + PINK, BLUE, (2, 1)),  # 1 must have blue (a third pink in a row)
        (BLUE, BLUE + BLUE, (2, 1)),  # 2 must have pink: absolute beats mild
        (PINK, BLUE, (2, 1)),  # both satisfied
        (PINK, PINK, (2, 1)),  # both want blue, equal strength: the higher-ranked gets it
        (BLUE + PINK + BLUE, PINK + BLUE + PINK, (1, 2)),  # 1 diff -1 (strong pink) vs 2 diff +1
        ("", BLUE, (2, 1)),  # only 2 has a wish
    ],
)
def test_colours(high, low, expected):
    a = Entrant(id=1, score=0, colours=high)
    b = Entrant(id=2, score=0, colours=low)
    assert colours_for(a, b, high_number=1) == expected


def test_absolute_colour_clashes_are_avoided_when_the_group_allows():
    # 1 and 2 both played pink twice (both must have blue): 1-2 would clash, so 1-3 and 2-4.
    players = [
        Entrant(id=1, score=4, rating=4, number=1, colours=PINK + PINK),
        Entrant(id=2, score=4, rating=3, number=2, colours=PINK + PINK),
        Entrant(id=3, score=4, rating=2, number=3, colours=BLUE + BLUE),
        Entrant(id=4, score=4, rating=1, number=4, colours=BLUE + BLUE),
    ]
    found = pair_round(players)
    assert found.pairs == [(3, 1), (4, 2)]


def test_a_simulated_tournament_has_no_repeats_and_one_bye_each():
    rng = random.Random(3)
    entrants = seeded(21)
    byes: list[int] = []
    for _ in range(9):
        found = pair_round(entrants)
        assert found.repeats == 0
        assert found.bye is not None
        byes.append(found.bye)
        entrants = after_round(entrants, found, lambda _pink, _blue: rng.choice((2, 1, 0)))
    assert len(set(byes)) == len(byes)
    for e in entrants:  # nobody played a third same colour in a row
        played = e.colours.replace(UNPLAYED, "")
        assert all(len(set(played[i : i + 3])) > 1 for i in range(len(played) - 2)), e.colours


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError):
        pair_round([Entrant(id=1, score=0), Entrant(id=1, score=0)])


def test_when_a_repeat_cannot_be_avoided_the_fewest_repeats():
    # Six players before the last round of tests/live_play/test_swiss_live.py: 0 and 1 have only 2
    # left to meet, so one pair must meet again; one repeat is enough (0-2, 3-4, and 1 or 6 again).
    met = {0: {1, 3, 4, 6}, 1: {0, 3, 4, 6}, 2: {3, 4, 5}, 3: {0, 1, 2, 6}, 4: {0, 1, 2, 5}, 6: {0, 1, 3}}
    players = [
        Entrant(id=i, score=4, rating=1500, number=i, opponents=frozenset(met[i]), colours="WBWB", floats="----")
        for i in met
    ]
    found = pair_round(players)
    assert found.repeats == 1 and found.bye is None
    assert sorted(i for pair in found.pairs for i in pair) == sorted(met)
