"""Piłkarzyki: one test per rule of SPEC.md's section "Piłkarzyki", named
after the rule, plus the engine's notation, errors, effect and view."""

from __future__ import annotations

import pytest

from games.engine import GAMES, get_game
from games.engine.base import (
    GAME_OVER,
    OFF_BOARD,
    SEGMENT_DRAWN,
    EngineError,
    GameOverError,
    IllegalActionError,
)
from games.pilkarzyki.engine import (
    GOAL,
    NOT_A_GOAL_ENTRY,
    OWN_GOAL,
    STUCK,
    Pilkarzyki,
    PilkarzykiState,
)

N, NE, E, SE, S, SW, W, NW = range(8)
GAME = Pilkarzyki()


def play(*actions: int) -> PilkarzykiState:
    state = GAME.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state  # type: ignore[return-value]


def refused(state: PilkarzykiState, action: int) -> str:
    """The code ``action`` is refused with; checks the refusal changes nothing."""
    before = (state.view(), list(state.history), state.current_player())
    reason = state.illegal_reason(action)
    assert reason is not None and action not in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    assert info.value.code == reason
    assert (state.view(), list(state.history), state.current_player()) == before
    return reason


# Ball on the post (3, 0), pink to move again after the bounce there.
ON_LEFT_POST = (N, N, N, N, NW)


# -- the field ------------------------------------------------------------------


def test_the_field_is_eight_squares_wide_and_ten_long_with_goals_three_points_wide() -> None:
    view = GAME.new_initial_state().view()
    assert (view["width"], view["length"]) == (8, 10)
    assert view["goals"]["top"]["points"] == [[3, -1], [4, -1], [5, -1]]
    assert view["goals"]["bottom"]["points"] == [[3, 11], [4, 11], [5, 11]]
    # The corners are points of the field: the ball can get there.
    state = play(NW, NW, NW, N)
    assert state.ball_xy == (1, 1) and state.illegal_reason(NW) is None


def test_the_ball_starts_in_the_middle_and_pink_moves_first() -> None:
    state = GAME.new_initial_state()
    assert isinstance(state, PilkarzykiState)
    assert state.ball_xy == (4, 5) and state.current_player() == 1
    assert state.legal_actions() == list(range(8))


def test_pink_attacks_the_top_goal() -> None:
    state = play(*ON_LEFT_POST)
    assert state.current_player() == 1
    state.apply_action(NE)  # (3, 0) -> (4, -1)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 1 and outcome.reason == GOAL


def test_blue_attacks_the_bottom_goal() -> None:
    # pink (4,6), blue (4,7), pink (4,8), blue (4,9), pink (5,9), blue (5,10) post: bounce
    state = play(S, S, S, S, E, S)
    assert state.ball_xy == (5, 10) and state.current_player() == 2
    state.apply_action(SW)  # (5, 10) -> (4, 11)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 2 and outcome.reason == GOAL


# -- a move -----------------------------------------------------------------------


def test_actions_are_the_eight_directions_clockwise_from_north_towards_the_top_goal() -> None:
    expected = [(4, 4), (5, 4), (5, 5), (5, 6), (4, 6), (3, 6), (3, 5), (3, 4)]
    for action, point in enumerate(expected):
        assert play(action).ball_xy == point
        assert GAME.step(4, 5, action) == point
    assert [GAME.action_to_string(a) for a in range(8)] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert GAME.string_to_action(" ne ") == NE and GAME.num_actions == 8


def test_a_move_takes_the_ball_along_a_segment_never_used_before() -> None:
    state = play(N)  # (4,5)-(4,4) is used now
    assert refused(state, S) == SEGMENT_DRAWN  # back along it
    state = play(N, E, SW)  # back at the start, by another segment: bounce, pink again
    assert state.current_player() == 1
    assert refused(state, N) == SEGMENT_DRAWN  # the first segment, the other way round
    assert refused(state, NE) == SEGMENT_DRAWN  # the segment just used


def test_the_sides_of_the_field_are_used_from_the_start() -> None:
    state = play(W, W, W, W)  # blue reaches (0, 5) and bounces
    assert state.ball_xy == (0, 5) and state.current_player() == 2
    assert refused(state, N) == SEGMENT_DRAWN and refused(state, S) == SEGMENT_DRAWN
    assert refused(state, E) == SEGMENT_DRAWN  # the way the ball came
    assert state.legal_actions() == [NE, SE]


