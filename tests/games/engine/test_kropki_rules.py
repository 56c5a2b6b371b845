"""Every Kropki rule of docs/rules.md and every answer of the rules page's FAQ
(seeds/000_…), one small position each.

Moves are written in the engine's notation: column letter, then the row
counted from the top, so ``"e4"`` is x=4, y=3. ``build`` plays the two lists
alternately (pink first); when one list runs out, that player plays filler
dots on the board's edges far from the position (player 1 down the right
column, player 2 along the two bottom rows), so positions must stay clear of
the last two columns and the last three rows.
"""

from __future__ import annotations

import json

import pytest

from games.engine import base
from games.engine.base import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
)
from games.kropki import engine as kropki_engine
from games.kropki.engine import Kropki, KropkiState


def build(pink: str, blue: str, width: int = 10, height: int = 10, to_move: int | None = None) -> KropkiState:
    """Play ``pink``'s and ``blue``'s moves alternately, pink first; the
    player whose list is longer makes the last move. With ``to_move``, the
    other player then plays a filler so that ``to_move`` moves next."""
    game = Kropki(width=width, height=height)
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    moves1, moves2 = pink.split(), blue.split()
    for i in range(max(len(moves1), len(moves2))):
        state.apply_action(game.string_to_action(moves1[i]) if i < len(moves1) else filler(state))
        if i < len(moves2):
            state.apply_action(game.string_to_action(moves2[i]))
        elif i + 1 < len(moves1):
            state.apply_action(filler(state))
    if to_move is not None and state.current_player() != to_move:
        state.apply_action(filler(state))
    return state


def filler(state: KropkiState) -> int:
    """A move for the player to move that cannot matter: pink goes down the
    right column, blue along the two bottom rows."""
    game = state.game
    if state.current_player() == 1:
        spots = [(game.width - 1, y) for y in range(game.height - 1)]
    else:
        spots = [(x, y) for y in (game.height - 1, game.height - 2) for x in range(game.width - 1)]
    return next(a for a in (game.action_for(x, y) for x, y in spots) if state.is_legal(a))


def near_dots(state: KropkiState) -> list[list[int]]:
    """The view's dots without the fillers."""
    game = state.game
    return [d for d in state.view()["dots"] if d[0] < game.width - 1 and d[1] < game.height - 2]


def at(state: KropkiState, square: str) -> str:
    """The grid character (vectors/README.md alphabet) of a point."""
    action = state.game.string_to_action(square)
    return state.grid()[action]


def play(state: KropkiState, square: str) -> base.Effect:
    return state.apply_action(state.game.string_to_action(square))


def reason(state: KropkiState, square: str) -> str | None:
    return state.illegal_reason(state.game.string_to_action(square))


def assert_chain_is_a_closed_polygon(state: KropkiState, territory: dict) -> None:
    chain = territory["chain"]
    owner = territory["owner"]
    width = state.game.width
    assert len(chain) >= 4
    assert len({tuple(p) for p in chain}) == len(chain), "a chain visits each dot once"
    for (x1, y1), (x2, y2) in zip(chain, chain[1:] + chain[:1], strict=True):
        assert max(abs(x1 - x2), abs(y1 - y2)) == 1, f"{(x1, y1)} and {(x2, y2)} are not 8-neighbours"
    live = "A" if owner == 1 else "B"
    assert all(state.grid()[y * width + x] == live for x, y in chain), "chain dots are the owner's live dots"


# -- the board, the parameters and the move ---------------------------------


def test_default_board_is_10x10_szybka_and_20x20_duza_is_a_size() -> None:
    assert Kropki().params == {"width": 10, "height": 10}
    assert Kropki().name == "Kropki" and Kropki.slug == "kropki"
    big = Kropki(width=20, height=20)
    assert big.num_actions == 401
    assert len(big.new_initial_state().legal_actions()) == 401


