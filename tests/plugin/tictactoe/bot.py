"""The computer: wins when it can, blocks when it must, else the first free cell."""

from __future__ import annotations

from typing import Any

from games.engine import State

from .engine import END, TicTacToeState

BUDGETS = {"latwy": 0.0, "sredni": 0.0, "trudny": 0.0}


def choose(state: State, level: str, rng: Any, budget_s: float | None = None) -> int:
    legal = [action for action in state.legal_actions() if action != END] or state.legal_actions()
    for player in (state.current_player(), 3 - (state.current_player() or 1)):
        for action in legal:
            trial = state.clone()
            assert isinstance(trial, TicTacToeState)
            cells: list[int | None] = list(trial.cells)
            cells[action] = player
            if any(
                all(cells[i] == player for i in line)
                for line in ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
            ):
                return action
    return legal[0]
