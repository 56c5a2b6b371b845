"""Each game's puzzle finder (games/<slug>/puzzles.py; docs/puzzles.md) on positions made by
hand or cut from seeded self-play, and the judge (games.bots.puzzles.judge) of a try: the
solution solves, another move fails, an as-good last move is accepted. No database."""

from __future__ import annotations

import itertools
import random

import pytest

from games.bots.puzzles import Cut, cut, judge
from games.connect4 import puzzles as c4_puzzles
from games.connect4 import solver
from games.dots_and_boxes import bot as dab_bot
from games.dots_and_boxes import puzzles as dab_puzzles
from games.engine import get_game
from games.kropki import puzzles as kropki_puzzles
from games.kropki.engine import Kropki
from games.pilkarzyki import puzzles as pilkarzyki_puzzles

KROPKI = Kropki(width=10, height=10)


def kropki_moves(*points: tuple[int, int]) -> list[int]:
    return [KROPKI.action_for(x, y) for x, y in points]


# Pink walls two blue dots in from three sides (plies 0-8); blue plays far away once.
WALL = kropki_moves((3, 4), (4, 4), (6, 4), (5, 4), (4, 3), (0, 9), (5, 3), (9, 9), (4, 5))
CLOSE = KROPKI.action_for(5, 5)  # pink's (or blue's) point that decides the two dots