@pytest.mark.parametrize(
    "params",
    [
        {"width": 4, "height": 10},
        {"width": 41, "height": 10},
        {"width": 10, "height": 4},
        {"width": 10, "height": 41},
        {"width": "10", "height": 10},
        {"width": True, "height": 10},
        {"width": 10, "height": 10, "colour": "pink"},
        {"width": 10, "height": 10, "start": "krzyż"},
        {"width": 10, "height": 10, "start": None},
    ],
)
def test_board_size_outside_5_to_40_by_5_to_40_or_an_unknown_start_is_rejected(params: dict) -> None:
    with pytest.raises(InvalidParamsError):
        Kropki(**params)


def test_smallest_and_largest_boards_are_accepted() -> None:
    assert Kropki(width=5, height=5).num_actions == 26
    assert Kropki(width=39, height=32).num_actions == 39 * 32 + 1
    assert Kropki(width=40, height=40).num_actions == 40 * 40 + 1


def test_pink_moves_first_and_players_alternate() -> None:
    state = Kropki().new_initial_state()
    assert isinstance(state, KropkiState)
    assert state.current_player() == 1
    assert play(state, "a1").player == 1
    assert state.current_player() == 2
    effect = play(state, "c1")
    assert (effect.player, effect.next_player) == (2, 1)


def test_actions_are_every_point_plus_one_end_action_and_no_pass() -> None:
    game = Kropki(width=7, height=5)
    assert game.num_actions == 7 * 5 + 1
    assert game.end_action == 35
    assert game.action_for(3, 2) == 2 * 7 + 3
    assert game.new_initial_state().legal_actions() == list(range(36))
    with pytest.raises(InvalidActionError) as error:
        game.new_initial_state().apply_action(36)
    assert error.value.code == base.UNKNOWN_ACTION


def test_dot_on_a_dot_is_rejected_as_occupied() -> None:
    state = build("e5", "f5")
    for square in ("e5", "f5"):
        assert reason(state, square) == base.OCCUPIED
        with pytest.raises(IllegalActionError) as error:
            play(state, square)
        assert error.value.code == base.OCCUPIED


def test_off_board_coordinates_are_rejected_as_off_board() -> None:
    game = Kropki()
    for x, y in ((-1, 3), (10, 2), (4, 10), (3, -1)):
        with pytest.raises(InvalidActionError) as error:
            game.action_for(x, y)
        assert error.value.code == base.OFF_BOARD
    with pytest.raises(InvalidActionError) as error:
        game.action_for(1.5, 2)
    assert error.value.code == base.UNKNOWN_ACTION


def test_unknown_action_ids_are_rejected() -> None:
    state = Kropki().new_initial_state()
    for action in (-1, 101, "e5", None, True):
        assert state.illegal_reason(action) == base.UNKNOWN_ACTION
        with pytest.raises(InvalidActionError):
            state.apply_action(action)  # type: ignore[arg-type]


def test_rejected_move_changes_nothing_and_keeps_the_turn() -> None:
    state = build("e4 d5 f5 e6", "e5")
    before = (state.grid(), list(state.history), state.current_player(), state.scores())
    for square in ("e5", "e4"):
        with pytest.raises(IllegalActionError):
            play(state, square)
    assert (state.grid(), list(state.history), state.current_player(), state.scores()) == before


# -- chains and what is inside ------------------------------------------------


def test_four_dots_on_the_four_sides_capture_the_dot_between() -> None:
    state = build("e4 d5 f5", "e5", to_move=1)
    assert at(state, "e5") == "B"
    effect = play(state, "e6")
    assert at(state, "e5") == "b"
    assert state.scores() == (1, 0)
    [territory] = effect.details["territories"]
    assert territory["owner"] == 1
    assert territory["captured"] == [[4, 4]]
    assert sorted(map(tuple, territory["chain"])) == [(3, 4), (4, 3), (4, 5), (5, 4)]
    assert_chain_is_a_closed_polygon(state, territory)


