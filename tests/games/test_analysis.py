"""The computer's review of finished matches (issue 28): the evaluation and classification of
scripted games with known blunders in each game, the service's bounds (guests, one at a time,
the daily cap, a stored review reused, a failed one asked again) and the record page."""

from __future__ import annotations

import math
import random
import re
from datetime import timedelta
from typing import Any, ClassVar

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games.bots.review import BLUNDER, MISTAKE, Evaluation, analyse, classify, game_accuracy, move_accuracy
from games.connect4 import review as connect4_review
from games.dots_and_boxes import bot as dab_bot
from games.dots_and_boxes import review as dab_review
from games.engine import GAMES
from games.kropki import review as kropki_review
from games.kropki import spec as kropki_spec
from games.models import Match
from games.pilkarzyki import review as pilkarzyki_review
from games.pilkarzyki.bot_board import Board
from games.review.models import Analysis
from games.review.selectors import queue_position
from games.review.services import analysis_request, analysis_run
from kropki_site.lib.refusals import Refusal
from tests.factories import finished_match

FLAGGED = ("inaccuracy", "mistake", "blunder")


def kropki_xy(x: int, y: int) -> int:
    return y * 10 + x


# Pink closes in on blue's dot at e5 (4,4); blue plays in the corners and leaves it to be taken.
KROPKI_DOT_LEFT = [
    kropki_xy(4, 3),
    kropki_xy(4, 4),
    kropki_xy(3, 4),
    kropki_xy(0, 0),
    kropki_xy(5, 4),
    kropki_xy(9, 9),  # ply 6: blue leaves (4,5) to pink: a dot lost
    kropki_xy(4, 5),  # ply 7: pink surrounds it
    kropki_xy(8, 8),
]


def test_classes_follow_the_documented_thresholds():
    assert classify(0.0, False) == "best"
    assert classify(0.3, True) == "best"
    assert classify(0.03, False) == "good"
    assert classify(0.07, False) == "inaccuracy"
    assert classify(MISTAKE, False) == "mistake"
    assert classify(BLUNDER, False) == "blunder"


def test_game_accuracy_is_lichess_mean_of_the_volatility_weighted_and_the_harmonic_means():
    # 20 moves, pink's chances steady at 50 % but for blue's one blunder at move 10 (-40 points)
    pink = [0.5] * 10 + [0.9] * 11
    movers = [1 + i % 2 for i in range(20)]
    drops = [0.0] * 20
    drops[9] = 0.4  # move 10 is blue's
    accuracy = game_accuracy(pink, movers, drops)
    assert accuracy["1"] == 100.0
    plain_mean = (9 * 100 + move_accuracy(0.4)) / 10
    # the blunder swung the game: its window weighs 12, the quiet moves 0.5; and the harmonic mean
    assert accuracy["2"] is not None and accuracy["2"] < plain_mean - 30
    # the same drops in a quiet game (no swing: every weight 0.5) leave only the harmonic mean's pull
    quiet = game_accuracy([0.5] * 21, movers, drops)
    assert quiet["2"] is not None and accuracy["2"] < quiet["2"] < plain_mean
    assert game_accuracy([0.5], [], []) == {"1": None, "2": None}


class _Sliding:
    """A stub reviewer: the player to move is worse off by 0.1 at every ply (from 0.9 down)."""

    VERSION = "stub"
    WHY_CODES: ClassVar[tuple[str, ...]] = ()

    @staticmethod
    def evaluator(game):
        return lambda state, ply, played=None: Evaluation(expected=max(0.0, 0.9 - 0.1 * ply), best=None)

    @staticmethod
    def why(state, played, before, after):
        return None


