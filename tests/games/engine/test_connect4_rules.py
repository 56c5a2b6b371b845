"""Cztery w rzędzie: one test per rule of docs/rules.md and per answer of the rules
page and FAQ (seed 002)."""

from __future__ import annotations

import pytest

from games.connect4 import engine as connect4_engine
from games.connect4.engine import LINE_CELLS, NUM_LINES, Connect4, Connect4State
from games.engine import base

# Move sequences are inputs (column digits 1..7, pink first); every expected
# result below is derived from the rules, not copied from the engine.
FULL_BOARD_DRAW = "311211112322225334347444466565566767757753"
ALL_DEAD_AT_38 = "24522256763323327545516774531661441146"  # vectors d000
WIN_WITH_68_DEAD = "36333455546317674443264267621552512111777"


def play(moves: str) -> Connect4State:
    state = Connect4().new_initial_state()
    assert isinstance(state, Connect4State)
    for digit in moves:
        state.apply_action(int(digit) - 1)
    return state


def naive_dead_lines(state: Connect4State) -> int:
    return sum(1 for line in LINE_CELLS if {state.cell(c, r) for c, r in line} >= {1, 2})


def naive_has_four(state: Connect4State, player: int) -> bool:
    return any(all(state.cell(c, r) == player for c, r in line) for line in LINE_CELLS)


# -- the board ------------------------------------------------------------------


def test_board_has_seven_columns_and_six_rows() -> None:
    game = Connect4()
    view = game.new_initial_state().view()
    assert (view["columns"], view["rows"]) == (7, 6)
    assert len(view["cells"]) == 6 and all(len(row) == 7 for row in view["cells"])
    assert game.num_actions == 7
    assert game.params == {}


def test_a_full_board_is_forty_two_discs_twenty_one_each() -> None:
    state = play(FULL_BOARD_DRAW)
    cells = [v for row in state.view()["cells"] for v in row]
    assert len(state.history) == 42 == Connect4().max_game_length
    assert cells.count(1) == 21 and cells.count(2) == 21


def test_there_are_sixty_nine_lines_of_four() -> None:
    assert NUM_LINES == len(LINE_CELLS) == 69
    assert len({frozenset(line) for line in LINE_CELLS}) == 69
    state = Connect4().new_initial_state()
    assert state.view()["live_lines"] == 69 and state.view()["dead_lines"] == 0


def test_game_takes_no_parameters() -> None:
    with pytest.raises(base.InvalidParamsError):
        Connect4(width=8)


# -- moving -----------------------------------------------------------------------


def test_pink_moves_first() -> None:
    state = Connect4().new_initial_state()
    assert isinstance(state, Connect4State)
    assert state.current_player() == 1
    effect = state.apply_action(3)
    assert effect.player == 1 and state.cell(3, 0) == 1


def test_disc_falls_to_lowest_free_cell() -> None:
    state = Connect4().new_initial_state()
    assert isinstance(state, Connect4State)
    first = state.apply_action(4)
    second = state.apply_action(4)
    third = state.apply_action(2)
    assert (first.details["column"], first.details["row"]) == (5, 1)
    assert (second.details["column"], second.details["row"]) == (5, 2)
    assert (third.details["column"], third.details["row"]) == (3, 1)
    assert state.cell(4, 0) == 1 and state.cell(4, 1) == 2 and state.cell(2, 0) == 1
    assert state.view()["cells"][5][4] == 1 and state.view()["cells"][4][4] == 2


def test_a_move_is_a_column_never_a_cell() -> None:
    """FAQ: one chooses the column, gravity chooses the cell."""
    game = Connect4()
    assert [game.action_to_string(a) for a in range(7)] == ["1", "2", "3", "4", "5", "6", "7"]
    assert game.string_to_action("4") == 3
    for text in ("0", "8", "a", "44", "", "d4"):
        with pytest.raises(base.InvalidActionError):
            game.string_to_action(text)
    state = game.new_initial_state()
    assert state.illegal_reason(7) == base.UNKNOWN_ACTION
    with pytest.raises(base.InvalidActionError):
        state.apply_action(7)


def test_full_column_is_rejected() -> None:
    state = play("444444")
    assert state.illegal_reason(3) == connect4_engine.COLUMN_FULL
    assert 3 not in state.legal_actions()
    before = (str(state), state.current_player(), list(state.history))
    with pytest.raises(base.IllegalActionError) as info:
        state.apply_action(3)
    assert info.value.code == connect4_engine.COLUMN_FULL
    assert (str(state), state.current_player(), list(state.history)) == before