def test_diagonal_gap_is_not_a_hole() -> None:
    # A ring with four diagonal links around d5 and e5: escape is orthogonal only.
    state = build("d4 e4 c5 f5 d6 e6", "d5 e5")
    assert at(state, "d5") == "b" and at(state, "e5") == "b"
    assert state.scores() == (2, 0)


def test_orthogonal_gap_lets_the_dot_escape_until_closed() -> None:
    state = build("e4 d5 f5 d6 f6", "e5")
    assert at(state, "e5") == "B" and at(state, "e6") == "."
    assert state.scores() == (0, 0)
    state.apply_action(filler(state))
    play(state, "e7")
    assert at(state, "e5") == "b" and at(state, "e6") == "1"
    assert state.scores() == (1, 0)


def test_dot_on_edge_is_never_captured() -> None:
    state = build("a3 b4 a5", "a4")
    assert at(state, "a4") == "B"
    assert state.scores() == (0, 0)
    assert all(c not in "12abxy" for c in _edge_chars(state))


def test_edge_is_not_a_wall() -> None:
    # A U of pink open towards the left edge: blue inside it stays free.
    state = build("a3 b3 c4 c5 b6 a6", "b4 b5 a4 a5")
    assert state.scores() == (0, 0)
    assert all(at(state, s) == "B" for s in ("b4", "b5", "a4", "a5"))


def test_dot_on_the_edge_can_be_part_of_a_chain() -> None:
    state = build("b6 a7 c7 b8", "b7")
    assert at(state, "b7") == "b"
    assert at(state, "a7") == "A"


def test_chain_dots_are_never_inside_their_own_enclosure() -> None:
    state = build("e4 d5 f5 e6", "e5")
    for square in ("e4", "d5", "f5", "e6"):
        assert at(state, square) == "A"
    assert state.view()["territory"][state.game.string_to_action("e4")] == "0"


def test_enclosure_around_nothing_takes_nothing_and_stays_playable() -> None:
    state = build("e4 d5 f5 e6", "")
    assert at(state, "e5") == "x"
    assert state.scores() == (0, 0)
    assert state.view()["chains"] == []
    assert state.view()["empty_enclosures"] == [[4, 4, 1]]
    assert reason(state, "e5") is None
    assert state.free_points() == 100 - 4 - 3
    own = state.clone()
    own.apply_action(own.game.end_action)  # blue ends, pink plays into own ring
    effect = play(own, "e5")
    assert effect.details["territories"] == [] and not effect.details["taken"]
    assert at(own, "e5") == "A"


def test_dot_played_into_empty_enclosure_is_taken() -> None:
    state = build("e4 d5 f5 e6", "")
    effect = play(state, "e5")
    assert effect.player == 2
    assert effect.details["taken"] is True
    assert at(state, "e5") == "b"
    assert state.scores() == (1, 0)
    [territory] = effect.details["territories"]
    assert territory["owner"] == 1 and territory["captured"] == [[4, 4]]
    assert_chain_is_a_closed_polygon(state, territory)
    assert reason(state, "e5") == base.OCCUPIED


def test_intruder_takes_the_whole_empty_enclosure_with_it() -> None:
    state = build("d3 e3 c4 f4 c5 f5 d6 e6", "")
    assert [at(state, s) for s in ("d4", "e4", "d5", "e5")] == ["x"] * 4
    play(state, "e5")
    assert [at(state, s) for s in ("d4", "e4", "d5", "e5")] == ["1", "1", "1", "b"]
    assert state.scores() == (1, 0)
    assert reason(state, "d4") == kropki_engine.INSIDE_TERRITORY


def test_mover_captures_first_then_own_dot_lives() -> None:
    # Pink's diamond around empty c4; blue plays into it and that very dot
    # closes blue's ring around pink's d4.
    state = build("c3 b4 d4 c5", "d3 e4 d5")
    assert at(state, "c4") == "x"
    effect = play(state, "c4")
    assert effect.details["taken"] is False
    assert at(state, "c4") == "B"
    assert at(state, "d4") == "a"
    assert state.scores() == (0, 1)
    assert [t["owner"] for t in effect.details["territories"]] == [2]