def test_kropki_moves_made_alone_after_the_other_side_ended_are_left_out_of_the_accuracy():
    game = GAMES["kropki"](width=5, height=5)
    history = [game.action_for(0, 0), game.action_for(4, 4), game.end_action, game.action_for(2, 2)]
    history += [game.action_for(1, 3), game.end_action]  # blue plays alone, then ends too
    result = analyse(game, history, _Sliding)
    assert [m["alone"] for m in result["moves"]] == [False, False, False, True, True, True]
    counted = [m for m in result["moves"] if not m["alone"]]
    pink = [p["pink"] for p in result["positions"]]
    expected = game_accuracy(
        pink, [0 if m["alone"] else m["player"] for m in result["moves"]], [m["drop"] for m in result["moves"]]
    )
    assert result["accuracy"] == expected
    everything = game_accuracy(pink, [m["player"] for m in result["moves"]], [m["drop"] for m in result["moves"]])
    assert everything["2"] != expected["2"]  # the alone moves would have counted
    assert [m["player"] for m in counted] == [1, 2, 1]  # blue's only counted move is its first


class _Judging:
    """A stub reviewer that flatters the side to move (0.65 for whoever moves: two positions'
    values then differ by 0.3 at every move) and judges the moves played on even plies itself
    (a regret of 0.07), recording what the walk told it was played."""

    VERSION = "stub"
    WHY_CODES: ClassVar[tuple[str, ...]] = ()
    told: ClassVar[dict[int, int | None]] = {}

    @classmethod
    def evaluator(cls, game):
        def evaluate(state, ply, played=None):
            cls.told[ply] = played
            return Evaluation(expected=0.65, best=None, regret=0.07 if ply % 2 == 0 else None)

        return evaluate

    @staticmethod
    def why(state, played, before, after):
        return None


def test_a_move_judged_in_the_search_before_it_takes_its_regret_as_its_drop():
    game = GAMES["connect4"]()
    history = [3, 3, 2, 4, 5]
    _Judging.told = {}
    result = analyse(game, history, _Judging)
    # the walk tells the reviewer the move played from each position (none from the last)
    assert _Judging.told == {**dict(enumerate(history)), len(history): None}
    drops = [m["drop"] for m in result["moves"]]
    assert drops == [0.07, 0.3, 0.07, 0.3, 0.07]  # judged: the regret; not: the two positions
    assert [m["class"] for m in result["moves"]] == ["inaccuracy", "blunder", "inaccuracy", "blunder", "inaccuracy"]
    pink = [p["pink"] for p in result["positions"]]
    assert result["accuracy"] == game_accuracy(pink, [1, 2, 1, 2, 1], drops)


def test_kropki_a_dot_left_to_be_captured_is_marked_and_the_better_move_saves_it():
    game = GAMES["kropki"](width=10, height=10)
    result = analyse(game, KROPKI_DOT_LEFT, kropki_review)
    assert len(result["positions"]) == len(KROPKI_DOT_LEFT) + 1
    left = result["moves"][5]
    assert left["player"] == 2
    assert left["class"] in ("mistake", "blunder"), left
    assert left["best"] == kropki_xy(4, 5)  # blue should have taken the point itself
    # deterministic by seed: the same game, the same figures
    assert analyse(game, KROPKI_DOT_LEFT, kropki_review)["positions"] == result["positions"]


def test_kropki_the_move_the_review_s_search_would_play_has_no_drop():
    game = GAMES["kropki"](width=10, height=10)
    result = analyse(game, KROPKI_DOT_LEFT, kropki_review)
    capture = result["moves"][6]  # pink surrounds the dot: what the search plays too
    assert (capture["player"], capture["best"]) == (1, kropki_xy(4, 5))
    assert (capture["drop"], capture["class"]) == (0.0, "best")
    # judged in one search: the two positions around it differ (each search flatters its mover)
    before, after = result["positions"][6]["pink"], result["positions"][7]["pink"]
    assert before != after


def test_kropki_the_review_s_search_is_the_player_s_and_searches_the_played_move_however_far():
    from games.kropki import bot as kropki_bot

    game = GAMES["kropki"](width=10, height=10)
    state = game.state_from_history(KROPKI_DOT_LEFT[:5])
    # nothing played: the review's search chooses as the player's (komi 0), playout for playout
    chosen, _ = kropki_bot.review_search(state, -1, 3000, 0, random.Random(5), 5.0)
    assert chosen == kropki_bot.search(state, 5.0, random.Random(5), 3000, komi=0)[0]
    # a point far from every dot (not one of the search's candidates) is searched all the same,
    # at least PLAYED_MIN playouts, and found worse than the chosen move
    far = kropki_xy(9, 9)
    chosen, info = kropki_bot.review_search(state, far, 3000, 800, random.Random(5), 5.0)
    assert chosen != far and info["played_visits"] >= 800
    assert 0 <= info["played_rate"] < info["best_rate"] <= 1


