"""Seed 001's options (SPEC.md "Kropki: options"): win by a margin, the own-dot penalty and
territory ("baseny") scored at the end, each case built as seed 001 pictures it; a game
with no option plays exactly as before."""

from __future__ import annotations

import pytest

from games.engine.base import InvalidParamsError
from games.kropki.engine import MARGIN, SCORE, Kropki, KropkiState

# A pink dot (e5) and blue's own dots inside blue's ring around e5..h8 (its last dot, e4,
# closes it): seed 001's penalty examples 1 (one own dot, f6) and 2 (two, f6 and g7). The
# own dots stand two points from the ring, so no tighter ring can pass through them.
RING = ["d5", "d6", "d7", "d8", "e9", "f9", "g9", "h9", "i8", "i7", "i6", "i5", "h4", "g4", "f4", "e4"]


def _play(game: Kropki, pink: list[str], blue: list[str], *, blue_first: bool = False) -> KropkiState:
    """Alternate pink's and blue's dots (pink first, as always; ``blue_first``: pink's first
    dot is spent on a far point so blue's list starts the game)."""
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    pink = list(pink)
    if blue_first:
        pink.insert(0, "a10")
    for i in range(max(len(pink), len(blue))):
        for side in (pink, blue):
            if i < len(side):
                state.apply_action(game.string_to_action(side[i]))
    return state


def _filler(count: int) -> list[str]:
    """Dots along the top two rows, far from every ring of these tests."""
    return [f"{column}{row}" for row in (1, 2) for column in "abcdefghij"][:count]


def test_no_option_is_left_in_the_parameters() -> None:
    assert Kropki(width=10, height=10).params == {"width": 10, "height": 10}
    assert Kropki(width=10, height=10, penalty=False, territory=False, margin=None).params == {
        "width": 10,
        "height": 10,
    }
    game = Kropki(width=20, height=20, margin=15, penalty=True, territory=True)
    assert game.params == {"width": 20, "height": 20, "margin": 15, "penalty": True, "territory": True}


@pytest.mark.parametrize(
    "params", [{"margin": 2}, {"margin": True}, {"margin": "15"}, {"penalty": 1}, {"territory": "yes"}, {"ko": True}]
)
def test_a_bad_option_is_refused(params: dict[str, object]) -> None:
    with pytest.raises(InvalidParamsError):
        Kropki(width=10, height=10, **params)


@pytest.mark.parametrize(("own", "expected"), [(["f6"], (0, 0)), (["f6", "g7"], (0, -1))])
def test_the_penalty_costs_one_point_for_each_own_dot_in_the_new_territory(
    own: list[str], expected: tuple[int, int]
) -> None:
    """Seed 001: "Gracz niebieski zdobywa 1 punkt i traci 1 punkt ... 0 : 0" and "zdobywa
    1 punkt i traci 2 punkty ... -1 : 0"."""
    pink = ["e5", *_filler(len(own) + len(RING) - 1)]
    plain = _play(Kropki(width=10, height=10), pink, own + RING)
    fined = _play(Kropki(width=10, height=10, penalty=True), pink, own + RING)
    assert plain.scores() == (0, 1)  # the pink dot is taken either way
    assert fined.scores() == expected
    assert fined.penalties == [0, 0, len(own)]
    # the move that closed the ring says which dots cost a point
    last = Kropki(width=10, height=10, penalty=True)
    state = _play(last, pink, own + RING[:-1])
    effect = state.apply_action(last.string_to_action(RING[-1]))
    (territory,) = effect.details["territories"]
    assert territory["captured"] == [[4, 4]]
    assert sorted(territory["penalised"]) == sorted([list(last.xy(last.string_to_action(p))) for p in own])


