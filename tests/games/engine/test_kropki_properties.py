"""Properties of random Kropki games (hypothesis): what the board shows and
what the state says always agree, whatever the size and the moves."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import base
from games.engine.base import EngineError
from games.kropki import engine as kropki_engine
from games.kropki.engine import Kropki, KropkiState

sizes = st.tuples(st.integers(5, 14), st.integers(5, 12)) | st.sampled_from([(39, 32), (20, 20)])


def random_game(width: int, height: int, seed: int, end_chance: float) -> tuple[KropkiState, list[KropkiState]]:
    """Play a random game to its end; return it and a snapshot after every move."""
    rng = random.Random(seed)
    game = Kropki(width=width, height=height)
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    snapshots = [state.clone()]
    while not state.is_terminal():
        actions = state.legal_actions()
        dots = actions[:-1]
        action = game.end_action if not dots or rng.random() < end_chance else rng.choice(dots)
        state.apply_action(action)
        snapshots.append(state.clone())
        assert len(state.history) <= game.max_game_length
    return state, snapshots


def check_position(state: KropkiState) -> None:
    game = state.game
    grid = state.grid()
    width, height = game.width, game.height
    s1, s2 = state.scores()
    assert (s1, s2) == (grid.count("b"), grid.count("a")), "scores are the captured dots shown"
    for x in range(width):
        for y in (0, height - 1):
            assert grid[y * width + x] in ".AB"
    for y in range(height):
        for x in (0, width - 1):
            assert grid[y * width + x] in ".AB", "edge points are never inside anything"
    free = [a for a, char in enumerate(grid) if char in ".xy"]
    assert state.free_points() == len(free)
    legal = state.legal_actions()
    assert legal == sorted(legal)
    if state.is_terminal():
        assert state.current_player() is None and legal == []
        outcome = state.outcome()
        assert outcome is not None and outcome.scores == (s1, s2)
        assert outcome.winner == (1 if s1 > s2 else 2 if s2 > s1 else None)
    else:
        assert state.current_player() in (1, 2)
        assert legal == [*free, game.end_action]
    for chain in state.view()["chains"]:
        points = chain["chain"]
        for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
            assert max(abs(x1 - x2), abs(y1 - y2)) == 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=sizes, seed=st.integers(0, 2**32 - 1), end_chance=st.sampled_from([0.0, 0.01, 0.05]))
def test_random_games_keep_board_and_state_in_agreement(size: tuple[int, int], seed: int, end_chance: float) -> None:
    state, snapshots = random_game(size[0], size[1], seed, end_chance)
    previous = None
    for snapshot in snapshots:
        check_position(snapshot)
        grid = snapshot.grid()
        if previous is not None:
            for before, after in zip(previous, grid, strict=True):
                if before not in ".xy":
                    assert after not in ".xy", "a point once taken never returns to play"
                if before in "12":
                    assert after in "12", "territory stays territory (its owner may change)"
        previous = grid
    replayed = state.game.state_from_history(state.history)
    assert isinstance(replayed, KropkiState)
    assert replayed.grid() == state.grid() and replayed.scores() == state.scores()
    assert replayed.view() == state.view()
    assert state.game.state_from_dict(state.to_dict()) == state
    assert replayed.outcome() == state.outcome()


@settings(max_examples=30, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32 - 1), tries=st.lists(st.integers(-3, 45 * 35), max_size=30))
def test_illegal_actions_never_change_the_state(size: tuple[int, int], seed: int, tries: list[int]) -> None:
    _state, snapshots = random_game(size[0], size[1], seed, 0.0)
    middle = snapshots[len(snapshots) // 2]
    for action in tries:
        reason = middle.illegal_reason(action)
        if reason is None:
            continue
        before = (middle.grid(), list(middle.history), middle.current_player(), middle.scores(), middle.free_points())
        try:
            middle.apply_action(action)
        except EngineError as error:
            assert error.code == reason
        else:
            raise AssertionError(f"illegal action {action} ({reason}) was applied")
        after = (middle.grid(), list(middle.history), middle.current_player(), middle.scores(), middle.free_points())
        assert after == before
        assert reason in (base.OCCUPIED, kropki_engine.INSIDE_TERRITORY, base.UNKNOWN_ACTION, base.GAME_OVER)


@settings(max_examples=25, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_clone_plays_on_independently(size: tuple[int, int], seed: int, cut: float) -> None:
    _, snapshots = random_game(size[0], size[1], seed, 0.02)
    state = snapshots[int(cut * (len(snapshots) - 1))]
    copy = state.clone()
    before = (state.grid(), list(state.history), state.view())
    rng = random.Random(seed)
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert (state.grid(), list(state.history), state.view()) == before