def test_kropki_a_losing_side_s_dots_given_away_count_and_a_winning_side_s_do_not():
    from games.kropki import bot as kropki_bot

    game = GAMES["kropki"](width=10, height=10)

    def judged(history: list[int], played: int) -> tuple[Evaluation, dict[str, float]]:
        state = game.state_from_history(history)
        ply = len(history)
        evaluation = kropki_review.evaluator(game)(state, ply, played=played)
        _, info = kropki_bot.review_search(
            state,
            played,
            kropki_review.PLAYOUTS[10],
            kropki_review.PLAYED_MIN,
            random.Random(1_000_003 * ply + 7),
            kropki_review.TIME_CAP_S,
        )
        return evaluation, info

    # blue, a dot down after ply 7, plays in a far corner: losing, so the dots it gives away count
    lost, info = judged(KROPKI_DOT_LEFT[:7], kropki_xy(9, 0))
    chances = info["best_rate"] - info["played_rate"]
    dots = info["best_gain"] - info["played_gain"]
    assert info["best_rate"] < kropki_review.LOSING and dots > 0.3
    assert lost.regret is not None
    assert lost.regret == pytest.approx(max(chances, kropki_review.dots_drop(dots)))
    assert chances < MISTAKE <= BLUNDER <= lost.regret  # its chances alone: not even a mistake
    # pink, the dot up, plays in a far corner too: standing well, its chances alone judge it
    ahead, info = judged(KROPKI_DOT_LEFT, kropki_xy(0, 9))
    assert info["best_rate"] >= kropki_review.LOSING
    assert info["best_gain"] - info["played_gain"] > 0.3
    assert ahead.regret == pytest.approx(max(0.0, info["best_rate"] - info["played_rate"]))


def test_connect4_a_missed_four_in_a_row_is_a_blunder_and_the_winning_column_is_shown():
    # Pink lays 0, 1, 2 on the bottom row; blue stacks column 6 and does not block column 3 (a
    # blunder: pink wins at once); pink plays 5 and misses the four (a blunder: blue then has
    # four in column 6).
    game = GAMES["connect4"]()
    history = [0, 6, 1, 6, 2, 6, 5, 6]
    result = analyse(game, history, connect4_review)
    unblocked, missed = result["moves"][5], result["moves"][6]
    assert (unblocked["player"], unblocked["class"], unblocked["best"]) == (2, "blunder", 3)
    assert (missed["player"], missed["class"], missed["best"]) == (1, "blunder", 3)
    assert missed["drop"] == 1.0
    assert result["positions"][6] == {"pink": 1.0, "exact": True, "best": 3, "detail": {"win_in": 1}}
    assert result["positions"][8]["pink"] == 0.0  # blue's four: the end, exact


def test_connect4_late_positions_are_the_solvers_exact_values():
    # From 14 discs on the solver answers at once: every position there is exact, and its value
    # is the solver's own (win, draw or loss for the mover, and in how many plies).
    from games.connect4 import solver

    game = GAMES["connect4"]()
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            rng.choice(state.legal_actions())
            if len(state.history) < 14
            else connect4_review.CENTRE_FIRST[0]
            if state.is_legal(3)
            else state.legal_actions()[0]
        )
    history = list(state.history)
    result = analyse(game, history, connect4_review)
    for ply in range(14, len(history)):
        position = result["positions"][ply]
        assert position["exact"], ply
        value = solver.solve(history[:ply])
        mover_expected = {"win": 1.0, "draw": 0.5, "loss": 0.0}[value.result]
        assert position["pink"] == (mover_expected if ply % 2 == 0 else 1.0 - mover_expected)
    # the solver and the estimates before it are bounded by nodes, not seconds: the same game, the
    # same figures, the earliest plies' estimates too
    assert not all(p["exact"] for p in result["positions"][:14])
    assert analyse(game, history, connect4_review) == result


