"""Every level of every game plays legal moves, does not blunder in simple
cases, keeps to its time budget, and the bots import without Django."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.bots import LEVELS, RandomPlayer, choose_action, default_budget
from games.engine import get_game

ROOT = Path(__file__).resolve().parents[3]

BOARDS = [
    ("connect4", {}),
    ("dots_and_boxes", {}),
    ("dots_and_boxes", {"rows": 3, "cols": 4}),
    ("kropki", {"width": 10, "height": 10}),
    ("kropki", {"width": 20, "height": 20}),
]


def _random_position(slug: str, params: dict, seed: int):
    rng = random.Random(seed)
    game = get_game(slug, **params)
    state = game.new_initial_state()
    end = game.num_actions - 1 if slug == "kropki" else None
    plies = rng.randrange(0, 40 if slug != "kropki" else 120)
    for _ in range(plies):
        moves = [a for a in state.legal_actions() if a != end]
        if state.is_terminal() or not moves:
            break
        state.apply_action(rng.choice(moves))
        if state.is_terminal():
            return _random_position(slug, params, seed + 1000)
    return state


@pytest.mark.parametrize("slug,params", BOARDS, ids=lambda v: str(v))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_within_budget(slug: str, params: dict, level: str) -> None:
    budget = min(0.2, default_budget(slug, level))
    for seed in range(3):
        state = _random_position(slug, params, seed)
        # The process's CPU time, not the wall clock: the suite shares two cores among several
        # processes, where a move's wall time says more of the machine than of the bot (a bot
        # that computes past its budget still shows here).
        t0 = time.process_time()
        action = choose_action(state, level, seed=seed, budget_s=budget)
        elapsed = time.process_time() - t0
        assert state.is_legal(action), (slug, level, seed, action)
        assert elapsed < budget * 1.5 + 0.3, (slug, level, elapsed)


def test_random_player_plays_legal_moves() -> None:
    state = get_game("connect4").new_initial_state()
    player = RandomPlayer(seed=1)
    while not state.is_terminal():
        state.apply_action(player.choose(state))


@pytest.mark.slow
def test_trudny_keeps_its_default_budget() -> None:
    state = get_game("connect4").state_from_history([3, 3, 2])
    t0 = time.perf_counter()
    choose_action(state, "trudny", seed=0)
    assert time.perf_counter() - t0 < 5.0


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError):
        choose_action(get_game("connect4").new_initial_state(), "mistrz")


# -- simple tactics ------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_connect4_takes_a_win_in_one(level: str) -> None:
    # pink has three in the bottom row (columns 0-2), to move
    state = get_game("connect4").state_from_history([0, 0, 1, 1, 2, 2])
    assert choose_action(state, level, seed=1, budget_s=0.2) == 3


@pytest.mark.parametrize("level", LEVELS)
def test_connect4_blocks_a_loss_in_one(level: str) -> None:
    # blue threatens the vertical four in column 6; pink must block it
    state = get_game("connect4").state_from_history([0, 6, 1, 6, 3, 6])
    wins = choose_action(state, level, seed=1, budget_s=0.2)
    # pink could also win at once with column 2 (0, 1, _, 3): that is better still
    assert wins in (2, 6)
    state = get_game("connect4").state_from_history([0, 6, 1, 6, 5, 6])
    assert choose_action(state, level, seed=1, budget_s=0.2) == 6


@pytest.mark.parametrize("level", LEVELS)
def test_dots_and_boxes_takes_a_free_box(level: str) -> None:
    # box (0, 0) gets three sides: 0 (top), 30 (left), 31 (right); 5 closes it
    game = get_game("dots_and_boxes")
    state = game.state_from_history([0, 59, 30, 29, 31])
    assert state.current_player() == 2
    assert choose_action(state, level, seed=1, budget_s=0.2) == 5


def _kropki_capture_position():
    # pink at (2,1), (1,2), (3,2) around blue's (2,2); pink completes with (2,3)
    game = get_game("kropki", width=10, height=10)
    w = 10
    moves = [1 * w + 2, 2 * w + 2, 2 * w + 1, 7 * w + 7, 2 * w + 3, 8 * w + 8]
    return game.state_from_history(moves), 3 * w + 2


@pytest.mark.parametrize("level", ["sredni", "trudny"])
def test_kropki_completes_a_capture_in_one(level: str) -> None:
    state, capture = _kropki_capture_position()
    check = state.clone()
    check.apply_action(capture)
    assert check.scores() == (1, 0)
    assert choose_action(state, level, seed=1, budget_s=0.3) == capture


def test_kropki_sredni_stops_a_capture_in_one() -> None:
    state, capture = _kropki_capture_position()
    state.apply_action(5 * 10 + 5)  # pink plays elsewhere: blue to move must fill (2,3)
    assert choose_action(state, "sredni", seed=1, budget_s=0.3) == capture


# -- purity --------------------------------------------------------------------

SCRIPT = r"""
import sys
import games.bots
from games.bots import choose_action
from games.engine import get_game
state = get_game("connect4").new_initial_state()
choose_action(state, "sredni", seed=0, budget_s=0.05)
leaked = sorted(n for n in sys.modules if n == "django" or n.startswith("django."))
assert not leaked, leaked
print("ok")
"""


def test_importing_the_bots_keeps_django_out() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
