"""The engine contract, checked over seeded random games of every registered
game and size (OpenSpiel's random_sim_test, with hypothesis choosing seeds)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.dots_and_boxes.engine import BOXES, BOXES_MAJORITY
from games.engine import GAMES, EngineError, Game, State, get_game
from games.engine.base import ERROR_CODES
from games.kropki.engine import SCORE

# (slug, params, hypothesis examples): every game, the site's sizes and small
# ones; the big Kropki board gets fewer examples to stay fast.
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("kropki", {"width": 5, "height": 5}, 25),
    ("kropki", {"width": 10, "height": 10}, 15),
    ("kropki", {"width": 20, "height": 20}, 4),
    ("connect4", {}, 25),
    ("dots_and_boxes", {"rows": 2, "cols": 2}, 25),
    ("dots_and_boxes", {"rows": 5, "cols": 5}, 25),
    ("pilkarzyki", {}, 25),
]
IDS = [f"{slug}-{'x'.join(map(str, params.values())) or 'std'}" for slug, params, _ in CONFIGS]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
# The games without a score (won by a line, a goal): their scores() is always (0, 0), as their
# engines define it. Every other game is decided by its score, ending for one of SCORE_REASONS.
UNSCORED = {"connect4", "pilkarzyki"}
SCORE_REASONS = {SCORE, BOXES, BOXES_MAJORITY}


def test_every_registered_game_is_covered() -> None:
    assert {slug for slug, _, _ in CONFIGS} == set(GAMES)


def random_action(state: State, rng: random.Random) -> int:
    """A uniformly random legal action; Kropki's "end the game" only rarely,
    so that games reach the end of the board as well as early ends."""
    actions = state.legal_actions()
    end = getattr(state.game, "end_action", None)
    if end in actions and len(actions) > 1 and rng.random() < 0.99:
        actions = [a for a in actions if a != end]
    return rng.choice(actions)


def fingerprint(state: State) -> tuple:
    return (
        str(state),
        json.dumps(state.view(), sort_keys=True),
        state.scores(),
        state.current_player(),
        state.outcome(),
        list(state.history),
        json.dumps(state.replay_fields(), sort_keys=True),
    )


def board_scores(state: State) -> tuple[int, int]:
    """The scores as the board shows them, independently of ``scores()``."""
    slug = state.game.slug
    if slug == "kropki":
        grid = state.replay_fields()["grid"]
        return grid.count("b"), grid.count("a")
    if slug == "dots_and_boxes":
        boxes = state.replay_fields()["boxes"]
        return boxes.count("1"), boxes.count("2")
    assert slug in UNSCORED, f"{slug}: no way to count its score from the board here"
    return (0, 0)


def check_final_scores(state: State) -> None:
    """The score at the end agrees with the outcome, for every game: a game decided by its
    score is won by the higher score (equal scores draw); a game without one keeps (0, 0)
    and ends for a reason of its own."""
    outcome = state.outcome()
    assert outcome is not None
    scores = state.scores()
    assert outcome.scores == scores
    one, two = scores
    if state.game.slug in UNSCORED:
        assert scores == (0, 0)
        assert outcome.reason not in SCORE_REASONS, outcome
        return
    assert outcome.reason in SCORE_REASONS, outcome
    assert outcome.winner == (1 if one > two else 2 if two > one else None), outcome
    if outcome.reason in (BOXES, BOXES_MAJORITY):
        num_boxes = state.game.num_boxes  # type: ignore[attr-defined]  # Kropki i kwadraty's
        assert one + two <= num_boxes
        if outcome.reason == BOXES:  # every segment drawn: every box is someone's
            assert one + two == num_boxes
        else:  # ended early: the winner holds more than half
            assert 2 * max(one, two) > num_boxes


def check_every_ply(state: State, game: Game) -> None:
    over = state.outcome() is not None
    assert state.is_terminal() == over == (state.current_player() is None)
    assert (state.legal_actions() == []) == over
    assert sum(state.returns()) == 0
    scores = state.scores()
    assert isinstance(scores, tuple) and len(scores) == 2
    assert all(type(s) is int and s >= 0 for s in scores), scores
    assert scores == board_scores(state)
    if over:
        assert (outcome := state.outcome()) is not None and outcome.scores == state.scores()
    assert len(state.history) <= game.max_game_length


def check_deeply(state: State, game: Game, rng: random.Random) -> None:
    before = fingerprint(state)
    # Replaying the history gives the same state; so do to_dict and clone.
    assert fingerprint(game.state_from_history(state.history)) == before
    data = json.loads(json.dumps(state.to_dict()))
    assert fingerprint(game.state_from_dict(data)) == before
    assert game.state_from_dict(data) == state
    copy = state.clone()
    assert fingerprint(copy) == before
    # illegal_reason is None exactly for the legal actions.
    legal = set(state.legal_actions())
    for action in range(game.num_actions):
        reason = state.illegal_reason(action)
        assert (reason is None) == (action in legal), (action, reason)
        # A game refuses with the contract's codes and those it names as its own.
        assert reason is None or reason in game.error_codes
        assert set(ERROR_CODES) <= set(game.error_codes)
    # An illegal action raises with its code and changes nothing.
    illegal = [a for a in range(game.num_actions) if a not in legal]
    tries: list[object] = [*rng.sample(illegal, min(3, len(illegal))), -1, game.num_actions, "1", None, 1.0, True]
    for bad in tries:
        with pytest.raises(EngineError) as info:
            state.apply_action(bad)  # type: ignore[arg-type]  # deliberately not always an int
        assert info.value.code == state.illegal_reason(bad)
        assert fingerprint(state) == before
    # The clone is independent in both directions.
    if legal:
        copy.apply_action(rng.choice(sorted(legal)))
        assert fingerprint(state) == before
        assert fingerprint(game.state_from_history(copy.history)) == fingerprint(copy)
        state.clone().apply_action(rng.choice(sorted(legal)))
        assert fingerprint(state) == before


def play_and_check(slug: str, params: dict[str, Any], seed: int) -> None:
    game = get_game(slug, **params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    deep_plies = set(rng.sample(range(game.max_game_length), 3))
    playable: set[int] = set()  # Kropki: points a dot may still go on
    dots: dict[int, str] = {}  # Kropki: point -> colour of the dot there
    while True:
        check_every_ply(state, game)
        if slug == "kropki":
            grid = state.replay_fields()["grid"]
            now_playable = {i for i, ch in enumerate(grid) if ch in ".xy"}
            now_dots = {i: ch.upper() for i, ch in enumerate(grid) if ch in "ABab"}
            if state.history:
                # Territory never returns to play, and dots are never removed
                # (a captured dot may only change hands, never colour).
                assert now_playable <= playable
                assert all(now_dots.get(i) == colour for i, colour in dots.items())
            playable, dots = now_playable, now_dots
        if len(state.history) in deep_plies or state.is_terminal():
            check_deeply(state, game, rng)
        if state.is_terminal():
            break
        effect = state.apply_action(random_action(state, rng))
        assert effect.player in (1, 2) and effect.next_player == state.current_player()
        assert effect.notation == game.action_to_string(effect.action)
        json.dumps(effect.details)  # pages get it as JSON
    assert len(state.history) <= game.max_game_length
    out = state.outcome()
    assert out is not None and out.winner in (1, 2, None)
    check_final_scores(state)


@pytest.mark.parametrize(("slug", "params", "examples"), CONFIGS, ids=IDS)
def test_random_games_keep_the_contract(slug: str, params: dict[str, Any], examples: int) -> None:
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def check(seed: int) -> None:
        play_and_check(slug, params, seed)

    check()


@pytest.mark.parametrize(("slug", "params", "examples"), CONFIGS, ids=IDS)
def test_notation_round_trips_for_every_action(slug: str, params: dict[str, Any], examples: int) -> None:
    game = get_game(slug, **params)
    texts = set()
    for action in range(game.num_actions):
        text = game.action_to_string(action)
        assert game.string_to_action(text) == action
        texts.add(text)
    assert len(texts) == game.num_actions
    for bad in (-1, game.num_actions, "3", None):
        with pytest.raises(EngineError):
            game.action_to_string(bad)  # type: ignore[arg-type]
    for bad_text in ("", "???", "zz99-zz100"):
        with pytest.raises(EngineError):
            game.string_to_action(bad_text)


@pytest.mark.parametrize(("slug", "params", "examples"), CONFIGS, ids=IDS)
def test_new_state_is_the_start(slug: str, params: dict[str, Any], examples: int) -> None:
    game = get_game(slug, **params)
    state = game.new_initial_state()
    assert state.current_player() == 1 and state.history == [] and state.scores() == (0, 0)
    assert state.outcome() is None and state.legal_actions() == sorted(state.legal_actions())
    assert game == get_game(slug, **params) and hash(game) == hash(get_game(slug, **params))
    assert isinstance(game.name, str) and game.name