def test_kropki_a_capture_is_explained_by_the_dots_it_took():
    game = GAMES["kropki"](width=10, height=10)
    state = game.new_initial_state()
    for action in KROPKI_DOT_LEFT[:6]:
        assert kropki_review.explain(state.apply_action(action)) is None
    with translation.override("en"):
        explained = kropki_spec.explain_capture(state.apply_action(KROPKI_DOT_LEFT[6]))
    assert explained is not None
    assert explained["highlight"] == [[4, 4]] and explained["taken"] == 1
    # the move that closed the ring, its four points, the dot it took
    assert re.fullmatch(r"Pink close the ring with e6 \((\w+–){3}\w+\) and take 1 dot: e5\.", explained["text"])
    ring = re.search(r"\((.*)\)", explained["text"])
    assert ring is not None and sorted(ring.group(1).split("–")) == ["d5", "e4", "e6", "f5"]


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        (
            "pl",
            "Niebieskie stawiają c3 wewnątrz pustego okrążenia przeciwnika (b3–c4–d3–c2): okrążenie zdobywa tę kropkę.",
        ),
        ("en", "Blue play c3 inside an empty ring of the other side (b3–c4–d3–c2): the ring takes it."),
    ],
)
def test_kropki_a_dot_played_into_an_empty_ring_is_explained_as_taken_by_the_ring(lang, text):
    game = GAMES["kropki"](width=6, height=6)
    state = game.state_from_history([game.string_to_action(m) for m in ("c2", "a6", "b3", "f6", "d3", "f1", "c4")])
    with translation.override(lang):
        explained = kropki_spec.explain_capture(state.apply_action(game.string_to_action("c3")))
    assert explained is not None and explained["text"] == text


def test_kropki_a_long_ring_is_told_by_its_size_and_polish_counts_its_dots():
    # pink rings blue's c3 and d3 with b3, c2, d2, e3, d4, c4: 6 points, then 2 dots taken
    game = GAMES["kropki"](width=8, height=8)
    moves = ("c2", "c3", "d2", "d3", "b3", "a8", "e3", "h8", "c4", "a1")
    state = game.state_from_history([game.string_to_action(m) for m in moves])
    with translation.override("pl"):
        explained = kropki_spec.explain_capture(state.apply_action(game.string_to_action("d4")))
    assert explained is not None and explained["text"].endswith("i zdobywają 2 kropki: c3, d3.")
    assert explained["text"].startswith("Różowe zamykają okrążenie ruchem d4 (")
    with translation.override("en"):
        assert kropki_spec._ring([[x, 0] for x in range(9)]) == "a ring of 9 dots"


def _dab_late_position(seed: int) -> tuple[Any, list[int]]:
    """A Kropki i kwadraty game played by sredni until few segments are left (the exact zone)."""
    game = GAMES["dots_and_boxes"](rows=5, cols=5)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while len(dab_bot.undrawn(*dab_bot._drawn_of(state))) > 20 and not state.is_terminal():
        state.apply_action(dab_bot.choose(state, "sredni", rng))
    return game, list(state.history)


def test_dots_and_boxes_a_chain_given_away_is_a_blunder(monkeypatch):
    # The opening's estimates are not what is tested here: few playouts keep the test quick.
    monkeypatch.setattr(dab_review, "ROLLOUTS", 4)
    for seed in range(40):
        game, history = _dab_late_position(seed)
        state = game.state_from_history(history)
        geo, drawn = dab_bot._drawn_of(state)
        safe = [s for s in dab_bot.undrawn(geo, drawn) if dab_bot.is_safe(geo, drawn, s)]
        if dab_bot.capture_moves(geo, drawn):
            continue
        # Hand the opponent a chain (a third side) that turns a won game into a lost one:
        # exact values must show it.
        solver = dab_bot.Solver(geo, float("inf"))
        value, _best = solver.best_moves(drawn)
        gifts = []
        for seg in dab_bot.undrawn(geo, drawn):
            if seg in safe:
                continue
            after = -solver.value(drawn | (1 << seg), -999, 999)
            gifts.append((after, seg))
        pink, blue = state.scores()
        mover = state.current_player()
        ahead = pink - blue if mover == 1 else blue - pink
        losing = [seg for after, seg in gifts if ahead + value > 0 and ahead + after < 0]
        if not losing:
            continue
        result = analyse(game, [*history, losing[0]], dab_review)
        move = result["moves"][-1]
        assert result["positions"][len(history)]["exact"]
        assert move["class"] == "blunder", move
        assert move["drop"] == 1.0
        return
    pytest.fail("no seeded game reached a losing gift")


