"""``python -m games.engine replay`` for Piłkarzyki, run as a subprocess as
others will run it (tests/games/engine/test_replay.py does the same for the other
games)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from games.engine import get_game
from games.pilkarzyki.engine import PilkarzykiState

ROOT = Path(__file__).resolve().parents[3]
KEYS = {"ok", "error", "to_move", "scores", "over", "winner", "reason", "ball", "moves_again"}
N, NE, E, SE, S, SW, W, NW = range(8)


def replay(*records: object) -> list[dict]:
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_every_action_reports_the_ball_and_whether_the_mover_moves_again() -> None:
    # pink N, blue E, pink SW back to the start (a bounce), pink W, then a goal
    (game,) = replay({"game": "pilkarzyki", "moves": [N, E, SW, W]})
    after = game["after"]
    assert all(set(a) == KEYS for a in after)
    assert [a["ball"] for a in after] == [[4, 4], [5, 4], [4, 5], [3, 5]]
    assert [a["to_move"] for a in after] == [2, 1, 1, 2]
    assert [a["moves_again"] for a in after] == [False, False, True, False]
    assert all(a["ok"] and a["error"] is None and not a["over"] and a["winner"] is None for a in after)
    assert all(a["scores"] == [0, 0] for a in after)


def test_refusals_show_their_codes_and_change_nothing() -> None:
    moves = [N, N, N, N, NW, W, N, NW, 8, -1, "x", "NE", S]
    (game,) = replay({"game": "pilkarzyki", "moves": moves})
    after = game["after"]
    on_post = after[4]
    assert on_post["ball"] == [3, 0] and on_post["to_move"] == 1 and on_post["moves_again"]
    codes = [a["error"] for a in after[5:10]]
    assert codes == ["segment_drawn", "not_a_goal_entry", "off_board", "unknown_action", "unknown_action"]
    assert after[10]["error"] == "unknown_action"
    for rejected in after[5:11]:
        assert rejected == {**on_post, "ok": False, "error": rejected["error"]}
    goal = after[11]  # "NE" read as a compass name: into the top goal
    assert goal["ok"] and goal["over"] and goal["winner"] == 1 and goal["reason"] == "goal"
    assert goal["ball"] == [4, -1] and goal["to_move"] is None and goal["moves_again"] is False
    assert after[12] == {**goal, "ok": False, "error": "game_over"}


def test_own_goal_and_stuck_ball_endings() -> None:
    own, stuck = replay(
        {"game": "pilkarzyki", "moves": [N, N, N, N, N, N]},
        {"game": "pilkarzyki", "moves": [NW, NW, NW, N, NW]},
    )
    assert own["after"][-1]["winner"] == 1 and own["after"][-1]["reason"] == "own_goal"
    last = stuck["after"][-1]
    assert last["ball"] == [0, 0] and last["winner"] == 2 and last["reason"] == "stuck"


def test_malformed_pilkarzyki_records_get_an_error_line() -> None:
    out = replay(
        {"game": "pilkarzyki", "moves": [[4, 4]]},
        {"game": "pilkarzyki", "moves": "N"},
        {"game": "pilkarzyki", "params": {"width": 9}, "moves": []},
        {"game": "pilkarzyki", "moves": []},
    )
    for bad in out[:3]:
        assert set(bad) == {"error"}
    assert out[3] == {"after": []}


def test_replay_agrees_with_the_engine_on_random_games() -> None:
    game = get_game("pilkarzyki")
    rng = random.Random(7)
    records, states = [], []
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        records.append({"game": "pilkarzyki", "moves": list(state.history)})
        states.append(state)
    for state, got in zip(states, replay(*records), strict=True):
        assert len(got["after"]) == len(state.history) and all(a["ok"] for a in got["after"])
        last, out = got["after"][-1], state.outcome()
        assert out is not None
        assert last["over"] and last["winner"] == out.winner and last["reason"] == out.reason
        assert isinstance(state, PilkarzykiState) and last["ball"] == list(state.ball_xy)