def test_the_goal_lines_are_used_from_the_start_except_the_goal_mouths() -> None:
    state = play(*ON_LEFT_POST)
    assert refused(state, W) == SEGMENT_DRAWN  # (3,0)-(2,0): goal line outside the goal
    state.apply_action(E)  # (3,0)-(4,0): the goal mouth is open
    assert state.ball_xy == (4, 0)
    border = {tuple(s) for s in state.view()["border"]}
    for x in (0, 1, 2, 5, 6, 7):
        assert (x, 0, x + 1, 0) in border and (x, 10, x + 1, 10) in border
    for x in (3, 4):
        assert (x, 0, x + 1, 0) not in border and (x, 10, x + 1, 10) not in border


def test_the_goals_sides_and_backs_are_used_from_the_start() -> None:
    border = {tuple(s) for s in GAME.new_initial_state().view()["border"]}
    for goal_y, line_y in ((-1, 0), (11, 10)):
        low, high = sorted((goal_y, line_y))
        assert (3, low, 3, high) in border and (5, low, 5, high) in border
        assert (3, goal_y, 4, goal_y) in border and (4, goal_y, 5, goal_y) in border
    assert len(border) == 2 * 10 + 2 * 6 + 2 * 4
    state = play(*ON_LEFT_POST)
    assert refused(state, N) == NOT_A_GOAL_ENTRY  # along the goal's side


def test_a_goal_point_is_entered_only_from_the_goal_line_between_the_posts() -> None:
    # From the posts: only the middle goal point.
    state = play(*ON_LEFT_POST)
    assert state.illegal_reason(NE) is None
    assert refused(state, N) == NOT_A_GOAL_ENTRY
    assert refused(state, NW) == OFF_BOARD
    # From the middle of the mouth: all three goal points.
    state = play(N, N, N, N, N)  # pink puts the ball on (4, 0); blue to move
    assert state.ball_xy == (4, 0)
    assert {NW, N, NE} <= set(state.legal_actions())
    # From beside the goal (2, 0): not a goal entry.
    state = play(N, N, N, N, W, NW)  # blue lands on (2, 0) and bounces
    assert state.ball_xy == (2, 0) and state.current_player() == 2
    assert refused(state, NE) == NOT_A_GOAL_ENTRY
    # The bottom goal likewise: from (4, 10) the three points, from (5, 10) one.
    state = play(S, S, S, S, S)
    assert state.ball_xy == (4, 10) and {SW, S, SE} <= set(state.legal_actions())
    state = play(S, S, S, S, E, S)
    assert state.ball_xy == (5, 10)
    assert state.illegal_reason(SW) is None
    assert refused(state, S) == NOT_A_GOAL_ENTRY and refused(state, SE) == OFF_BOARD


def test_a_step_off_the_field_is_refused() -> None:
    state = play(W, W, W, W)
    assert state.ball_xy == (0, 5)
    for action in (SW, W, NW):
        assert refused(state, action) == OFF_BOARD


def test_lines_may_cross() -> None:
    state = play(NE, W)  # (4,5)-(5,4), then (5,4)-(4,4)
    state.apply_action(SE)  # (4,4)-(5,5) crosses (4,5)-(5,4)
    assert state.ball_xy == (5, 5)


# -- the bounce --------------------------------------------------------------------


def test_landing_on_a_point_with_a_used_segment_gives_the_same_player_another_move() -> None:
    state = play(N, E)
    effect = state.apply_action(SW)  # pink lands on (4, 5), used by the first move
    assert effect.details["bounced"] and effect.details["extra_move"]
    assert state.current_player() == 1 and state.moves_again


def test_the_border_counts_every_edge_point_bounces_both_posts_included() -> None:
    state = play(W, W, W, W)  # blue lands on the side
    assert state.current_player() == 2 and state.moves_again
    state = play(*ON_LEFT_POST)  # pink lands on the left post
    assert state.current_player() == 1
    state = play(S, S, S, S, E, S)  # blue lands on the right bottom post
    assert state.current_player() == 2


def test_the_middle_of_a_goal_mouth_does_not_bounce() -> None:
    state = play(N, N, N, N, N)  # pink lands on (4, 0)
    assert state.ball_xy == (4, 0) and state.current_player() == 2
    state = play(S, S, S, S, S)
    assert state.ball_xy == (4, 10) and state.current_player() == 2


def test_landing_on_a_fresh_point_passes_the_turn() -> None:
    state = GAME.new_initial_state()
    assert isinstance(state, PilkarzykiState)
    effect = state.apply_action(N)
    assert not effect.details["bounced"] and not effect.details["extra_move"]
    assert effect.next_player == 2 and not state.moves_again


def test_the_starting_point_has_no_segment_until_the_first_move() -> None:
    state = GAME.new_initial_state()
    state.apply_action(N)
    assert state.current_player() == 2  # the first move itself does not bounce
    state = play(N, E, SW)  # but coming back to it does
    assert state.ball_xy == (4, 5) and state.current_player() == 1