def test_territory_cannot_be_played_by_anyone_even_its_owner() -> None:
    state = build("e4 d5 f5 d6 f6 e7", "e5")
    assert at(state, "e6") == "1"
    assert reason(state, "e6") == kropki_engine.INSIDE_TERRITORY  # blue to move
    state.apply_action(filler(state))
    assert state.current_player() == 1
    assert reason(state, "e6") == kropki_engine.INSIDE_TERRITORY
    with pytest.raises(IllegalActionError) as error:
        play(state, "e6")
    assert error.value.code == kropki_engine.INSIDE_TERRITORY


def test_captured_dots_never_chain_again() -> None:
    # Pink takes e5; blue's f4, g5, f6 with the dead e5 would surround f5.
    state = build("e4 d5 f5 e6", "e5 f4 g5 f6")
    assert at(state, "e5") == "b"
    assert at(state, "f5") == "A"
    assert state.scores() == (1, 0)


def test_tightest_chain_takes_only_the_smallest_area() -> None:
    # Pink rings the empty row d5 e5 f5, plays e5 herself, then blue enters
    # d5: only the small ring around d5 becomes territory; f5 stays free.
    state = build("d4 e4 f4 c5 g5 d6 e6 f6", "")
    assert [at(state, s) for s in ("d5", "e5", "f5")] == ["x"] * 3
    state.apply_action(filler(state))
    play(state, "e5")
    play(state, "d5")
    assert at(state, "d5") == "b"
    assert at(state, "f5") == "x"
    assert reason(state, "f5") is None
    assert state.scores() == (1, 0)


def test_two_lobes_touching_at_a_dot_are_two_enclosures() -> None:
    # e5 closes a diamond around d5 and another around f5 at once.
    state = build("d4 c5 d6 f4 g5 f6", "d5 f5", to_move=1)
    effect = play(state, "e5")
    territories = effect.details["territories"]
    assert len(territories) == 2
    assert sorted(tuple(t["captured"][0]) for t in territories) == [(3, 4), (5, 4)]
    for territory in territories:
        assert_chain_is_a_closed_polygon(state, territory)
        assert len(territory["chain"]) == 4
    assert state.scores() == (2, 0)


def test_pendant_hole_is_swallowed_but_notch_hole_is_not() -> None:
    # Pink's empty diamonds: the notch one (hole f3) lies outside the big
    # ring, which runs e3-f4-g3 along it; the pendant one (hole f5) hangs into
    # the ring from f4. c4 closes the ring around blue's e7 and g7.
    state = build(
        "f2 e3 g3 f4 e5 g5 f6 d3 h3 i4 i5 i6 i7 h8 g8 f8 e8 d8 c7 c6 c5 c4",
        "g7 e7",
        width=12,
        height=12,
    )
    assert at(state, "f5") == "1"
    assert at(state, "f3") == "x"
    assert state.scores() == (2, 0)
    [chain] = state.view()["chains"]
    assert [3, 2] in chain["chain"] and [5, 3] in chain["chain"] and [5, 1] not in chain["chain"]


def test_nested_rings_closed_by_one_move_take_only_the_inner_one() -> None:
    # e4 closes the diamond around blue's e5 and, with it, a big ring that
    # holds nothing else: only the diamond becomes territory.
    state = build(
        "d5 f5 e6 c3 d3 f3 g3 h4 h5 h6 h7 g8 f8 e8 d8 c8 b7 b6 b5 b4 e4",
        "e5",
        width=12,
        height=12,
    )
    assert at(state, "e5") == "b"
    assert state.scores() == (1, 0)
    assert at(state, "c5") == "x" and at(state, "g6") == "x"
    assert len(state.view()["chains"]) == 1


