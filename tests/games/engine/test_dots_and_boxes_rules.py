"""Kropki i kwadraty: one test per rule of docs/rules.md and per statement of the
rules text (seed 003)."""

from __future__ import annotations

import random

import pytest

from games.dots_and_boxes import engine as dab_engine
from games.dots_and_boxes.engine import DotsAndBoxes, DotsAndBoxesState
from games.engine import base


def play(moves: list[int], **params: object) -> DotsAndBoxesState:
    state = DotsAndBoxes(**params).state_from_history(moves)
    assert isinstance(state, DotsAndBoxesState)
    return state


def box_complete(state: DotsAndBoxesState, r: int, c: int) -> bool:
    return all(state.drawn >> s & 1 for s in state.game.box_sides(r, c))


# -- the board ------------------------------------------------------------------


def test_default_board_is_five_by_five_boxes_on_six_by_six_dots_with_sixty_segments() -> None:
    game = DotsAndBoxes()
    assert game.params == {"rows": 5, "cols": 5}
    assert game.num_actions == 60 == game.max_game_length
    assert game.num_horizontal == 30 and game.num_segments - game.num_horizontal == 30
    dots = {dot for s in range(60) for dot in game.segment_dots(s)}
    assert dots == {(r, c) for r in range(6) for c in range(6)}
    view = game.new_initial_state().view()
    assert len(view["boxes"]) == 5 and all(len(row) == 5 for row in view["boxes"])
    assert view["drawn"] == [0] * 60


def test_segment_numbering_is_openspiels() -> None:
    """README of the vectors: h(r,c) = 5r + c, v(r,c) = 30 + 6r + c; box
    (r,c) has sides 5r+c, 5r+c+5, 30+6r+c, 30+6r+c+1."""
    game = DotsAndBoxes()
    for r in range(6):
        for c in range(5):
            assert game.h(r, c) == 5 * r + c
            assert game.segment_dots(5 * r + c) == ((r, c), (r, c + 1))
    for r in range(5):
        for c in range(6):
            assert game.v(r, c) == 30 + 6 * r + c
            assert game.segment_dots(30 + 6 * r + c) == ((r, c), (r + 1, c))
    for r in range(5):
        for c in range(5):
            assert game.box_sides(r, c) == (5 * r + c, 5 * r + c + 5, 30 + 6 * r + c, 30 + 6 * r + c + 1)


def test_numbering_generalizes_to_other_sizes() -> None:
    game = DotsAndBoxes(rows=2, cols=3)
    assert game.num_segments == 3 * 3 + 2 * 4 == 17
    assert game.box_sides(1, 2) == (3 * 1 + 2, 3 * 2 + 2, 9 + 4 * 1 + 2, 9 + 4 * 1 + 3)


@pytest.mark.parametrize("params", [{"rows": 0}, {"cols": 9}, {"rows": "5"}, {"rows": True}, {"size": 5}])
def test_bad_sizes_are_rejected(params: dict) -> None:
    with pytest.raises(base.InvalidParamsError):
        DotsAndBoxes(**params)


def test_notation_names_the_two_dots_and_round_trips() -> None:
    game = DotsAndBoxes()
    assert game.action_to_string(0) == "a1-b1"
    assert game.action_to_string(30) == "a1-a2"
    assert game.action_to_string(59) == "f5-f6"
    assert game.string_to_action("B1-A1") == 0
    for action in range(60):
        assert game.string_to_action(game.action_to_string(action)) == action


@pytest.mark.parametrize("text", ["a1-b2", "a1-c1", "a1-a1", "g1-g2", "a0-a1", "a6-a7", "a1", "", "1-2"])
def test_only_orthogonally_adjacent_dots_make_a_segment(text: str) -> None:
    """No diagonals, no long segments, nothing off the board."""
    with pytest.raises(base.InvalidActionError):
        DotsAndBoxes().string_to_action(text)