def test_a_dot_taken_back_is_no_penalty() -> None:
    """Freeing one's own captured dots (seed 001's scoring example 2) is not enclosing them."""
    game = Kropki(width=10, height=10, penalty=True)
    # blue takes pink's e5 with a diamond; pink then rings the diamond and frees e5
    blue = ["e4", "f5", "e6", "d5"]
    pink = ["e5", "a1", "a2", "a3"]
    state = _play(game, pink, blue)
    assert state.scores() == (0, 1)
    big = ["e3", "f4", "g5", "f6", "e7", "d6", "c5", "d4"]
    for i, point in enumerate(big):
        state.apply_action(game.string_to_action(point))
        if i < len(big) - 1:
            state.apply_action(game.string_to_action(f"j{i + 1}"))
    assert state.scores() == (4, 0)  # four blue dots taken, e5 freed: no penalty for it
    assert state.penalties == [0, 0, 0]


def test_a_margin_ends_the_game_the_moment_a_score_leads_by_it() -> None:
    diamond_pink = ["e4", "f5", "e6", "d5"]
    blue = ["e5", "a1", "a2"]
    for margin, over in ((1, True), (15, False)):
        game = Kropki(width=10, height=10, margin=margin)
        state = _play(game, diamond_pink, blue)
        assert state.scores() == (1, 0)
        if over:
            assert state.is_terminal() and state.current_player() is None
            outcome = state.outcome()
            assert outcome is not None and (outcome.winner, outcome.reason, outcome.scores) == (1, MARGIN, (1, 0))
        else:
            assert not state.is_terminal() and state.current_player() == 2


def test_without_a_margin_the_same_capture_plays_on() -> None:
    state = _play(Kropki(width=10, height=10), ["e4", "f5", "e6", "d5"], ["e5", "a1", "a2"])
    assert state.scores() == (1, 0) and state.current_player() == 2


# Seed 001's third example: blue's empty ring holds 8 points (c2..d5), pink's 4 (h2, i2, h3, i3).
BLUE_RING = ["c1", "d1", "e2", "e3", "e4", "e5", "d6", "c6", "b5", "b4", "b3", "b2"]
PINK_RING = ["h1", "i1", "j2", "j3", "i4", "h4", "g3", "g2"]


@pytest.mark.parametrize(("last", "expected"), [("blue", (0, 2)), ("pink", (0, 1))])
def test_territory_scores_the_empty_rings_as_seed_001_counts_them(last: str, expected: tuple[int, int]) -> None:
    """Seed 001: "2:0 dla niebieskiego ... jeśli ostatni ruch należałby do gracza niebieskiego: (8 pól -
    4 pola) * 0,5 punkta" and "1:0 ... jeśli ostatni ruch ... czerwonego: ... - 0,5 punkta"."""
    pink = [*PINK_RING, "a8", "a9", "a10", "b10"]  # 12 dots each: blue's last dot ends the list
    if last == "pink":
        pink.append("c10")  # one more pink dot after blue's last
    for territory in (False, True):
        game = Kropki(width=10, height=10, territory=territory)
        state = _play(game, pink, BLUE_RING)
        assert state.empty_territory() == (4, 8)
        assert state.dot_movers[1] == (1 if last == "pink" else 2)
        while not state.is_terminal():
            state.apply_action(game.end_action)
        outcome = state.outcome()
        assert outcome is not None and outcome.reason == SCORE
        assert outcome.scores == (expected if territory else (0, 0))
        assert outcome.winner == (2 if territory else None)


def test_territory_counts_nothing_for_a_margin_win() -> None:
    game = Kropki(width=10, height=10, territory=True, margin=1)
    state = _play(game, ["e4", "f5", "e6", "d5"], ["e5", "a1", "a2"])
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == MARGIN and outcome.scores == (1, 0)


def test_options_survive_a_clone_and_a_replay() -> None:
    game = Kropki(width=10, height=10, penalty=True, territory=True)
    pink = ["e5", *_filler(len(RING))]
    state = _play(game, pink, ["f6", *RING])
    copy = state.clone()
    replayed = game.state_from_history(list(state.history))
    for other_state in (copy, replayed):
        assert isinstance(other_state, KropkiState)
        assert other_state.scores() == state.scores() == (0, 0)
        assert other_state.dot_movers == state.dot_movers
        assert other_state.canonical() == state.canonical()
    assert isinstance(replayed, KropkiState) and replayed.penalties == [0, 0, 1]
