"""Puzzles cut from games (no Django; docs/puzzles.md): what a game's finder returns.

A game's finder (``games/<slug>/puzzles.py``, named by its GameSpec's ``puzzles``) looks at one
position of a game and says whether it is a puzzle: one clearly best line for the player to
move, checked by the game's own exact knowledge (the solver, the rules). ``cut`` walks a whole
game and asks the finder at every position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Cut:
    """One puzzle: from the position after ``ply`` moves, the solver (the player to move) plays
    ``line`` (the solver's moves and the opponent's replies, in order).

    ``accept``: for each index of ``line``, the solver's moves accepted there (the line's own and
    any as good: the other immediate wins at a last move), None at a reply. None for the whole
    puzzle: the game's ``keeps`` judges each move (Piłkarzyki's paths to the goal).
    ``goal``: "win" (solved when the solver wins) or "line" (solved when the line is played)."""

    theme: str
    line: list[int]
    accept: list[list[int] | None] | None
    goal: str = "line"
    ply: int = 0


class Finder(Protocol):
    """A game's ``puzzles`` module."""

    @property
    def THEMES(self) -> tuple[str, ...]: ...  # the module's constants, read-only

    @property
    def FIRST_PLY(self) -> int: ...

    # ``budget_s``: a search's time limit where the finder searches (None: none, for a check that
    # must not depend on the machine's load); a search that runs out finds no puzzle.
    def find(self, game: Any, state: Any, budget_s: float | None = ...) -> Cut | None: ...

    def keeps(self, game: Any, state: Any, action: int) -> bool: ...


def cut(game: Any, actions: list[int], finder: Finder, *, every: int = 1) -> Iterator[Cut]:
    """Every puzzle of the game ``actions`` (each position from the finder's ``FIRST_PLY`` on,
    one in ``every``), with its ply."""
    state = game.new_initial_state()
    for ply, action in enumerate([*actions, None]):
        if state.is_terminal():
            return
        if ply >= finder.FIRST_PLY and ply % every == 0:
            found = finder.find(game, state)
            if found is not None:
                yield Cut(found.theme, found.line, found.accept, found.goal, ply)
        if action is None:
            return
        state.apply_action(action)


def judge(
    game: Any, start: Any, puzzle: Cut, tried: list[int], keeps: Callable[[Any, Any, int], bool]
) -> tuple[str, Any, int]:
    """The solver's ``tried`` moves from ``start`` (which is left as it is) against the puzzle:
    ("solved" | "failed" | "going", the state after them and the replies, how many moves were
    read). A reply is the line's; a move not accepted fails at once."""
    state = start.clone()
    player = start.current_player()
    moves = iter(tried)
    index = 0
    read = 0
    while True:
        if state.is_terminal():
            outcome = state.outcome()
            won = outcome is not None and outcome.winner == player
            return ("solved" if won or puzzle.goal == "line" else "failed"), state, read
        if puzzle.goal == "line" and index >= len(puzzle.line):
            return "solved", state, read
        if state.current_player() != player:  # the line's reply
            if index >= len(puzzle.line):
                return "failed", state, read
            state.apply_action(puzzle.line[index])
            index += 1
            continue
        action = next(moves, None)
        if action is None:
            return "going", state, read
        read += 1
        if not state.is_legal(action):
            return "failed", state, read
        accepted = keeps(game, state, action) if puzzle.accept is None else action in (puzzle.accept[index] or ())
        state.apply_action(action)
        index += 1
        if not accepted:
            return "failed", state, read