def test_dots_and_boxes_the_estimate_judges_a_box_handed_out_but_not_one_safe_move_against_another():
    game = GAMES["dots_and_boxes"](rows=5, cols=5)
    rng = random.Random(2)
    state = game.new_initial_state()
    geo, drawn = dab_bot._drawn_of(state)
    # sredni's opening until a box has two sides and safe moves are still there
    while True:
        state.apply_action(dab_bot.choose(state, "sredni", rng))
        geo, drawn = dab_bot._drawn_of(state)
        left = dab_bot.undrawn(geo, drawn)
        gifts = [s for s in left if not dab_bot.is_safe(geo, drawn, s) and not dab_bot.completes(geo, drawn, s)]
        if gifts:
            break
    safe = [s for s in left if dab_bot.is_safe(geo, drawn, s)]
    assert len(left) > dab_bot.EXACT_MAX and safe and not dab_bot.capture_moves(geo, drawn)
    evaluate = dab_review.evaluator(game)
    ply = len(state.history)
    assert all(evaluate(state, ply, played=s).regret == 0.0 for s in safe[:3])
    # judged against the same playouts from the position after it: a box given away is a mistake
    gift = evaluate(state, ply, played=gifts[0]).regret
    assert gift is not None and gift >= 0.1
    result = analyse(game, [*state.history, gifts[0]], dab_review)
    assert result["moves"][-1]["drop"] == round(gift, 4)
    assert result["moves"][-1]["class"] in ("mistake", "blunder")


def test_dots_and_boxes_boxes_given_away_in_a_lost_game_still_cost(monkeypatch):
    """Winning chances alone say nothing once a game is lost: the boxes a move gives away
    (exact, the solver's margins) are its drop then, tanh(boxes / BOX_SCALE)."""
    monkeypatch.setattr(dab_review, "ROLLOUTS", 4)
    for seed in range(40):
        game, history = _dab_late_position(seed)
        state = game.state_from_history(history)
        geo, drawn = dab_bot._drawn_of(state)
        solver = dab_bot.Solver(geo, float("inf"))
        value, optimal = solver.best_moves(drawn)
        pink, blue = state.scores()
        mover = state.current_player()
        ahead = pink - blue if mover == 1 else blue - pink
        if ahead + value >= 0:
            continue  # not lost for the mover
        costs = {}
        for seg in dab_bot.undrawn(geo, drawn):
            n = dab_bot.completes(geo, drawn, seg)
            after = drawn | (1 << seg)
            own = n + solver.value(after, -999, 999) if n else -solver.value(after, -999, 999)
            costs[seg] = value - own
        worst = max(costs, key=lambda seg: costs[seg])
        if costs[worst] < 2:
            continue
        evaluate = dab_review.evaluator(game)
        ply = len(history)
        assert evaluate(state, ply, played=optimal[0]).regret == 0.0
        lost = evaluate(state, ply, played=worst)
        assert lost.exact and lost.expected == 0.0
        assert lost.regret == pytest.approx(math.tanh(costs[worst] / dab_review.BOX_SCALE))
        result = analyse(game, [*history, worst], dab_review)
        assert result["moves"][-1]["class"] == "blunder"  # two boxes or more thrown away
        return
    pytest.fail("no seeded game reached a lost position with two boxes to throw away")


