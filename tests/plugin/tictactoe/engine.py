"""The rules: 3×3 cells, actions 0..8 row by row, three in a line wins.

To prove each of the catalogue's hooks, this Kółko i krzyżyk also has an end
action as Kropki's (action 9, "end": a player stops, the other plays on alone
until they end too or the board is decided; the clock plays it for a player
whose time ran out) and an error code of its own (``cell_taken``)."""

from __future__ import annotations

from typing import Any, ClassVar

from games.engine.base import ERROR_CODES, Game, Outcome, State, other

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
THREE_IN_A_ROW = "three_in_a_row"
FULL = "full_board"
BOTH_ENDED = "both_ended"
CELL_TAKEN = "cell_taken"  # this game's own error code
END = 9


class TicTacToeState(State):
    game: TicTacToe

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.cells = [0] * 9
        self.ended = [False, False]
        self.turn = 1

    def _line(self) -> tuple[int, ...] | None:
        return next((line for line in LINES if self.cells[line[0]] and len({self.cells[i] for i in line}) == 1), None)

    def outcome(self) -> Outcome | None:
        line = self._line()
        if line is not None:
            return Outcome(self.cells[line[0]], THREE_IN_A_ROW, self.scores())
        if all(self.cells):
            return Outcome(None, FULL, self.scores())
        if all(self.ended):
            return Outcome(None, BOTH_ENDED, self.scores())
        return None

    def current_player(self) -> int | None:
        return None if self.outcome() is not None else self.turn

    def legal_actions(self) -> list[int]:
        return [] if self.outcome() is not None else [*(i for i in range(9) if not self.cells[i]), END]

    def _illegal_reason(self, action: int) -> str | None:
        return CELL_TAKEN if action != END and self.cells[action] else None

    def _apply(self, action: int) -> dict[str, Any]:
        player = self.turn
        if action == END:
            self.ended[player - 1] = True
        else:
            self.cells[action] = player
        if not self.ended[other(player) - 1]:
            self.turn = other(player)
        line = self._line()
        return {"line": list(line) if line else None, "ended": action == END}

    def scores(self) -> tuple[int, int]:
        line = self._line()
        winner = self.cells[line[0]] if line else 0
        return (int(winner == 1), int(winner == 2))

    def view(self) -> dict[str, Any]:
        return {
            "cells": list(self.cells),
            "to_move": self.current_player(),
            "ended": list(self.ended),
            "last": self.history[-1] if self.history else None,
        }

    def __str__(self) -> str:
        return "\n".join("".join(".XO"[c] for c in self.cells[r * 3 : r * 3 + 3]) for r in range(3))


class TicTacToe(Game):
    slug: ClassVar[str] = "tictactoe"
    name: ClassVar[str] = "Kółko i krzyżyk"
    state_class: ClassVar[type[State]] = TicTacToeState
    error_codes: ClassVar[tuple[str, ...]] = (*ERROR_CODES, CELL_TAKEN)
    end_action = END

    @property
    def num_actions(self) -> int:
        return 10

    @property
    def max_game_length(self) -> int:
        return 11

    def action_to_string(self, action: int) -> str:
        return "end" if action == END else f"{'abc'[action % 3]}{action // 3 + 1}"

    def string_to_action(self, text: str) -> int:
        return END if text == "end" else "abc".index(text[0]) + 3 * (int(text[1:]) - 1)
