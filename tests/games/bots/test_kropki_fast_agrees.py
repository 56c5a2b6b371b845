"""The compiled Kropki board (games/kropki/fast.c) plays exactly the
rules of the pure-Python engine, the reference: random games, replayed
through both, give identical point bytes (dots, owners, captured points,
territory, empty enclosures), free-point counts and scores after every move.

Fails when the extension is missing (``scripts/setup.sh`` builds it)."""

from __future__ import annotations

import random

import pytest

from games.engine import get_game
from games.kropki import fast_ext
from games.kropki.engine import Kropki, KropkiState

ffi, lib = fast_ext.ffi, fast_ext.lib


def _random_game(width: int, height: int, seed: int, style: str) -> tuple[int, int]:
    """Play one random game in the engine, mirror each move in C, compare."""
    rng = random.Random(seed)
    game = get_game("kropki", width=width, height=height)
    assert isinstance(game, Kropki)
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    size = lib.kf_board_size(width, height)
    assert size == len(state.points)
    points = ffi.new("unsigned char[]", bytes(state.points))
    counters = ffi.new("int[3]", [state.free, 0, 0])
    recent: list[int] = []
    captures = empties = 0
    end = game.end_action
    while not state.is_terminal():
        legal = [a for a in state.legal_actions() if a != end]
        if not legal:
            break
        action = -1
        if style == "local" and recent and rng.random() < 0.85:
            # near the recent dots: closes chains, makes captures and empty rings
            base = rng.choice(recent[-4:])
            x, y = base % width + rng.randint(-2, 2), base // width + rng.randint(-2, 2)
            if 0 <= x < width and 0 <= y < height and state.is_legal(y * width + x) and y * width + x != end:
                action = y * width + x
        if action < 0:
            action = rng.choice(legal)
        player = state.current_player()
        before = state.scores()
        state.apply_action(action)
        taken = lib.kf_place(width, height, points, counters, game.pos_of_action[action], player)
        assert taken in (0, 1)
        assert ffi.buffer(points, size)[:] == bytes(state.points), (seed, len(state.history))
        assert (counters[0], counters[2], counters[1]) == (state.free, *state.scores()), (seed, len(state.history))
        captures += state.scores() != before
        empties += any(cell & 16 for cell in state.points)
        recent.append(action)
    return captures, empties


@pytest.mark.parametrize("width,height,games", [(10, 10, 60), (20, 20, 12), (7, 13, 20)])
def test_random_games_give_identical_boards(width: int, height: int, games: int) -> None:
    captures = empties = 0
    for seed in range(games):
        c, e = _random_game(width, height, seed, "local" if seed % 3 else "uniform")
        captures += c
        empties += e
    # the games did reach the interesting cases
    assert captures > games
    assert empties > 0


@pytest.mark.slow
@pytest.mark.parametrize("width,height", [(10, 10), (20, 20), (39, 32)])
def test_many_random_games_give_identical_boards(width: int, height: int) -> None:
    for seed in range(1000, 1000 + (300 if width == 10 else 40)):
        _random_game(width, height, seed, "local" if seed % 3 else "uniform")
