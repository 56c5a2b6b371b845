"""Set-up positions (the analysis board's editor, docs/analysis.md "Position editor"): each game
takes a ``setup`` parameter, refuses positions no game can stand on with a move to make (each
with its code), and a set-up equal to a position reached by moves is that position: the same
canonical key (the fair-play guard's), the same moves, the same computer's answer; the editor's
tools change a set-up as the page says."""

from __future__ import annotations

import random
from importlib import import_module

import pytest

from games.bots import choose_action
from games.connect4.engine import (
    SETUP_DISCS_COUNT,
    SETUP_FLOATING,
    SETUP_FOUR,
    SETUP_UNREACHABLE,
    Connect4,
    Connect4State,
    setup_order,
)
from games.dots_and_boxes.engine import SETUP_BOX_OWNER, DotsAndBoxes
from games.engine import Game, SetupError, State
from games.engine.base import SETUP_BAD, SETUP_OVER
from games.kropki.engine import SETUP_CAPTURE, Kropki, KropkiState
from games.pilkarzyki.bot_board import Board
from games.pilkarzyki.engine import Pilkarzyki, PilkarzykiState

GAMES = [
    (Kropki, {"width": 10, "height": 10}),
    (Kropki, {"width": 7, "height": 9, "margin": 15, "penalty": True}),
    (Connect4, {}),
    (DotsAndBoxes, {"rows": 5, "cols": 5}),
    (DotsAndBoxes, {"rows": 2, "cols": 3, "majority_end": False}),
    (Pilkarzyki, {}),
]


def refused(game: type[Game], setup: object, **params: object) -> str:
    with pytest.raises(SetupError) as caught:
        game(**params, setup=setup)
    return caught.value.code