# -- the end --------------------------------------------------------------------------


def test_the_ball_on_a_goal_point_ends_the_match_and_the_attacker_of_that_goal_wins() -> None:
    state = play(*ON_LEFT_POST)
    effect = state.apply_action(NE)
    assert effect.details["goal"] == "top" and effect.next_player is None
    assert state.is_terminal() and state.current_player() is None and state.legal_actions() == []
    assert state.returns() == (1.0, -1.0)


def test_an_own_goal_loses() -> None:
    state = play(N, N, N, N, N)  # blue to move on (4, 0)
    effect = state.apply_action(N)
    assert effect.player == 2 and effect.details["goal"] == "top"
    out = state.outcome()
    assert out is not None
    assert out.winner == 1 and out.reason == OWN_GOAL


def test_a_player_who_must_move_and_has_no_unused_segment_loses_the_ball_is_stuck() -> None:
    # pink (3,4), blue (2,3), pink (1,2), blue (1,1), pink into the corner (0,0):
    # a bounce, and every segment there is used.
    state = play(NW, NW, NW, N)
    effect = state.apply_action(NW)
    assert effect.details["stuck"] == 1 and effect.details["bounced"] and not effect.details["extra_move"]
    out = state.outcome()
    assert out is not None
    assert out.winner == 2 and out.reason == STUCK and state.ball_xy == (0, 0)


def test_there_is_no_draw_every_finished_game_has_a_winner() -> None:
    import random

    for seed in range(30):
        rng = random.Random(seed)
        state = GAME.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winner in (1, 2) and outcome.reason in (GOAL, OWN_GOAL, STUCK)
        assert state.scores() == (0, 0) and sum(state.returns()) == 0


def test_nothing_is_legal_once_the_game_is_over() -> None:
    state = play(*ON_LEFT_POST, NE)
    assert state.illegal_reason(S) == GAME_OVER
    with pytest.raises(GameOverError):
        state.apply_action(S)


# -- the engine's contract --------------------------------------------------------------


def test_the_game_is_registered_and_takes_no_parameters() -> None:
    assert GAMES["pilkarzyki"] is Pilkarzyki and get_game("pilkarzyki") == GAME
    assert GAME.name == "Piłkarzyki"
    with pytest.raises(ValueError):
        get_game("pilkarzyki", width=10)


def test_the_field_has_316_segments_a_game_can_use() -> None:
    # 76 horizontal (9 inner rows of 8, plus two mouths at each end), 70
    # vertical, 160 diagonal, 5 goal entries per goal.
    assert GAME.max_game_length == 76 + 70 + 160 + 10


def test_notation_and_action_ids_are_checked() -> None:
    for bad in (-1, 8, "N", None, True):
        with pytest.raises(EngineError):
            GAME.action_to_string(bad)  # type: ignore[arg-type]
    for text in ("", "north", "0", "NNE"):
        with pytest.raises(EngineError):
            GAME.string_to_action(text)
    assert GAME.action_between(4, 5, 3, 4) == NW
    with pytest.raises(EngineError):
        GAME.action_between(4, 5, 6, 5)


def test_the_effect_names_the_segment_the_bounce_and_the_end() -> None:
    state = GAME.new_initial_state()
    details = state.apply_action(NE).details
    assert details == {
        "direction": NE,
        "from": [4, 5],
        "to": [5, 4],
        "segment": [4, 5, 5, 4],
        "bounced": False,
        "extra_move": False,
        "goal": None,
        "stuck": None,
    }


def test_the_view_shows_the_ball_every_used_segment_with_its_owner_and_the_border() -> None:
    state = play(N, E, SW)
    view = state.view()
    assert view["ball"] == [4, 5]
    assert view["segments"] == [[4, 5, 4, 4, 1], [4, 4, 5, 4, 2], [5, 4, 4, 5, 1]]
    assert len(view["border"]) == 40 and [0, 0, 0, 1] in view["border"]
    assert view["to_move"] == 1 and view["moves_again"] is True
    assert view["turn"] == [[5, 4], [4, 5]]  # pink's turn so far
    assert view["legal"] == state.legal_actions()
    assert state.replay_fields() == {"ball": [4, 5], "moves_again": True}


def test_clone_and_to_dict_give_the_same_position() -> None:
    state = play(N, E, SW, W)
    copy = state.clone()
    copy.apply_action(W)
    assert state.view() != copy.view() and len(state.history) == 4
    again = GAME.state_from_dict(state.to_dict())
    assert again.view() == state.view() and str(again) == str(state)