def test_dots_and_boxes_the_solver_is_bounded_in_nodes_and_earlier_positions_are_then_estimated(monkeypatch):
    monkeypatch.setattr(dab_review, "ROLLOUTS", 4)
    monkeypatch.setattr(dab_review, "EXACT_NODES", 20_000)
    game, history = _dab_late_position(3)
    state = game.state_from_history(history)
    while not state.is_terminal():
        state.apply_action(dab_bot.choose(state, "sredni", random.Random(len(state.history))))
    history = list(state.history)
    result = analyse(game, history, dab_review)
    exact = [p["exact"] for p in result["positions"]]
    first = exact.index(True)
    assert first > 0 and all(exact[first:])  # estimates up to where the solver gave up, then exact
    undrawn = len(dab_bot.undrawn(*dab_bot._drawn_of(game.state_from_history(history[: first - 1]))))
    assert undrawn <= dab_bot.EXACT_MAX  # gave up within the exact zone: the bound, not the zone
    # a bound in nodes, not seconds: the same game, the same figures
    assert analyse(game, history, dab_review) == result


def test_pilkarzyki_a_step_that_allows_an_own_goal_is_marked(monkeypatch):
    # A goal next turn is found at depth 2: a small bound a position keeps the test quick.
    monkeypatch.setattr(pilkarzyki_review, "MAX_NODES", 1_500)
    game = GAMES["pilkarzyki"]()
    evaluate = pilkarzyki_review.evaluator(game)
    rng = random.Random(7)
    for _ in range(60):
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history) < 200:
            mover = state.current_player()
            legal = state.legal_actions()
            before = Board.from_history(list(state.history))
            quiet, win, _loss = before.expand()
            if win is None and quiet:
                # A step that ends the turn and lets the opponent score at once, while a turn
                # that does not exists (checked by the engine-level expansion).
                for action in legal:
                    after_state = state.clone()
                    after_state.apply_action(action)
                    if after_state.is_terminal() or after_state.current_player() == mover:
                        continue
                    _q, opponent_win, _l = Board.from_history(list(after_state.history)).expand()
                    if opponent_win is None:
                        continue
                    if evaluate(state, len(state.history)).expected < 0.5:
                        continue  # already lost: nothing to give away (one search, not a review)
                    history = [*state.history, action]
                    result = analyse(game, history, pilkarzyki_review)
                    before_value = result["positions"][-2]["pink"]
                    assert (before_value if mover == 1 else 1 - before_value) >= 0.5  # the same search
                    move = result["moves"][-1]
                    assert move["class"] == "blunder", move
                    assert result["positions"][-1]["exact"]
                    return
            state.apply_action(rng.choice(legal))
    pytest.fail("no random game offered a step allowing a goal")


# -- the service -------------------------------------------------------------------------


def _finished(alice, bob, history: list[int] = KROPKI_DOT_LEFT, variant: str = "kropki-10") -> Match:
    return finished_match(alice, bob, history, variant)


@pytest.mark.django_db(transaction=True)
def test_a_review_is_asked_run_once_and_stored(alice, bob, django_capture_on_commit_callbacks):
    match = _finished(alice, bob)
    analysis = analysis_request(alice, match.pk)
    assert analysis.status == Analysis.Status.QUEUED
    assert queue_position(analysis) == 1
    assert analysis_run(analysis.pk) is True
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE
    assert analysis.done == analysis.total == len(match.history) + 1
    assert analysis.result is not None
    assert analysis.result["moves"][5]["class"] in ("mistake", "blunder")
    # asked again, by anyone: the stored review, no new run
    assert analysis_request(bob, match.pk).pk == analysis.pk
    assert analysis_run(analysis.pk) is False
    assert Analysis.objects.count() == 1


@pytest.mark.django_db
def test_guests_and_anonymous_visitors_cannot_ask(alice, bob, make_user):
    from django.contrib.auth.models import AnonymousUser

    match = _finished(alice, bob)
    guest = make_user("gosc_1")
    guest.is_guest = True
    guest.save()
    for who in (guest, AnonymousUser()):
        with pytest.raises(Refusal) as refused:
            analysis_request(who, match.pk)
        assert refused.value.code == "analysis_guest"
    assert not Analysis.objects.exists()