# -- moving -----------------------------------------------------------------------


def test_player_one_moves_first() -> None:
    state = DotsAndBoxes().new_initial_state()
    assert state.current_player() == 1
    assert state.apply_action(17).player == 1


def test_a_drawn_segment_cannot_be_drawn_again() -> None:
    state = play([0])
    assert state.illegal_reason(0) == base.SEGMENT_DRAWN
    assert 0 not in state.legal_actions() and len(state.legal_actions()) == 59
    before = (str(state), state.view(), state.current_player())
    with pytest.raises(base.IllegalActionError) as info:
        state.apply_action(0)
    assert info.value.code == base.SEGMENT_DRAWN
    assert (str(state), state.view(), state.current_player()) == before


def test_turn_passes_when_no_box_is_completed() -> None:
    state = DotsAndBoxes().new_initial_state()
    effect = state.apply_action(0)
    assert effect.details == {"segment": 0, "boxes": [], "extra_move": False}
    assert state.current_player() == 2


def test_completing_a_box_gives_it_to_the_mover_and_an_extra_move() -> None:
    state = play([0, 5, 30])  # three sides of box (0, 0); player 2 to move
    assert state.current_player() == 2
    effect = state.apply_action(31)
    assert box_complete(state, 0, 0)
    assert effect.details == {"segment": 31, "boxes": [[0, 0]], "extra_move": True}
    assert effect.next_player == 2 and state.current_player() == 2
    assert state.scores() == (0, 1)
    assert state.view()["boxes"][0][0] == 2
    assert state.replay_fields()["boxes"] == "2" + "." * 24


def test_two_boxes_at_once_give_one_extra_move() -> None:
    # Boxes (0,0) and (0,1) share segment 31; draw their other six sides.
    state = play([0, 5, 30, 1, 6, 32])
    mover = state.current_player()
    assert mover is not None
    effect = state.apply_action(31)
    assert sorted(effect.details["boxes"]) == [[0, 0], [0, 1]]
    assert effect.details["extra_move"] is True
    assert state.current_player() == mover
    assert state.scores()[mover - 1] == 2
    # The extra move is one move: drawing a segment that closes nothing passes the turn.
    state.apply_action(59)
    assert state.current_player() == base.other(mover)


def test_capturing_is_never_compulsory() -> None:
    state = play([0, 5, 30])
    assert state.is_legal(31)  # would close box (0, 0)
    effect = state.apply_action(50)  # a segment far away is fine too
    assert effect.details["boxes"] == [] and state.current_player() == 1


def test_game_ends_when_all_segments_are_drawn_and_most_boxes_wins() -> None:
    game = DotsAndBoxes(rows=1, cols=2)  # 7 segments, 2 boxes
    state = game.new_initial_state()
    rng = random.Random(3)
    assert isinstance(state, DotsAndBoxesState)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    out = state.outcome()
    assert out is not None and state.drawn == game.all_drawn
    assert all(o in (1, 2) for o in state.box_owner)
    one, two = state.scores()
    assert out.scores == (one, two) and one + two == 2
    if one != two:
        assert out.winner == (1 if one > two else 2)
        # More than half of 2 boxes is a majority: that end comes first.
        assert out.reason in (dab_engine.BOXES, dab_engine.BOXES_MAJORITY)


def test_last_segment_ends_the_game_without_an_extra_move() -> None:
    # 1 x 1: three sides drawn, player 2 to move.
    state = DotsAndBoxes(rows=1, cols=1).state_from_history([0, 1, 2])
    assert state.current_player() == 2
    effect = state.apply_action(3)
    out = state.outcome()
    assert out is not None and out.winner == 2 and out.reason == dab_engine.BOXES_MAJORITY
    assert effect.details["boxes"] == [[0, 0]] and effect.details["extra_move"] is False
    assert state.current_player() is None and state.legal_actions() == []
    assert DotsAndBoxes(rows=1, cols=1, majority_end=False).state_from_history([0, 1, 2, 3]).outcome() == (
        base.Outcome(winner=2, reason=dab_engine.BOXES, scores=(0, 1))
    )