def test_turn_passes_after_every_move_and_there_is_no_pass() -> None:
    state = Connect4().new_initial_state()
    players = []
    for digit in "1234567123":
        players.append(state.current_player())
        state.apply_action(int(digit) - 1)
    assert players == [1, 2] * 5
    assert Connect4().num_actions == 7  # columns only: no pass action exists


def test_three_in_a_row_gives_no_extra_turn() -> None:
    """FAQ: three is just three discs; the turn passes as always."""
    state = play("1122")
    effect = state.apply_action(2)  # pink: 1, 2, 3 on the bottom row
    assert effect.next_player == 2 and not state.is_terminal()
    assert effect.details["winning_lines"] == []


# -- winning ----------------------------------------------------------------------


def test_horizontal_four_wins() -> None:
    state = play("112233")
    effect = state.apply_action(3)
    out = state.outcome()
    assert out is not None and out.winner == 1 and out.reason == connect4_engine.FOUR_IN_A_ROW
    assert effect.details["winning_lines"] == [[[1, 1], [2, 1], [3, 1], [4, 1]]]
    assert state.current_player() is None and state.legal_actions() == []


def test_vertical_four_wins() -> None:
    state = play("1212121")
    out = state.outcome()
    assert out is not None and out.winner == 1 and out.reason == connect4_engine.FOUR_IN_A_ROW
    assert state.winning_lines == [[[1, 1], [1, 2], [1, 3], [1, 4]]]


def test_diagonal_four_wins() -> None:
    # Pink ends on (1,1) (2,2) (3,3) (4,4); the other discs hold them up.
    state = play("1223343447")
    assert not state.is_terminal() and state.current_player() == 1
    state.apply_action(3)  # pink plays column 4, landing on row 4
    out = state.outcome()
    assert out is not None and out.winner == 1
    assert state.winning_lines == [[[1, 1], [2, 2], [3, 3], [4, 4]]]


def test_other_diagonal_four_wins() -> None:
    # Mirror image of the previous game: pink on (7,1) (6,2) (5,3) (4,4).
    state = play("7665545441")
    assert not state.is_terminal()
    state.apply_action(3)
    out = state.outcome()
    assert out is not None and out.winner == 1
    assert {frozenset(map(tuple, line)) for line in state.winning_lines} == {
        frozenset({(7, 1), (6, 2), (5, 3), (4, 4)})
    }


def test_second_player_can_win() -> None:
    state = play("71212121")
    out = state.outcome()
    assert out is not None and out.winner == 2 and out.reason == connect4_engine.FOUR_IN_A_ROW
    assert state.returns() == (-1.0, 1.0)


def test_line_completed_in_the_middle_wins() -> None:
    """The line counts through the disc just played, wherever it sits in it."""
    state = play("112244")  # pink bottom: 1, 2, 4 (blue on top of each)
    assert not state.is_terminal()
    state.apply_action(2)  # pink drops into column 3, the gap
    out = state.outcome()
    assert out is not None and out.winner == 1
    assert state.winning_lines == [[[1, 1], [2, 1], [3, 1], [4, 1]]]


def test_five_in_a_row_wins() -> None:
    """FAQ: a longer line wins too; every four of it is reported."""
    state = play("11224455")  # pink bottom: 1, 2, 4, 5; blue on top of them
    assert not state.is_terminal()
    state.apply_action(2)  # pink fills column 3: five in a row
    out = state.outcome()
    assert out is not None and out.winner == 1
    assert {frozenset(map(tuple, line)) for line in state.winning_lines} == {
        frozenset({(1, 1), (2, 1), (3, 1), (4, 1)}),
        frozenset({(2, 1), (3, 1), (4, 1), (5, 1)}),
    }


def test_two_lines_at_once_are_both_reported() -> None:
    """Pink's disc at (3, 2) closes row 2 (columns 2..5) and the diagonal
    (2,1)-(5,4) at the same time."""
    state = play("242541555347")
    assert not state.is_terminal()
    assert not naive_has_four(state, 1) and not naive_has_four(state, 2)
    effect = state.apply_action(2)
    out = state.outcome()
    assert out is not None and out.winner == 1 and effect.details["row"] == 2
    assert {frozenset(map(tuple, line)) for line in state.winning_lines} == {
        frozenset({(2, 2), (3, 2), (4, 2), (5, 2)}),
        frozenset({(2, 1), (3, 2), (4, 3), (5, 4)}),
    }


