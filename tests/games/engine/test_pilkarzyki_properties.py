"""Properties of random Piłkarzyki games (hypothesis): replay, storage,
refusals, the length of a game and the bounce, whatever the moves."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.base import EngineError, State
from games.pilkarzyki.engine import ERROR_CODES, Pilkarzyki, PilkarzykiState

GAME = Pilkarzyki()
seeds = st.integers(0, 2**32 - 1)


def random_game(seed: int) -> tuple[PilkarzykiState, list[PilkarzykiState]]:
    """Play a random game to its end; return it and a snapshot after every move."""
    rng = random.Random(seed)
    state: PilkarzykiState = GAME.new_initial_state()  # type: ignore[assignment]
    snapshots = [state.clone()]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        snapshots.append(state.clone())
    return state, snapshots


def picture(state: State) -> tuple:
    return (
        json.dumps(state.view(), sort_keys=True),
        str(state),
        list(state.history),
        state.current_player(),
        state.outcome(),
        state.replay_fields(),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_replaying_the_history_gives_the_same_state(seed: int) -> None:
    state, snapshots = random_game(seed)
    for snapshot in (snapshots[len(snapshots) // 2], state):
        assert picture(GAME.state_from_history(snapshot.history)) == picture(snapshot)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, cut=st.floats(0, 1))
def test_to_dict_round_trips(seed: int, cut: float) -> None:
    _, snapshots = random_game(seed)
    state = snapshots[int(cut * (len(snapshots) - 1))]
    data = json.loads(json.dumps(state.to_dict()))
    again = GAME.state_from_dict(data)
    assert again == state and picture(again) == picture(state)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, cut=st.floats(0, 1), tries=st.lists(st.integers(-2, 9), max_size=12))
def test_an_illegal_action_changes_nothing(seed: int, cut: float, tries: list[int]) -> None:
    _, snapshots = random_game(seed)
    state = snapshots[int(cut * (len(snapshots) - 1))]
    for action in tries:
        reason = state.illegal_reason(action)
        if reason is None:
            continue
        assert reason in ERROR_CODES
        before = picture(state)
        try:
            state.apply_action(action)
        except EngineError as error:
            assert error.code == reason
        else:
            raise AssertionError(f"illegal action {action} ({reason}) was applied")
        assert picture(state) == before


@settings(max_examples=60, deadline=None)
@given(seed=seeds)
def test_the_game_ends_within_as_many_actions_as_the_field_has_segments(seed: int) -> None:
    state, _ = random_game(seed)
    assert state.is_terminal()
    assert len(state.history) <= GAME.max_game_length == 316
    # every action used a segment of its own
    segments = {frozenset(((a, b), (c, d))) for a, b, c, d, _ in state.view()["segments"]}
    assert len(segments) == len(state.history)


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_the_turn_passes_exactly_when_there_is_no_bounce(seed: int) -> None:
    rng = random.Random(seed)
    state: PilkarzykiState = GAME.new_initial_state()  # type: ignore[assignment]
    border_points = {(s[0], s[1]) for s in state.view()["border"]} | {(s[2], s[3]) for s in state.view()["border"]}
    touched = set(border_points)  # points with a used segment, seen from the board alone
    while not state.is_terminal():
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        x, y = GAME.step(*state.ball_xy, action)
        bounce = (x, y) in touched
        touched |= {state.ball_xy, (x, y)}
        effect = state.apply_action(action)
        assert effect.details["bounced"] == (bounce and effect.details["goal"] is None)
        if state.is_terminal():
            continue
        assert (state.current_player() == player) == bounce
        assert state.moves_again == bounce