def test_equal_boxes_on_an_even_board_is_a_draw() -> None:
    """Seed 003: on an even number of boxes the game may end in a draw."""
    state = play([6, 11, 2, 7, 8, 0, 5, 10, 1, 3, 9, 4], rows=2, cols=2)
    out = state.outcome()
    assert state.drawn == state.game.all_drawn
    assert state.scores() == (2, 2)
    assert out is not None and out.winner is None and out.reason == dab_engine.BOXES
    assert state.returns() == (0.0, 0.0)


def test_five_by_five_cannot_end_in_a_draw() -> None:
    """Seed 003: 25 boxes is odd, so somebody always has more."""
    rng = random.Random(11)
    for _ in range(30):
        state = DotsAndBoxes(majority_end=False).new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        out = state.outcome()
        assert out is not None and out.winner is not None and sum(out.scores) == 25


def test_majority_of_boxes_ends_the_game() -> None:
    """The game ends as soon as a player owns 13 of the 25 boxes, and that
    player is the one who would also have won playing to the last segment."""
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        full = DotsAndBoxes(majority_end=False).new_initial_state()
        assert isinstance(full, DotsAndBoxesState)
        first_majority = None
        while not full.is_terminal():
            # Greedy with a random order: take a box when one is there.
            moves = full.legal_actions()
            rng.shuffle(moves)
            closing = [
                m for m in moves if any((full.drawn | 1 << m) & mask == mask for _, mask in full.game.boxes_of[m])
            ]
            mover = full.current_player()
            assert mover is not None
            full.apply_action(closing[0] if closing and rng.random() < 0.8 else moves[0])
            if first_majority is None and full.scores()[mover - 1] >= 13:
                first_majority = (len(full.history), mover)
        assert first_majority is not None  # 25 boxes: somebody reaches 13
        ply, leader = first_majority
        site = DotsAndBoxes().state_from_history(full.history[:ply])
        out = site.outcome()
        assert out is not None and out.reason == dab_engine.BOXES_MAJORITY and out.winner == leader
        assert site.scores()[leader - 1] in (13, 14)
        full_out = full.outcome()
        assert full_out is not None and full_out.winner == leader
        if ply < len(full.history):
            assert site.illegal_reason(full.history[ply]) == base.GAME_OVER
            checked += 1
        not_yet = DotsAndBoxes().state_from_history(full.history[: ply - 1])
        assert not not_yet.is_terminal()
    assert checked > 0


# -- pictures and copies -------------------------------------------------------------


def test_view_tells_who_drew_each_segment_and_owns_each_box() -> None:
    state = play([0, 5, 30, 31])
    view = state.view()
    assert view["drawn"][0] == 1 and view["drawn"][5] == 2 and view["drawn"][30] == 1 and view["drawn"][31] == 2
    assert view["horizontal"][0][0] == 1 and view["horizontal"][1][0] == 2
    assert view["vertical"][0][:2] == [1, 2]
    assert view["boxes"][0][0] == 2 and view["last"] == 31
    assert sum(v != 0 for v in view["drawn"]) == len(state.history)


def test_replay_boxes_are_one_character_per_box_row_by_row() -> None:
    # Box (1, 2) on 5 x 5: sides 7, 12, 38, 39.
    state = play([7, 12, 38, 39])
    assert state.replay_fields()["boxes"] == "." * 7 + "2" + "." * 17


def test_clone_is_independent() -> None:
    state = play([0, 5, 30])
    copy = state.clone()
    copy.apply_action(31)
    assert state.scores() == (0, 0) and state.view()["boxes"][0][0] == 0
    assert copy.scores() == (0, 1) and len(state.history) == 3