def test_no_move_after_a_win() -> None:
    state = play("1212121")
    assert state.illegal_reason(4) == base.GAME_OVER
    with pytest.raises(base.GameOverError):
        state.apply_action(4)


# -- draws ------------------------------------------------------------------------


def test_full_board_without_line_is_a_draw() -> None:
    state = play(FULL_BOARD_DRAW)
    assert not naive_has_four(state, 1) and not naive_has_four(state, 2)
    out = state.outcome()
    assert out is not None and out.winner is None and out.is_draw
    assert out.reason == connect4_engine.FULL_BOARD
    assert state.returns() == (0.0, 0.0)
    assert state.legal_actions() == []


def test_full_board_draw_kills_the_last_line_with_the_last_disc() -> None:
    """A board can only fill up if a line stayed live to the last disc;
    otherwise the early draw would have come first."""
    state = play(FULL_BOARD_DRAW[:-1])
    assert not state.is_terminal() and naive_dead_lines(state) < 69
    state.apply_action(int(FULL_BOARD_DRAW[-1]) - 1)
    assert naive_dead_lines(state) == state.dead_count == 69


def test_line_is_dead_once_it_holds_both_colours() -> None:
    state = Connect4().new_initial_state()
    assert isinstance(state, Connect4State)
    state.apply_action(0)
    assert state.dead_count == 0
    effect = state.apply_action(1)  # blue next to pink: bottom row 1-4 holds both
    assert effect.details["dead_lines"] == 1 == naive_dead_lines(state)
    assert state.view()["live_lines"] == 68


def test_dead_line_count_matches_the_board_at_every_move() -> None:
    state = Connect4().new_initial_state()
    assert isinstance(state, Connect4State)
    for digit in ALL_DEAD_AT_38:
        effect = state.apply_action(int(digit) - 1)
        assert effect.details["dead_lines"] == naive_dead_lines(state) == state.replay_fields()["dead_lines"]


def test_all_69_lines_dead_ends_in_a_draw_at_once() -> None:
    """FAQ: the board is not full, yet it is a draw: nobody can complete a line."""
    state = play(ALL_DEAD_AT_38[:-1])
    assert not state.is_terminal() and state.dead_count < 69
    state.apply_action(int(ALL_DEAD_AT_38[-1]) - 1)
    out = state.outcome()
    assert out is not None and out.winner is None and out.reason == connect4_engine.NO_LINE_POSSIBLE
    assert naive_dead_lines(state) == 69 and sum(state.heights) == 38 < 42
    assert state.legal_actions() == [] and state.current_player() is None


def test_a_win_through_the_last_disc_beats_the_early_draw() -> None:
    """The last disc kills every other live line and completes a four: the
    completed line is the mover's alone, so it is live and the win stands."""
    state = play(WIN_WITH_68_DEAD)
    out = state.outcome()
    assert out is not None and out.winner == 1 and out.reason == connect4_engine.FOUR_IN_A_ROW
    assert state.dead_count == naive_dead_lines(state) == 68
    assert state.view()["live_lines"] == 1 == len(state.winning_lines)


# -- records and pictures -----------------------------------------------------------


def test_effect_reports_column_row_lines_and_dead_count() -> None:
    state = play("1212121"[:-1])
    effect = state.apply_action(0)
    assert effect.details == {
        "column": 1,
        "row": 4,
        "winning_lines": [[[1, 1], [1, 2], [1, 3], [1, 4]]],
        "dead_lines": naive_dead_lines(state),
    }
    assert effect.notation == "1"
    assert state.view()["last"] == {"column": 1, "row": 4}


def test_scores_are_always_zero() -> None:
    assert play("1212121").scores() == (0, 0)
    outcome = play(FULL_BOARD_DRAW).outcome()
    assert outcome is not None and outcome.scores == (0, 0)


def test_clone_is_independent() -> None:
    state = play("4455")
    copy = state.clone()
    copy.apply_action(0)
    assert len(state.history) == 4 and state.cell(0, 0) == 0
    assert copy.cell(0, 0) == 1 and state.current_player() == 1
