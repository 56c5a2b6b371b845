"""Piłkarzyki's computer levels: legal moves, goals taken, goals not given
away, a stuck ball avoided, whole turns played through, a full game in time.
Checked against the engine alone (turns enumerated with clones)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from games.bots import LEVELS, choose_action, default_budget
from games.engine import State, get_game
from games.pilkarzyki import bot
from games.pilkarzyki.bot_board import Board

N, NE, E, SE, S, SW, W, NW = range(8)
GAME = get_game("pilkarzyki")


def position(*actions: int) -> State:
    return GAME.state_from_history(actions)


def turn_ends(state: State) -> Iterator[State]:
    """Every position where a turn of the player to move can end (the turn
    passed or the game is over), by the engine alone."""
    player = state.current_player()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal() or child.current_player() != player:
            yield child
        else:
            yield from turn_ends(child)


def can_score_this_turn(state: State) -> bool:
    player = state.current_player()
    return any((out := end.outcome()) is not None and out.winner == player for end in turn_ends(state))


def play_turn(state: State, level: str, budget: float = 0.3) -> State:
    """Let ``level`` play the whole turn of the player to move."""
    player = state.current_player()
    state = state.clone()
    while state.current_player() == player:
        action = choose_action(state, level, seed=len(state.history), budget_s=budget)
        assert state.is_legal(action)
        state.apply_action(action)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_takes_a_goal_in_one_step(level: str) -> None:
    state = position(N, N, N, N, NW)  # pink on the left post, moving again
    assert choose_action(state, level, seed=1, budget_s=0.2) == NE


@pytest.mark.parametrize("level", ["sredni", "trudny"])
def test_a_goal_behind_a_bounce_is_one_decision_and_is_taken(level: str) -> None:
    state = position(N, N, N, N)  # pink on (4, 1): via a post, then the goal
    end = play_turn(state, level)
    assert (out := end.outcome()) is not None and out.winner == 1 and len(end.history) == 6


def test_trudny_does_not_leave_the_opponent_a_goal() -> None:
    # pink on (4, 9) in front of its own goal: S hands blue the goal mouth
    state = position(S, S, S, S)
    ends = [e for e in turn_ends(state) if e.outcome() is None]
    unsafe = [e for e in ends if can_score_this_turn(e)]
    assert unsafe and len(unsafe) < len(ends)
    end = play_turn(state, "trudny", budget=0.5)
    assert end.outcome() is None and not can_score_this_turn(end)


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_walks_into_a_stuck_corner(level: str) -> None:
    state = position(NW, NW, NW, N)  # pink on (1, 1): NW into (0, 0) is stuck
    for seed in range(5):
        assert choose_action(state, level, seed=seed, budget_s=0.2) != NW


def _random_position(seed: int) -> State:
    rng = random.Random(seed)
    while True:
        state = GAME.new_initial_state()
        for _ in range(rng.randrange(0, 80)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_actions_within_its_budget(level: str) -> None:
    budget = min(0.2, default_budget("pilkarzyki", level))
    for seed in range(6):
        state = _random_position(seed)
        t0 = time.perf_counter()
        action = choose_action(state, level, seed=seed, budget_s=budget)
        assert state.is_legal(action), (level, seed, action)
        assert time.perf_counter() - t0 < budget * 1.5 + 0.3


def test_trudny_plays_a_full_game_against_latwy_and_wins() -> None:
    state = GAME.new_initial_state()
    labels = {1: "trudny", 2: "latwy"}
    started = time.perf_counter()
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        action = choose_action(state, labels[player], seed=len(state.history), budget_s=0.1)
        assert state.is_legal(action)
        state.apply_action(action)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 1
    assert time.perf_counter() - started < 30


def test_trudny_search_leaves_its_board_as_it_found_it() -> None:
    history = [N, E, SW, W, NW, N, N]
    board = Board.from_history(history)
    before = (bytes(board.used), board.ball, board.to_move, board.zobrist)
    path = bot.choose_trudny(board, 0.3, random.Random(0))
    assert path and bot.LAST_SEARCH.get("depth", 0) >= 1
    assert (bytes(board.used), board.ball, board.to_move, board.zobrist) == before
    state = GAME.state_from_history(history)
    for action in path:  # the whole turn is legal, and it ends the turn
        assert state.current_player() == board.to_move
        state.apply_action(action)
    assert state.is_terminal() or state.current_player() != board.to_move