@pytest.mark.django_db
def test_one_review_at_a_time_and_a_daily_cap(alice, bob, settings):
    first, second = _finished(alice, bob), _finished(alice, bob)
    analysis_request(alice, first.pk)
    with pytest.raises(Refusal) as busy:
        analysis_request(alice, second.pk)
    assert busy.value.code == "analysis_busy"
    Analysis.objects.update(status=Analysis.Status.DONE, result={})
    settings.ANALYSES_PER_DAY = 1
    with pytest.raises(Refusal) as capped:
        analysis_request(alice, second.pk)
    assert capped.value.code == "analysis_daily_cap"
    assert Analysis.objects.count() == 1


@pytest.mark.django_db
def test_a_new_account_cannot_ask_until_it_is_established(alice, bob, make_user, settings):
    # Issue 37, item 2: free fresh accounts would each get a place in the one worker's queue.
    settings.NEW_ACCOUNT_MINUTES = 60
    match = _finished(alice, bob)
    fresh = make_user("swiezy")
    with pytest.raises(Refusal) as refused:
        analysis_request(fresh, match.pk)
    assert refused.value.code == "account_too_new"
    assert "analiza komputerowa" in refused.value.message and "60 min" in refused.value.message
    assert not Analysis.objects.exists()
    type(fresh).objects.filter(pk=fresh.pk).update(date_joined=timezone.now() - timedelta(minutes=61))
    fresh.refresh_from_db()
    assert analysis_request(fresh, match.pk).status == Analysis.Status.QUEUED


@pytest.mark.django_db
def test_the_queue_serves_the_asker_served_longest_ago_first(alice, bob, make_user):
    # Issue 37, item 2: mallory and trudy each had a review run (trudy's longer ago) and ask
    # again at once, before alice, who never asked; a token runs alice's first (whatever review
    # sent it), then trudy's, then mallory's.
    mallory, trudy = make_user("mallory"), make_user("trudy")
    earlier = timezone.now() - timedelta(minutes=5)
    for who, minutes in ((mallory, 2), (trudy, 1)):
        done = analysis_request(who, _finished(alice, bob).pk)
        Analysis.objects.filter(pk=done.pk).update(
            status=Analysis.Status.DONE, result={}, started_at=earlier + timedelta(minutes=minutes)
        )
    flood = [analysis_request(who, _finished(alice, bob).pk) for who in (trudy, mallory)]
    honest = analysis_request(alice, _finished(alice, bob).pk)
    assert [queue_position(a) for a in (honest, flood[0], flood[1])] == [1, 2, 3]
    queued = [honest.pk, flood[0].pk, flood[1].pk]
    order = []
    for token in [flood[0].pk, flood[1].pk, honest.pk]:  # the tokens come in the order asked
        assert analysis_run(token) is True
        finished = Analysis.objects.filter(pk__in=queued, status=Analysis.Status.DONE).values_list("pk", flat=True)
        order += [pk for pk in finished if pk not in order]
    assert order == queued
    assert analysis_run(honest.pk) is False  # a token with nothing left to run


@pytest.mark.django_db
def test_a_token_runs_its_own_review_again_once_its_worker_died(alice, bob, settings):
    # a token finds nothing queued; its own review is running: left alone while fresh, run
    # again once stale (its worker died mid-review and the task came again)
    analysis = analysis_request(alice, _finished(alice, bob).pk)
    started = timezone.now()
    Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.Status.RUNNING, started_at=started)
    assert analysis_run(analysis.pk) is False
    stale = started - timedelta(minutes=settings.ANALYSIS_STALE_MINUTES + 1)
    Analysis.objects.filter(pk=analysis.pk).update(started_at=stale)
    assert analysis_run(analysis.pk) is True
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE


