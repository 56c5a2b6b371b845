"""``python -m games.engine replay`` run as a subprocess, as others will run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import VECTORS

ROOT = Path(__file__).resolve().parents[3]


def replay(*lines: object) -> list[dict]:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == sum(1 for line in lines if not isinstance(line, str) or line.strip())
    return out


KEYS = {"ok", "error", "to_move", "scores", "over", "winner", "reason"}


def test_connect4_game_as_string_and_as_list_give_the_same_states() -> None:
    as_text, as_list = replay(
        {"game": "connect4", "moves": "1212121"}, {"game": "connect4", "moves": [1, 2, 1, 2, 1, 2, 1]}
    )
    assert as_text == as_list
    after = as_text["after"]
    assert len(after) == 7 and all(set(a) >= KEYS for a in after)
    assert [a["to_move"] for a in after] == [2, 1, 2, 1, 2, 1, None]
    assert [a["over"] for a in after] == [False] * 6 + [True]
    assert after[-1]["winner"] == 1 and after[-1]["reason"] == "four_in_a_row"
    assert after[0]["dead_lines"] == 0 and after[1]["dead_lines"] > 0
    assert all(a["scores"] == [0, 0] and a["ok"] and a["error"] is None for a in after)


def test_rejected_move_shows_its_code_and_does_not_pass_the_turn() -> None:
    (game,) = replay({"game": "connect4", "moves": "1111111x82"})
    after = game["after"]
    assert after[5]["ok"] and after[5]["to_move"] == 1
    for rejected, code in ((after[6], "column_full"), (after[7], "unknown_action"), (after[8], "unknown_action")):
        assert rejected["ok"] is False and rejected["error"] == code
        assert rejected["to_move"] == 1 and rejected["dead_lines"] == after[5]["dead_lines"]
    assert after[9]["ok"] and after[9]["to_move"] == 2


def test_kropki_off_board_end_and_solo_play() -> None:
    (game,) = replay(
        {
            "game": "kropki",
            "params": {"width": 5, "height": 5},
            "moves": [[0, 0], [5, 0], [-1, 2], [1, 1], ["end"], [2, 2], [3, 3]],
        }
    )
    after = game["after"]
    assert [a["ok"] for a in after] == [True, False, False, True, True, True, True]
    assert after[1]["error"] == after[2]["error"] == "off_board"
    assert after[1]["to_move"] == 2 and after[1]["grid"] == after[0]["grid"]
    assert after[3]["grid"][0] == "A" and after[3]["grid"][6] == "B"
    # Player 1 ended; player 2 plays on alone.
    assert after[4]["to_move"] == 2 and after[5]["to_move"] == 2 and after[6]["to_move"] == 2
    assert after[6]["grid"][18] == "B" and not after[6]["over"]
    assert all(len(a["grid"]) == 25 for a in after)


def test_kropki_game_over_after_both_end() -> None:
    (game,) = replay({"game": "kropki", "params": {"width": 5, "height": 5}, "moves": [["end"], ["end"], [0, 0]]})
    after = game["after"]
    assert after[1]["over"] and after[1]["winner"] == 0 and after[1]["to_move"] is None
    assert after[2] == {**after[1], "ok": False, "error": "game_over"}


def test_dots_and_boxes_extra_move_and_boxes_field() -> None:
    (game,) = replay({"game": "dots_and_boxes", "params": {"rows": 5, "cols": 5}, "moves": [0, 5, 30, 31, 31, 60, 59]})
    after = game["after"]
    assert [a["to_move"] for a in after] == [2, 1, 2, 2, 2, 2, 1]
    assert after[3]["scores"] == [0, 1] and after[3]["boxes"] == "2" + "." * 24
    assert after[4]["ok"] is False and after[4]["error"] == "segment_drawn"
    assert after[5]["ok"] is False and after[5]["error"] == "unknown_action"
    assert all(len(a["boxes"]) == 25 for a in after)


def test_bad_lines_get_one_error_line_each_and_the_command_carries_on() -> None:
    good = {"game": "connect4", "moves": "44"}
    out = replay(
        "this is not json",
        good,
        {"game": "chess", "moves": []},
        {"game": "dots_and_boxes", "params": {"rows": 0, "cols": 5}, "moves": []},
        {"game": "kropki", "params": {"width": 10, "height": 10, "colour": "red"}, "moves": []},
        {"game": "kropki", "params": {"width": 10, "height": 10}, "moves": [[1, 2, 3]]},
        {"game": "kropki", "params": {"width": 10, "height": 10}, "moves": [["pass"]]},
        {"game": "connect4", "moves": [[4]]},
        {"game": "dots_and_boxes", "moves": ["a1-b1"]},
        {"game": "connect4", "moves": 4},
        "[1, 2]",
        "",
        good,
    )
    assert len(out) == 12
    assert out[1] == out[11] and len(out[1]["after"]) == 2
    for i in (0, 2, 3, 4, 5, 6, 7, 8, 9, 10):
        assert set(out[i]) == {"error"} and isinstance(out[i]["error"], str), out[i]
    assert "JSON" in out[0]["error"] and "chess" in out[2]["error"]


def test_replay_agrees_with_the_engine_on_a_random_game_of_each_kind() -> None:
    import random

    from games.engine import get_game
    from games.kropki.engine import Kropki

    rng = random.Random(1)
    records, states = [], []
    for slug, params in (
        ("kropki", {"width": 7, "height": 6}),
        ("connect4", {}),
        ("dots_and_boxes", {"rows": 2, "cols": 3, "majority_end": True}),
    ):
        game = get_game(slug, **params)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if slug == "kropki":
            assert isinstance(game, Kropki)
            moves: list | str = [["end"] if a == game.end_action else list(game.xy(a)) for a in state.history]
        elif slug == "connect4":
            moves = "".join(str(a + 1) for a in state.history)
        else:
            moves = list(state.history)
        records.append({"game": slug, "params": params, "moves": moves})
        states.append(state)
    for state, got in zip(states, replay(*records), strict=True):
        last = got["after"][-1]
        out = state.outcome()
        assert out is not None
        assert len(got["after"]) == len(state.history)
        assert last["over"] and last["winner"] == (out.winner or 0) and last["reason"] == out.reason
        assert last["scores"] == list(state.scores())
        for key, value in state.replay_fields().items():
            assert last[key] == value


def test_replay_plays_dots_and_boxes_records_past_the_majority_by_default() -> None:
    """Records from other programs go on after 13 boxes; the replay follows
    them unless asked for the site's majority end."""
    import json

    path = VECTORS / "dots_and_boxes" / "endgames_5x5.jsonl"
    past = next(r for r in map(json.loads, path.open()) if max(r["score"]) > 13)
    full, site = replay(
        {"game": "dots_and_boxes", "params": {"rows": 5, "cols": 5}, "moves": past["moves"]},
        {"game": "dots_and_boxes", "params": {"rows": 5, "cols": 5, "majority_end": True}, "moves": past["moves"]},
    )
    assert all(a["ok"] for a in full["after"]) and full["after"][-1]["scores"] == past["score"]
    assert site["after"][-1]["error"] == "game_over"
