"""Replay the Cztery w rzędzie reference games (shared/vectors/connect4)."""

from __future__ import annotations

import json
from pathlib import Path

from games.connect4 import engine as connect4_engine
from games.connect4.engine import Connect4, Connect4State
from games.engine import base


def _games(vectors_dir: Path, name: str) -> list[dict]:
    with open(vectors_dir / "connect4" / name) as f:
        games = [json.loads(line) for line in f if line.strip()]
    assert games, name
    return games


def _play(moves: str) -> tuple[Connect4State, list[int], int | None]:
    """Play the digits; return the state, dead counts per ply and the ply at
    which the game ended (None if it never did)."""
    state = Connect4().new_initial_state()
    assert isinstance(state, Connect4State)
    dead_counts, ended_at = [], None
    for ply, digit in enumerate(moves, start=1):
        if state.is_terminal():
            break
        effect = state.apply_action(int(digit) - 1)
        assert effect.details["dead_lines"] == state.dead_count
        dead_counts.append(state.dead_count)
        if state.is_terminal():
            ended_at = ply
    return state, dead_counts, ended_at


def _line_set(lines: list) -> set[frozenset[tuple[int, int]]]:
    return {frozenset(tuple(cell) for cell in line) for line in lines}


def test_random_games_end_at_the_win_with_the_recorded_lines(vectors_dir: Path) -> None:
    games = _games(vectors_dir, "random_games.jsonl")
    assert any(len(g["winning_lines"]) == 2 for g in games)
    for game in games:
        state, dead_counts, ended_at = _play(game["moves"])
        out = state.outcome()
        assert ended_at == game["win_ply"] == game["plies"], game["id"]
        assert out is not None and out.winner == game["winner"], game["id"]
        assert out.reason == connect4_engine.FOUR_IN_A_ROW
        assert state.current_player() is None
        assert _line_set(state.winning_lines) == _line_set(game["winning_lines"]), game["id"]
        assert _line_set(state.view()["winning_lines"]) == _line_set(game["winning_lines"])
        assert dead_counts == game["dead_counts"], game["id"]


def test_all_dead_games_are_drawn_at_the_ply_the_last_line_dies(vectors_dir: Path) -> None:
    games = _games(vectors_dir, "all_dead_random.jsonl")
    for game in games:
        moves = game["moves_to_all_dead"]
        state, dead_counts, ended_at = _play(moves)
        assert len(moves) == game["all_dead_at"]
        assert ended_at == game["all_dead_at"], game["id"]
        assert dead_counts == game["dead_counts"], game["id"]
        out = state.outcome()
        assert out is not None and out.winner is None and out.reason == connect4_engine.NO_LINE_POSSIBLE
        assert state.dead_count == 69 and state.view()["live_lines"] == 0
        assert state.winning_lines == []
        # The game stops there even though the board is not full.
        assert sum(state.heights) < 42
        assert state.illegal_reason(int(game["full_random_continuation"][len(moves)]) - 1) == base.GAME_OVER
