"""Replay the Kropki i kwadraty end-game positions (shared/vectors/dots_and_boxes)."""

from __future__ import annotations

import json
from pathlib import Path

from games.dots_and_boxes import engine as dab_engine
from games.dots_and_boxes.engine import DotsAndBoxes


def _positions(vectors_dir: Path) -> list[dict]:
    with open(vectors_dir / "dots_and_boxes" / "endgames_5x5.jsonl") as f:
        positions = [json.loads(line) for line in f if line.strip()]
    assert len(positions) == 220
    return positions


def test_standard_rules_replay_reaches_the_recorded_score_and_player_to_move(vectors_dir: Path) -> None:
    """Played to the last segment (no early end), as the solver's rules."""
    game = DotsAndBoxes(rows=5, cols=5, majority_end=False)
    for pos in _positions(vectors_dir):
        state = game.state_from_history(pos["moves"])
        assert list(state.scores()) == pos["score"], pos["id"]
        assert state.current_player() == pos["to_move"], pos["id"]
        assert sorted(state.legal_actions()) == sorted(pos["remaining"]), pos["id"]
        assert state.replay_fields()["boxes"].count("1") == pos["score"][0]


def test_site_rules_replay_agrees_until_a_majority_ends_the_game(vectors_dir: Path) -> None:
    """With the site's early end the recorded score and mover are reached
    unless someone passed 12 boxes on the way; then the game ended at the
    13th box, in favour of the player who leads in the recorded position."""
    game = DotsAndBoxes()
    ended_early = 0
    for pos in _positions(vectors_dir):
        state = game.new_initial_state()
        for segment in pos["moves"]:
            if state.is_terminal():
                break
            state.apply_action(segment)
        out = state.outcome()
        if max(pos["score"]) <= 12:
            assert out is None, pos["id"]
            assert list(state.scores()) == pos["score"], pos["id"]
            assert state.current_player() == pos["to_move"], pos["id"]
        else:
            ended_early += 1
            assert out is not None and out.reason == dab_engine.BOXES_MAJORITY, pos["id"]
            assert max(state.scores()) == 13 or max(state.scores()) == 14, pos["id"]
            leader = 1 if pos["score"][0] > pos["score"][1] else 2
            assert out.winner == leader, pos["id"]
            assert state.current_player() is None
    assert ended_early > 0