def test_ring_around_own_territory_takes_nothing_new() -> None:
    # Pink takes g7, then rings that territory with nothing else inside: the
    # ring stays an empty enclosure until blue plays into it.
    ring = "g3 f4 h4 e5 i5 d6 j6 e7 i7 f8 h8 g9"
    state = build("g6 f7 h7 g8 " + ring, "g7", width=14, height=14)
    assert state.scores() == (1, 0)
    assert at(state, "g5") == "x" and at(state, "e6") == "x"
    effect = play(state, "g5")
    assert effect.details["taken"]
    assert at(state, "g5") == "b" and at(state, "e6") == "1"
    assert state.scores() == (2, 0)


def test_bigger_enclosure_takes_existing_territory() -> None:
    """FAQ: their territory is huge, is the game over? No: ring it."""
    inner = "g6 f7 h7 g8"
    middle = "g5 f6 h6 e7 i7 f8 h8 g9"
    outer = "g4 f5 h5 e6 i6 d7 j7 e8 i8 f9 h9 g10"
    state = build(inner, "g7 " + middle[:-3], width=16, height=16, to_move=2)
    assert state.scores() == (1, 0)
    effect = play(state, "g9")  # blue closes the middle ring around pink's territory
    assert effect.player == 2
    assert state.scores() == (0, 4)
    assert at(state, "g7") == "B", "the old captive is freed and stops counting"
    assert all(at(state, s) == "a" for s in inner.split())
    for square in outer.split():
        play(state, square)
        if square != outer.split()[-1]:
            state.apply_action(filler(state))
    assert state.scores() == (9, 0)
    assert all(at(state, s) == "A" for s in inner.split()), "pink's dots are freed again"
    assert all(at(state, s) == "b" for s in [*middle.split(), "g7"])


def test_captured_dots_stay_on_the_board() -> None:
    state = build("e4 d5 f5 e6", "e5")
    dots = near_dots(state)
    assert [4, 4, 2, 1] in dots
    assert len(dots) == 5


# -- scores, ending and the result --------------------------------------------


def test_score_counts_only_opponent_dots_in_own_territory() -> None:
    """FAQ: my own dots that they surrounded never count for me."""
    state = build("e4 d5 f5 e6 b2", "e5 b1 a2 c2")
    play(state, "b3")  # blue rings pink's b2
    assert state.scores() == (1, 1)
    assert at(state, "b2") == "a"


def test_higher_score_wins() -> None:
    state = build("e4 d5 f5 e6", "e5")
    state.apply_action(state.game.end_action)
    state.apply_action(state.game.end_action)
    outcome = state.outcome()
    assert outcome == base.Outcome(winner=1, reason=kropki_engine.SCORE, scores=(1, 0))
    assert state.returns() == (1.0, -1.0)


def test_equal_scores_draw() -> None:
    state = build("e4 d5 f5 e6 b2", "e5 b1 a2 c2 b3")
    state.apply_action(state.game.end_action)
    state.apply_action(state.game.end_action)
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw
    assert outcome.reason == kropki_engine.SCORE and outcome.scores == (1, 1)
    assert state.returns() == (0.0, 0.0)


def test_ending_the_game_lets_opponent_play_on_alone() -> None:
    """FAQ: ending is not a draw offer: the other player goes on capturing."""
    state = build("e4 d5 f5", "e5")
    effect = state.apply_action(state.game.end_action)
    assert effect.player == 2 and effect.details["ended"] is True
    assert effect.notation == "zakończ"
    assert effect.next_player == 1
    assert not state.is_terminal()
    play(state, "a1")
    assert state.current_player() == 1, "pink keeps the turn while blue has ended"
    play(state, "e6")
    assert state.scores() == (1, 0)
    assert state.current_player() == 1
    assert state.view()["ended"] == [False, True]


def test_ended_player_keeps_dots_and_score() -> None:
    state = build("b2 e4 d5 f5 e6", "b1 a2 c2 e5")
    play(state, "b3")  # blue takes b2
    assert state.scores() == (1, 1)
    state.apply_action(state.game.end_action)  # pink ends
    assert state.scores() == (1, 1)
    assert state.current_player() == 2
    assert at(state, "e4") == "A"


