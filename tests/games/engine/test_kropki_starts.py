"""Kropki's starting positions (SPEC.md "Kropki: options"): the dots oppai-rs's
InitialPosition places, pink (its first player) still to move, kept by every way a
state is made, written into the SGF export; the boards up to 40×40 played by the
compiled search within its budget."""

from __future__ import annotations

import random
import time

import pytest

from games.engine import get_game
from games.kropki import bot as kropki_bot
from games.kropki.engine import Kropki, KropkiState
from games.kropki.spec import sgf_moves

# Written out from oppai-rs's InitialPosition (w2 = width / 2, h2 = height / 2; its first
# player as 1): (x, y, player) on the board, for the boards the site and the clubs use.
EXPECTED = {
    ("cross", 39, 32): {(18, 15, 1), (18, 16, 2), (19, 16, 1), (19, 15, 2)},
    ("cross", 10, 10): {(4, 4, 1), (4, 5, 2), (5, 5, 1), (5, 4, 2)},
    ("two_crosses", 20, 20): {
        (8, 9, 1),
        (8, 10, 2),
        (9, 10, 1),
        (9, 9, 2),
        (10, 10, 1),
        (10, 9, 2),
        (11, 9, 1),
        (11, 10, 2),
    },
    ("triple_cross", 30, 30): {
        (14, 14, 1),
        (14, 15, 2),
        (15, 15, 1),
        (15, 14, 2),
        (16, 14, 1),
        (15, 13, 2),
        (15, 16, 1),
        (16, 15, 2),
    },
}


def _dots(state) -> set[tuple[int, int, int]]:
    return {(x, y, player) for x, y, player, _captured in state.view()["dots"]}


@pytest.mark.parametrize(("start", "width", "height"), list(EXPECTED))
def test_a_start_places_oppais_dots_and_pink_moves_first(start: str, width: int, height: int) -> None:
    game = Kropki(width=width, height=height, start=start)
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    assert _dots(state) == EXPECTED[start, width, height]
    assert state.current_player() == 1 and state.history == [] and state.scores() == (0, 0)
    assert state.free == width * height - len(EXPECTED[start, width, height])
    taken = [game.action_for(x, y) for x, y, _ in EXPECTED[start, width, height]]
    assert not any(state.is_legal(a) for a in taken)


def test_the_empty_start_is_left_out_of_the_parameters_so_older_games_keep_theirs() -> None:
    assert Kropki(width=10, height=10, start="empty").params == {"width": 10, "height": 10}
    assert Kropki(width=39, height=32, start="cross").params == {"width": 39, "height": 32, "start": "cross"}
    assert _dots(Kropki(width=10, height=10).new_initial_state()) == set()


def test_a_replay_and_a_clone_keep_the_start() -> None:
    game = Kropki(width=39, height=32, start="cross")
    history = [game.action_for(17, 15), game.action_for(20, 16), game.action_for(18, 17)]
    state = game.state_from_history(history)
    cross = EXPECTED["cross", 39, 32]
    assert cross <= _dots(state) and len(_dots(state)) == 7
    assert _dots(state.clone()) == _dots(state)
    assert state.current_player() == 2


def test_a_cross_can_be_captured_like_any_dots() -> None:
    # blue's (19,15) of the cross has pink's (18,15) and (19,16) beside it: (19,14) and (20,15) close the ring
    game = Kropki(width=39, height=32, start="cross")
    state = game.state_from_history([game.action_for(19, 14), game.action_for(0, 0)])
    assert state.scores() == (0, 0)
    state.apply_action(game.action_for(20, 15))
    assert state.scores() == (1, 0)


def test_the_sgf_export_sets_the_start_up_with_ab_and_aw() -> None:
    game = Kropki(width=39, height=32, start="cross")
    props, nodes = sgf_moves(game, [game.action_for(0, 0)])
    assert props["SZ"] == "39:32"
    assert sorted(props["AB"]) == ["sp", "tq"] and sorted(props["AW"]) == ["sq", "tp"]
    assert nodes == [";B[aa]"]
    props, _ = sgf_moves(get_game("kropki", width=10, height=10), [])
    assert "AB" not in props and "AW" not in props


@pytest.mark.parametrize(
    "params", [{"width": 40, "height": 40}, {"width": 39, "height": 32, "start": "cross"}, {"width": 30, "height": 30}]
)
def test_trudny_plays_the_large_boards_within_its_budget(params: dict) -> None:
    rng = random.Random(5)
    state = get_game("kropki", **params).new_initial_state()
    for _ in range(6):
        t0 = time.perf_counter()
        action = kropki_bot.choose(state, "trudny", rng, 0.2)
        assert time.perf_counter() - t0 < 1.0
        assert state.is_legal(action) and action != state.game.end_action
        state.apply_action(action)
