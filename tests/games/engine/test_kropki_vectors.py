"""Replay every Kropki reference game (shared/vectors/kropki, made by the
community engine pointsgame/oppai-rs) and agree on everything it recorded:
whether each try was accepted, both scores and the whole grid after every move.

The vectors are found next to the repository (``../shared/vectors/kropki``);
``$KROPKI_VECTORS_DIR`` points at another copy.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

from games.engine import base
from games.engine.base import EngineError
from games.kropki import engine as kropki_engine
from games.kropki.engine import Kropki, KropkiState
from tests.helpers import VECTORS

EXPECTED_GAMES = {"cases.jsonl": 19, "random_10x10.jsonl.gz": 300, "random_20x20.jsonl.gz": 100}


def kropki_vectors_dir() -> Path:
    override = os.environ.get("KROPKI_VECTORS_DIR")
    if override:
        return Path(override)
    return VECTORS / "kropki"


def load_games(name: str) -> list[dict[str, Any]]:
    path = kropki_vectors_dir() / name
    assert path.is_file(), f"Kropki vectors not found at {path} (set KROPKI_VECTORS_DIR)"
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def expected_rejection(grid: str, width: int, height: int, x: int, y: int) -> str | None:
    """The error code a try at (x, y) must get on the board ``grid``."""
    if not (0 <= x < width and 0 <= y < height):
        return base.OFF_BOARD
    char = grid[y * width + x]
    if char in "AaBb":
        return base.OCCUPIED
    if char in "12":
        return kropki_engine.INSIDE_TERRITORY
    return None


def check_details(
    before: str, after: str, width: int, player: int, details: dict[str, Any], state: KropkiState
) -> None:
    """What ``_apply`` reports agrees with how the grid changed (the new dot
    counts as a live dot of the mover before the enclosures are resolved)."""
    placed = details["y"] * width + details["x"]
    mover = "A" if player == 1 else "B"
    before = before[:placed] + mover + before[placed + 1 :]
    newly_captured = {
        (i % width, i // width) for i, (b, a) in enumerate(zip(before, after, strict=True)) if b in "AB" and a in "ab"
    }
    freed = {
        (i % width, i // width) for i, (b, a) in enumerate(zip(before, after, strict=True)) if b in "ab" and a in "AB"
    }
    new_ground = {
        (i % width, i // width, int(a))
        for i, (b, a) in enumerate(zip(before, after, strict=True))
        if a in "12" and b != a
    }
    reported_captured = {tuple(p) for t in details["territories"] for p in t["captured"]}
    reported_freed = {tuple(p) for t in details["territories"] for p in t["freed"]}
    reported_ground = {(x, y, t["owner"]) for t in details["territories"] for x, y in t["points"]}
    assert reported_captured == newly_captured
    assert reported_freed == freed
    assert reported_ground == new_ground
    for territory in details["territories"]:
        chain = territory["chain"]
        owner = territory["owner"]
        assert len(chain) >= 4, chain
        for (x1, y1), (x2, y2) in zip(chain, chain[1:] + chain[:1], strict=True):
            assert max(abs(x1 - x2), abs(y1 - y2)) == 1, chain
        live = "A" if owner == 1 else "B"
        assert all(after[y * width + x] == live for x, y in chain), chain
        assert len({tuple(p) for p in chain}) == len(chain)
    if details["taken"]:
        x, y = details["x"], details["y"]
        assert after[y * width + x] in "ab"
    if details["territories"]:
        assert state.view()["territory"] == "".join("1" if c in "1b" else "2" if c in "2a" else "0" for c in after)


def replay(game_record: dict[str, Any]) -> list[str]:
    """Replay one game; return the list of disagreements (empty = agrees)."""
    width, height = game_record["w"], game_record["h"]
    game = Kropki(width=width, height=height)
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    grid = state.grid()
    assert grid == "." * (width * height)
    problems: list[str] = []
    for ply, ((x, y, player), want) in enumerate(zip(game_record["moves"], game_record["after"], strict=True)):
        where = f"ply {ply} {player}@({x},{y})"
        if state.current_player() != player:
            problems.append(f"{where}: we have {state.current_player()} to move")
            break
        reason = expected_rejection(grid, width, height, x, y)
        history = list(state.history)
        code: str | None  # an EngineError's code, None when accepted
        try:
            effect = state.apply_action(game.action_for(x, y))
        except EngineError as error:
            accepted, code = False, error.code
        else:
            accepted, code = True, None
        if accepted != want["ok"]:
            problems.append(f"{where}: accepted={accepted}, vectors say {want['ok']}")
            break
        if accepted:
            check_details(grid, state.grid(), width, player, effect.details, state)
        else:
            if code != reason or code not in (base.OCCUPIED, kropki_engine.INSIDE_TERRITORY, base.OFF_BOARD):
                problems.append(f"{where}: rejected with {code}, expected {reason}")
            if state.history != history or state.grid() != grid or state.current_player() != player:
                problems.append(f"{where}: a rejected try changed the state")
        grid = state.grid()
        if list(state.scores()) != want["scores"]:
            problems.append(f"{where}: scores {state.scores()} != {want['scores']}")
        if grid != want["grid"]:
            problems.append(f"{where}: grid differs\nours   {grid}\ntheirs {want['grid']}")
        if state.scores() != (grid.count("b"), grid.count("a")):
            problems.append(f"{where}: scores {state.scores()} do not match the captured dots on the grid")
        if problems:
            break
    return problems


@pytest.mark.parametrize("name", sorted(EXPECTED_GAMES))
def test_every_vector_game_agrees_move_by_move(name: str) -> None:
    games = load_games(name)
    assert len(games) == EXPECTED_GAMES[name]
    failures = {}
    for index, record in enumerate(games):
        problems = replay(record)
        if problems:
            failures[record.get("name", index)] = problems[0]
    agreed = len(games) - len(failures)
    print(f"{name}: {agreed}/{len(games)} games agree")
    assert not failures, f"{agreed}/{len(games)} agree; first failures: {dict(list(failures.items())[:3])}"


def test_random_vector_games_end_with_no_free_point() -> None:
    """The random replays play until no free point is left: our game is then
    over, with the recorded scores deciding the winner."""
    for name in ("random_10x10.jsonl.gz", "random_20x20.jsonl.gz"):
        for record in load_games(name)[:20]:
            game = Kropki(width=record["w"], height=record["h"])
            state = game.new_initial_state()
            assert isinstance(state, KropkiState)
            for (x, y, _player), want in zip(record["moves"], record["after"], strict=True):
                if want["ok"]:
                    state.apply_action(game.action_for(x, y))
            last = record["after"][-1]
            assert "." not in last["grid"] and "x" not in last["grid"] and "y" not in last["grid"]
            assert state.free_points() == 0
            assert state.is_terminal()
            outcome = state.outcome()
            assert outcome is not None
            s1, s2 = last["scores"]
            assert outcome.scores == (s1, s2)
            assert outcome.winner == (1 if s1 > s2 else 2 if s2 > s1 else None)
            assert outcome.reason == kropki_engine.SCORE