def random_game(game, seed: int) -> list[int]:
    """The moves of one game of random moves."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return list(state.history)


def no_keeps(game, state, action):
    raise AssertionError("this puzzle lists its moves")


def test_kropki_capture_the_one_move_that_takes_two_dots():
    state = KROPKI.state_from_history([*WALL, KROPKI.action_for(9, 0)])  # blue elsewhere: pink to move
    found = kropki_puzzles.find(KROPKI, state)
    assert found == Cut("capture", [CLOSE], [[CLOSE]])
    assert judge(KROPKI, state, found, [CLOSE], no_keeps)[0] == "solved"
    assert judge(KROPKI, state, found, [KROPKI.action_for(7, 7)], no_keeps)[0] == "failed"
    assert judge(KROPKI, state, found, [], no_keeps)[0] == "going"
    after = judge(KROPKI, state, found, [CLOSE], no_keeps)[1]
    assert after.scores() == (2, 0) and state.scores() == (0, 0)  # the start is left as it was


def test_kropki_save_the_one_move_that_leaves_no_capture():
    state = KROPKI.state_from_history(WALL)  # blue to move, two dots threatened by (5,5)
    found = kropki_puzzles.find(KROPKI, state)
    assert found == Cut("save", [CLOSE], [[CLOSE]])
    assert judge(KROPKI, state, found, [KROPKI.action_for(0, 0)], no_keeps)[0] == "failed"


def test_kropki_no_puzzle_without_a_clear_capture_or_with_options():
    assert kropki_puzzles.find(KROPKI, KROPKI.state_from_history(WALL[:4])) is None
    with_margin = get_game("kropki", width=10, height=10, margin=15)
    assert kropki_puzzles.find(with_margin, with_margin.state_from_history([*WALL, KROPKI.action_for(9, 0)])) is None


C4 = get_game("connect4")
# Positions of seeded random games where the finder found these (checked below by the solver).
WIN_2 = [4, 3, 6, 2, 2, 2, 1, 6, 5, 5, 4, 5, 2, 0, 0, 1, 3]  # blue: 3, then 3 or 4 makes four
WIN_3 = [4, 3, 6, 2, 2, 2, 1, 6, 5, 5, 4, 5, 2]
ONLY = [1, 4, 6, 6, 6, 0, 2, 0, 3, 6, 3]
# The Cztery w rzędzie finder's BUDGET_S is the background job's wall-clock limit; these tests
# check what it finds and give it none (a loaded CI run, four processes on two cores, timed one out).


@pytest.mark.parametrize(("history", "n"), [(WIN_2, 2), (WIN_3, 3)])
def test_connect4_win_in_n_unique_at_each_move_and_any_four_at_the_last(history, n):
    state = C4.state_from_history(history)
    found = c4_puzzles.find(C4, state, budget_s=None)
    assert found is not None and found.theme == f"win_{n}" and found.goal == "win"
    assert solver.solve(history).own_moves == n
    mover_moves = found.line[0::2]
    assert len(mover_moves) == n and found.accept is not None
    # every move of the line but the last is the only winning column; the replies defend longest
    replayed = list(history)
    for i, column in enumerate(found.line[:-1]):
        if i % 2 == 0:
            assert [c for c, v in solver.move_values(replayed).items() if v.result == "win"] == [column]
        else:
            assert column in solver.best_moves(replayed)[1]
        replayed.append(column)
    assert judge(C4, state, found, mover_moves, no_keeps)[0] == "solved"
    for other in found.accept[-1] or ():  # the last move: any column that makes four
        assert judge(C4, state, found, [*mover_moves[:-1], other], no_keeps)[0] == "solved"
    wrong = next(c for c in state.legal_actions() if c != found.line[0])
    assert judge(C4, state, found, [wrong], no_keeps)[0] == "failed"
    assert judge(C4, state, found, mover_moves[:1], no_keeps)[0] == "going"


def test_connect4_two_fours_at_the_last_move_are_both_accepted():
    found = c4_puzzles.find(C4, C4.state_from_history(WIN_2), budget_s=None)
    assert found is not None and found.accept is not None and found.accept[-1] == [3, 4]


def test_connect4_only_move_keeps_the_result_and_is_no_plain_block():
    state = C4.state_from_history(ONLY)
    found = c4_puzzles.find(C4, state, budget_s=None)
    assert found is not None and found.theme == "only_move" and found.line == [3]
    results = {c: v.result for c, v in solver.move_values(ONLY).items()}
    assert results[3] != "loss" and all(r == "loss" for c, r in results.items() if c != 3)
    assert not c4_puzzles._threatened(state)
    assert judge(C4, state, found, [3], no_keeps)[0] == "solved"


def test_dots_and_boxes_the_chain_move_is_two_boxes_better_than_any_other():
    game = get_game("dots_and_boxes", rows=3, cols=3)
    checked = 0
    for seed in itertools.count():
        actions = random_game(game, seed)
        for found in cut(game, actions, dab_puzzles):
            start = game.state_from_history(actions[: found.ply])
            geo, drawn = dab_bot._drawn_of(start)
            solver_ = dab_bot.Solver(geo, float("inf"))
            _value, optimal = solver_.best_moves(drawn)
            assert found.accept == [sorted(optimal)] and found.line[0] in optimal
            assert not any(dab_bot.completes(geo, drawn, s) for s in optimal)
            assert judge(game, start, found, found.line, no_keeps)[0] == "solved"
            worse = next(s for s in dab_bot.undrawn(geo, drawn) if s not in optimal)
            assert judge(game, start, found, [worse], no_keeps)[0] == "failed"
            checked += 1
        if checked >= 3 or seed > 200:
            break
    assert checked >= 3


def test_pilkarzyki_goal_in_one_turn_any_path_that_scores():
    game = get_game("pilkarzyki")
    for seed in range(400):
        actions = random_game(game, seed)
        for found in cut(game, actions, pilkarzyki_puzzles):
            start = game.state_from_history(actions[: found.ply])
            keeps = pilkarzyki_puzzles.keeps
            status, after, _ = judge(game, start, found, found.line, keeps)
            assert status == "solved" and after.outcome().reason == "goal"
            assert after.outcome().winner == start.current_player()
            assert len(found.line) >= 2 and found.accept is None and found.goal == "win"
            losing = [a for a in start.legal_actions() if not keeps(game, start, a)]
            assert losing, "a puzzle has moves that miss the goal"
            assert judge(game, start, found, [losing[0]], keeps)[0] == "failed"
            return
    pytest.fail("no goal puzzle in 400 random games")