def test_game_ends_when_both_ended() -> None:
    state = build("e4", "e5")
    state.apply_action(state.game.end_action)
    assert not state.is_terminal()
    state.apply_action(state.game.end_action)
    assert state.is_terminal()
    assert state.current_player() is None
    assert state.legal_actions() == []


def test_game_ends_when_no_free_point() -> None:
    """Territory does not count as a free point."""
    game = Kropki(width=5, height=5)
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    # Pink rings c3, blue enters it (taken); then everything else is filled.
    for square in ["c2", "a1", "b3", "a2", "d3", "a3", "c4", "c3"]:
        play(state, square)
    assert at(state, "c3") == "b"
    while not state.is_terminal():
        free = [a for a in state.legal_actions() if a != game.end_action]
        assert free, "the game must end when the last free point is gone"
        state.apply_action(free[0])
    assert state.free_points() == 0
    assert "." not in state.grid()
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == kropki_engine.SCORE


def test_last_free_point_swallowed_by_territory_ends_the_game() -> None:
    game = Kropki(width=5, height=5)
    state = game.new_initial_state()
    assert isinstance(state, KropkiState)
    pink = ["c3", "a1", "a2", "a3", "a4", "a5", "b1", "b2", "b5", "c1", "d1", "e1"]
    blue = ["c2", "b3", "d3", "b4", "d4", "d2", "e2", "e3", "e4", "e5", "d5"]  # a ring around c3 c4, open at c5
    for i, square in enumerate(pink):
        play(state, square)
        if i < len(blue):
            play(state, blue[i])
    assert state.free_points() == 2 and state.current_player() == 2
    effect = play(state, "c5")
    [territory] = effect.details["territories"]
    assert territory["points"] == [[2, 3]] and territory["captured"] == [[2, 2]]
    assert state.free_points() == 0
    assert state.is_terminal() and effect.next_player is None
    assert state.outcome() == base.Outcome(winner=2, reason=kropki_engine.SCORE, scores=(0, 1))


def test_end_only_on_your_turn() -> None:
    state = build("e4", "e5")
    end = state.game.end_action
    assert state.current_player() == 1
    assert state.illegal_reason_for(2, end) == base.NOT_YOUR_TURN
    assert state.illegal_reason_for(1, end) is None
    assert state.illegal_reason_for(2, state.game.string_to_action("a1")) == base.NOT_YOUR_TURN


def test_player_who_has_ended_can_move_no_more() -> None:
    state = build("e4", "e5")
    state.apply_action(state.game.end_action)  # pink ends
    a1 = state.game.string_to_action("a1")
    assert state.has_ended(1) and not state.has_ended(2)
    assert state.illegal_reason_for(1, a1) == kropki_engine.PLAYER_HAS_ENDED
    assert state.illegal_reason_for(1, state.game.end_action) == kropki_engine.PLAYER_HAS_ENDED
    assert state.illegal_reason_for(2, a1) is None
    assert state.illegal_reason_for(2, state.game.string_to_action("e5")) == base.OCCUPIED


def test_finished_game_rejects_every_action_as_game_over() -> None:
    state = build("e4", "e5")
    state.apply_action(state.game.end_action)
    state.apply_action(state.game.end_action)
    for action in (0, state.game.end_action):
        assert state.illegal_reason(action) == base.GAME_OVER
        with pytest.raises(GameOverError) as error:
            state.apply_action(action)
        assert error.value.code == base.GAME_OVER


# -- notation, storage, copies and pictures -----------------------------------


@pytest.mark.parametrize("size", [(5, 5), (10, 10), (20, 20), (39, 32)])
def test_notation_round_trips_for_every_action(size: tuple[int, int]) -> None:
    game = Kropki(width=size[0], height=size[1])
    names = [game.action_to_string(a) for a in range(game.num_actions)]
    assert len(set(names)) == game.num_actions
    assert [game.string_to_action(name) for name in names] == list(range(game.num_actions))