@pytest.mark.django_db
def test_an_active_match_is_refused_and_a_failed_review_can_be_asked_again(alice, bob):
    active = Match.objects.create(variant="kropki-10", pink=alice, blue=bob, history=[])
    with pytest.raises(Refusal) as refused:
        analysis_request(alice, active.pk)
    assert refused.value.code == "analysis_not_finished"
    match = _finished(alice, bob)
    analysis = analysis_request(alice, match.pk)
    Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.Status.FAILED, error="boom")
    again = analysis_request(bob, match.pk)
    assert again.pk == analysis.pk
    assert again.status == Analysis.Status.QUEUED
    assert again.requested_by == bob
    assert again.error == ""


@pytest.mark.django_db
def test_a_broken_history_fails_the_review_and_says_so(alice, bob):
    match = _finished(alice, bob, history=[kropki_xy(1, 1), kropki_xy(1, 1)])  # the same point twice
    analysis = analysis_request(alice, match.pk)
    assert analysis_run(analysis.pk) is False
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.FAILED
    assert analysis.error


# -- the record page -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_record_page_offers_the_review_and_shows_it_when_done(client, alice, bob):
    match = _finished(alice, bob)
    url = reverse("record", args=[match.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="analysis"' in page
    assert 'data-testid="analysis-ask"' not in page  # anonymous: a login link instead
    client.force_login(alice)
    page = client.get(url).content.decode()
    assert 'data-testid="analysis-ask"' in page
    response = client.post(reverse("record_analysis", args=[match.pk]))
    assert response.status_code == 302
    assert 'data-testid="analysis-queued"' in client.get(url).content.decode()
    analysis_run(Analysis.objects.get().pk)
    page = client.get(url).content.decode()
    assert 'class="review-chart"' in page
    assert 'data-testid="analysis-table"' in page
    assert 'id="analysis-data"' in page
    assert 'data-testid="review-next"' in page


@pytest.mark.django_db
def test_the_better_move_frame_and_the_capture_explained(client, alice, bob):
    match = _finished(alice, bob)
    frame_url = reverse("record_frame", args=[match.pk, 7])
    frame = client.get(frame_url).json()
    assert frame["explain"].endswith(("i zdobywają 1 kropkę: e5.", "and take 1 dot: e5."))
    assert 'class="highlight"' in frame["svg"]
    # no review yet: no better move to show
    assert client.get(frame_url + "?lepszy=1").status_code == 404
    analysis = analysis_request(alice, match.pk)
    analysis_run(analysis.pk)
    better = client.get(reverse("record_frame", args=[match.pk, 6]) + "?lepszy=1").json()
    assert better["better"] is True
    assert better["move"] == "e6"
    assert 'class="highlight"' in better["svg"]


@pytest.mark.django_db
def test_a_guest_is_told_in_words_on_the_page(client, alice, bob, make_user):
    match = _finished(alice, bob)
    guest = make_user("gosc_2")
    guest.is_guest = True
    guest.save()
    client.force_login(guest)
    response = client.post(reverse("record_analysis", args=[match.pk]), follow=True)
    assert "konta" in response.content.decode() or "account" in response.content.decode()
    assert not Analysis.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "lang, boxes, dots",
    [
        ("pl", "Oddany kwadrat też się liczy, niezależnie od wyniku", "Gdy szanse gracza spadają poniżej 40 %"),
        ("en", "A box given away counts too, whatever", "When a player&#x27;s chances are below 40 %"),
    ],
)
def test_each_game_s_review_says_what_counts_besides_the_chances(client, alice, bob, monkeypatch, lang, boxes, dots):
    monkeypatch.setattr(dab_review, "ROLLOUTS", 4)
    game, history = _dab_late_position(1)
    state = game.state_from_history(history)
    while not state.is_terminal():
        state.apply_action(dab_bot.choose(state, "sredni", random.Random(len(state.history))))
    dab_match = _finished(alice, bob, list(state.history), "kropki-i-kwadraty")
    kropki_match = _finished(alice, bob)
    for match in (dab_match, kropki_match):
        analysis_run(analysis_request(alice, match.pk).pk)
    page = client.get(reverse("record", args=[dab_match.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'data-testid="analysis-summary"' in page
    assert boxes in page and dots not in page
    page = client.get(reverse("record", args=[kropki_match.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'data-testid="analysis-summary"' in page
    assert dots in page and boxes not in page