def random_position(game: Game, seed: int) -> State:
    """A position of a random game, not over (Kropki: no one has ended)."""
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        length = rng.randrange(1, game.max_game_length // 2)
        while len(state.history) < length and not state.is_terminal():
            state.apply_action(rng.choice([a for a in state.legal_actions() if a != game.end_action]))
        if not state.is_terminal():
            return state


def set_up(state: State) -> State:
    """The same position as a set-up: a fresh state of the game with ``state.to_setup()``."""
    game = state.game
    return type(game)(**game.rules_params(), setup=state.to_setup()).new_initial_state()


@pytest.mark.parametrize(("cls", "params"), GAMES, ids=lambda v: getattr(v, "slug", str(v)))
def test_a_position_set_up_is_the_position_reached_by_moves(cls, params):
    """Random positions (Kropki's without captures) set up again: the canonical key, the side to
    move, the legal moves, the plies (the guard's opening), and the same moves after it."""
    game = cls(**params)
    checked = 0
    for seed in range(40):
        state = random_position(game, seed)
        if cls is Kropki and state.scores() != (0, 0):
            continue
        again = set_up(state)
        assert again.history == [] and again.plies() == len(state.history)
        assert again.canonical() == state.canonical()
        assert (again.current_player(), again.legal_actions()) == (state.current_player(), state.legal_actions())
        moves_only = {"last", "turn", "moves_again"}  # what the last move and its turn drew
        assert {k: v for k, v in again.view().items() if k not in moves_only} == {
            k: v for k, v in state.view().items() if k not in moves_only
        }
        for action in random_position(game, seed + 100).history[:5]:
            if state.is_terminal() or not state.is_legal(action):
                break
            state.apply_action(action)
            again.apply_action(action)
            assert again.canonical() == state.canonical() and again.outcome() == state.outcome()
        assert again.clone().canonical() == again.canonical()
        assert again.game.params["setup"] == again.game.read_setup(again.game.params["setup"], game.params)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize(("cls", "params"), GAMES, ids=lambda v: getattr(v, "slug", str(v)))
def test_the_computer_plays_and_reviews_from_a_set_up_as_from_the_moves(cls, params):
    game = cls(**params)
    state = random_position(game, 7)
    if cls is Kropki:  # a position with a capture is set up without it: take one that has none
        state = next(s for s in (random_position(game, n) for n in range(7, 60)) if s.scores() == (0, 0))
    again = set_up(state)
    reviewer = import_module(f"games.{cls.slug}.review")
    by_moves = reviewer.evaluator(game)(state, state.plies())
    by_set_up = reviewer.evaluator(again.game)(again, again.plies())
    assert (by_set_up.expected, by_set_up.best) == (by_moves.expected, by_moves.best)
    for level in ("latwy", "sredni"):
        assert again.is_legal(choose_action(again, level, seed=1, budget_s=0.1))
    if cls is Connect4:  # the solver and the search replay the set-up's order, then the moves
        assert isinstance(again, Connect4State)
        assert Connect4().state_from_history(again.columns()).canonical() == state.canonical()
        assert choose_action(again, "trudny", seed=1, budget_s=0.3) == choose_action(
            state, "trudny", seed=1, budget_s=0.3
        )
    if cls is Pilkarzyki:
        ours, theirs = Board.from_state(again), Board.from_state(state)
        assert (ours.used, ours.ball, ours.to_move) == (theirs.used, theirs.ball, theirs.to_move)


def test_connect4_set_ups_refused_with_their_reasons():
    def cells(*columns: str) -> dict[str, str]:
        """A set-up from columns written bottom up ("12": pink at the bottom, blue on it)."""
        grid = [["."] * 7 for _ in range(6)]
        for col, stack in enumerate(columns):
            for row, char in enumerate(stack):
                grid[5 - row][col] = char
        return {"cells": "".join("".join(row) for row in grid)}

    assert Connect4(setup=cells("12", "1")).new_initial_state().current_player() == 2
    assert Connect4(setup=cells("12", "12")).new_initial_state().current_player() == 1
    floating = cells("1", "2")
    floating["cells"] = floating["cells"][:15] + "1" + floating["cells"][16:]  # column 2, row 4 from the bottom
    assert refused(Connect4, floating) == SETUP_FLOATING
    assert refused(Connect4, cells("111", "2")) == SETUP_DISCS_COUNT
    assert refused(Connect4, cells("2", "22")) == SETUP_DISCS_COUNT
    assert refused(Connect4, cells("1", "1", "1", "1", "22", "2", "")) == SETUP_FOUR  # pink's four on the bottom
    assert refused(Connect4, cells("21")) == SETUP_UNREACHABLE  # pink's first disc has nowhere to go
    assert refused(Connect4, cells("21", "21")) == SETUP_UNREACHABLE
    assert setup_order(cells("21", "1", "2")["cells"]) == (1, 0, 0, 2)
    assert refused(Connect4, {"cells": "." * 41}) == SETUP_BAD
    assert refused(Connect4, {"cells": "." * 42, "to_move": 1}) == SETUP_BAD
    rng = random.Random(1)
    while True:  # a drawn game's last position: over
        drawn = Connect4().new_initial_state()
        while not drawn.is_terminal():
            drawn.apply_action(rng.choice(drawn.legal_actions()))
        if drawn.returns() == (0.0, 0.0):  # a draw
            break
    assert refused(Connect4, drawn.to_setup()) == SETUP_OVER


def test_kropki_set_ups_refused_with_their_reasons():
    game = Kropki(width=5, height=5)
    ring = list(game.empty_setup()["dots"])
    for x, y in ((2, 1), (1, 2), (3, 2), (2, 3)):
        ring[y * 5 + x] = "1"
    ring[2 * 5 + 2] = "2"  # blue inside pink's diamond
    assert refused(Kropki, {"dots": "".join(ring), "to_move": 2, "score": [0, 0]}, width=5, height=5) == SETUP_CAPTURE
    ring[2 * 5 + 2] = "."  # an empty ring stands, as in a game
    empty_ring = Kropki(width=5, height=5, setup={"dots": "".join(ring), "to_move": 2, "score": [3, 1]})
    state = empty_ring.new_initial_state()
    assert isinstance(state, KropkiState)
    assert state.scores() == (3, 1) and state.current_player() == 2 and state.empty_territory() == (1, 0)
    assert state.plies() == 4
    assert refused(Kropki, {"dots": "1" * 25, "to_move": 1, "score": [0, 0]}, width=5, height=5) == SETUP_OVER
    assert (
        refused(Kropki, {"dots": "." * 25, "to_move": 1, "score": [15, 0]}, width=5, height=5, margin=15) == SETUP_OVER
    )
    for bad in (
        {"dots": "." * 24, "to_move": 1, "score": [0, 0]},
        {"dots": "." * 25, "to_move": 3, "score": [0, 0]},
        {"dots": "." * 25, "to_move": 1, "score": [-1, 0]},
        {"dots": "." * 25, "to_move": True, "score": [0, 0]},
        {"dots": "A" * 25, "to_move": 1, "score": [0, 0]},
    ):
        assert refused(Kropki, bad, width=5, height=5) == SETUP_BAD
    # a start places dots too: a set-up comes without one (the editor turns its dots into the set-up's)
    assert refused(Kropki, game.empty_setup(), width=5, height=5, start="cross") == SETUP_BAD


def test_dots_and_boxes_set_ups_refused_with_their_reasons():
    game = DotsAndBoxes(rows=2, cols=2)
    setup = game.empty_setup()
    for segment in game.box_sides(0, 0):
        setup = game.setup_edit(setup, "1", segment)
    assert setup["boxes"] == "1..." and setup["lines"].count("1") == 4
    state = DotsAndBoxes(rows=2, cols=2, setup=setup | {"to_move": 2}).new_initial_state()
    assert state.scores() == (1, 0) and state.current_player() == 2
    assert refused(DotsAndBoxes, setup | {"boxes": "...."}, rows=2, cols=2) == SETUP_BOX_OWNER
    assert refused(DotsAndBoxes, game.empty_setup() | {"boxes": "2..."}, rows=2, cols=2) == SETUP_BOX_OWNER
    everything = {"lines": "1" * 12, "boxes": "1122", "to_move": 1}
    assert refused(DotsAndBoxes, everything, rows=2, cols=2, majority_end=False) == SETUP_OVER
    assert refused(DotsAndBoxes, {"lines": "." * 12, "boxes": "....", "to_move": 0}, rows=2, cols=2) == SETUP_BAD
    assert refused(DotsAndBoxes, {"lines": "." * 11, "boxes": "....", "to_move": 1}, rows=2, cols=2) == SETUP_BAD


def test_a_set_up_majority_of_boxes_is_over_unless_the_game_plays_on():
    game = DotsAndBoxes(rows=1, cols=3)
    setup = game.empty_setup()
    for box in (0, 1):
        for segment in game.box_sides(0, box):
            setup = game.setup_edit(setup, "2", segment)
    assert setup["boxes"] == "22."
    assert refused(DotsAndBoxes, setup, rows=1, cols=3) == SETUP_OVER
    state = DotsAndBoxes(rows=1, cols=3, majority_end=False, setup=setup).new_initial_state()
    assert state.scores() == (0, 2) and not state.is_terminal()


def test_pilkarzyki_set_ups_refused_with_their_reasons():
    game = Pilkarzyki()
    setup = game.empty_setup()
    for direction in (0, 0, 0, 0):  # four lines up from the kick-off point, pink's
        assert direction in game.setup_targets(setup, "1")
        setup = game.setup_edit(setup, "1", direction)
    state = Pilkarzyki(setup=setup | {"to_move": 2}).new_initial_state()
    assert isinstance(state, PilkarzykiState)
    assert state.ball_xy == (4, 1) and state.current_player() == 2 and state.plies() == 4
    assert [s[4] for s in state.view()["segments"]] == [1, 1, 1, 1] and state.view()["turn"] == [[4, 1]]
    assert game.setup_targets(setup, "0") == [4]  # back down the last line
    assert game.setup_edit(setup, "0", 4)["path"] == "000"
    assert 0 in game.setup_targets(setup, "1")  # up to the goal line...
    on_line = game.setup_edit(setup, "1", 0)
    assert 0 not in game.setup_targets(on_line, "1")  # ...but never into the goal
    for bad in (
        {"path": "000000", "by": "111111", "to_move": 1},  # into the top goal: no walk of a set-up
        {"path": "04", "by": "11", "to_move": 1},  # back along the same line
        {"path": "0", "by": "3", "to_move": 1},
        {"path": "0", "by": "", "to_move": 1},
    ):
        assert refused(Pilkarzyki, bad) == SETUP_BAD
    # the ball walked into the top-left corner, whose one free line it came along: over
    corner = {"path": "77707", "by": "11111", "to_move": 1}
    assert Pilkarzyki().draft(corner).view()["ball"] == [0, 0]
    assert refused(Pilkarzyki, corner) == SETUP_OVER
    assert refused(Pilkarzyki, corner | {"path": "7770"}) == SETUP_BAD  # by is one longer


@pytest.mark.parametrize(("cls", "params"), GAMES[::2], ids=lambda v: getattr(v, "slug", str(v)))
def test_the_editors_tools_put_and_take_away(cls, params):
    game = cls(**params)
    empty = game.empty_setup()
    assert cls(**params, setup=empty).new_initial_state().plies() == 0
    assert game.setup_tools == ("1", "2", "0")
    target = game.setup_targets(empty, "1")[0]
    pink = game.setup_edit(empty, "1", target)
    assert pink != empty and game.draft(pink).plies() == 1
    assert game.setup_edit(pink, "0", game.setup_targets(pink, "0")[0]) == empty
    assert game.setup_targets(empty, "0") == []
    assert game.setup_edit(empty, "0", target) == empty  # nothing there: nothing changes