def test_notation_reads_columns_as_letters_and_rows_from_the_top() -> None:
    game = Kropki(width=39, height=32)
    assert game.action_to_string(0) == "a1"
    assert game.action_to_string(game.action_for(4, 4)) == "e5"
    assert game.action_to_string(game.action_for(26, 0)) == "aa1"
    assert game.action_to_string(game.action_for(38, 31)) == "am32"
    assert game.action_to_string(game.end_action) == "zakończ"
    for text in ("end", "zakoncz", " Zakończ "):
        assert game.string_to_action(text) == game.end_action
    assert game.string_to_action("E5") == game.action_for(4, 4)


@pytest.mark.parametrize("text", ["", "e", "5", "e0", "e33", "an1", "5e", "e-1", "ę5"])
def test_bad_notation_is_an_invalid_action(text: str) -> None:
    with pytest.raises(InvalidActionError):
        Kropki(width=39, height=32).string_to_action(text)


def test_to_dict_round_trips() -> None:
    state = build("e4 d5 f5 e6", "e5")
    state.apply_action(state.game.end_action)
    data = json.loads(json.dumps(state.to_dict()))
    assert data == {"game": "kropki", "params": {"width": 10, "height": 10}, "history": state.history}
    again = state.game.state_from_dict(data)
    assert isinstance(again, KropkiState)
    assert again == state
    assert again.grid() == state.grid()
    assert again.view() == state.view()
    assert again.current_player() == state.current_player()
    with pytest.raises(InvalidParamsError):
        Kropki(width=20, height=20).state_from_dict(data)


def test_clone_is_independent() -> None:
    state = build("e4 d5 f5", "e5", to_move=1)
    copy = state.clone()
    assert copy == state and copy.grid() == state.grid()
    play(copy, "e6")
    assert copy.scores() == (1, 0)
    assert state.scores() == (0, 0)
    assert at(state, "e6") == "." and at(state, "e5") == "B"
    assert len(state.history) + 1 == len(copy.history)
    assert state.view()["chains"] == []
    play(state, "a1")
    assert at(copy, "a1") == "."


def test_view_shows_dots_territory_chains_and_empty_enclosures() -> None:
    state = build("e4 d5 f5 e6 b2 a3 c3", "e5")
    state.apply_action(state.game.end_action)  # blue ends
    play(state, "b4")  # pink rings the empty b3
    view = state.view()
    json.dumps(view)
    assert (view["width"], view["height"]) == (10, 10)
    assert view["last"] == [1, 3]
    assert view["ended"] == [False, True]
    assert view["scores"] == [1, 0]
    assert view["empty_enclosures"] == [[1, 2, 1]]
    assert len(view["territory"]) == 100
    assert view["territory"][44] == "1" and view["territory"].count("1") == 1
    [chain] = view["chains"]
    assert chain["owner"] == 1
    assert_chain_is_a_closed_polygon(state, chain)
    assert sorted(tuple(d) for d in near_dots(state) if d[2] == 2) == [(4, 4, 2, 1)]


def test_replay_fields_use_the_vector_alphabet() -> None:
    state = build("e4 d5 f5 e6 b2 a3 c3 b4", "e5")
    grid = state.replay_fields()["grid"]
    assert len(grid) == 100 and set(grid) <= set(".xy12ABab")
    assert grid[4 * 10 + 4] == "b" and grid[2 * 10 + 1] == "x" and grid[3 * 10 + 4] == "A"


def test_text_board_shows_the_grid_with_coordinates() -> None:
    state = build("e4 d5 f5 e6", "e5")
    text = str(state)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghij")
    assert lines[5].split() == ["5", ".", ".", ".", "A", "b", "A", ".", ".", ".", "."]
    assert "1:0" in text


def _edge_chars(state: KropkiState) -> str:
    width, height = state.game.width, state.game.height
    grid = state.grid()
    return "".join(
        grid[y * width + x] for y in range(height) for x in range(width) if x in (0, width - 1) or y in (0, height - 1)
    )
