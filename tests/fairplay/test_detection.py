"""Engine-use detection (games/fairplay/detection.py, docs/fairplay.md "Detection"): the verdict on
a player's facts, the positions that do not count, the check after a rated game, and staff's page."""

from __future__ import annotations

import dataclasses
import random

import pytest
from django.urls import reverse

from games import tasknames
from games.bots import choose_action
from games.connect4 import review as c4_review
from games.engine import get_game
from games.fairplay import checks, detection
from games.fairplay.detection import GameFacts, Look, MoveFacts
from games.fairplay.models import FairPlayFlag
from games.models import Match
from tests.factories import make_match
from tests.helpers import play_moves


def _games(n: int, agreement: float, *, sigma: float, seed: int = 1, slows: bool | None = None) -> list[GameFacts]:
    """``n`` games of eight positions that matter and eight that do not, best played at
    ``agreement`` where it matters, think times log-normal of spread ``sigma``, 65 % longer where
    it matters when the player ``slows`` (by default when the times vary)."""
    rng = random.Random(seed)
    slows = sigma > 0.3 if slows is None else slows
    games = []
    for g in range(n):
        moves = []
        for i in range(16):
            matters = i % 2 == 0
            think = round(rng.lognormvariate(2.0 + (0.5 if matters and slows else 0), sigma), 2)
            moves.append(MoveFacts(10 + 2 * i, matters, matters and rng.random() < agreement, think, 5))
        games.append(GameFacts(100 + g, 1, tuple(moves)))
    return games


def test_an_engine_like_history_is_flagged_with_its_games_and_positions():
    verdict = detection.assess(_games(8, 1.0, sigma=0.1), "connect4")
    assert verdict.flagged
    assert verdict.figures["agreement"] == 1.0 and verdict.figures["positions"] == 64
    assert verdict.figures["p_value"] < detection.ALPHA
    assert verdict.figures["think_cv"] < detection.FLAT_CV
    assert set(verdict.figures["reasons"]) == {"agreement", "agreement_and_flat_times"}
    assert [e["match"] for e in verdict.evidence] == list(range(100, 108))
    first = verdict.evidence[0]
    assert first["positions"] == first["best"] == 8 and first["plies"] == [10, 14, 18, 22, 26, 30, 34, 38]
    assert len(first["think_s"]) == 12


def test_an_honest_like_history_is_not_flagged():
    verdict = detection.assess(_games(20, 0.45, sigma=0.7), "connect4")
    assert not verdict.flagged
    assert verdict.figures["reasons"] == []
    assert verdict.figures["think_cv"] > detection.FLAT_CV
    assert verdict.figures["slower_when_it_matters"] > 0


def test_a_strong_agreement_with_flat_times_is_flagged_sooner_than_by_agreement_alone():
    flat = detection.assess(_games(4, 0.85, sigma=0.1, seed=3), "connect4")
    varied = detection.assess(_games(4, 0.85, sigma=0.7, seed=3), "connect4")
    assert flat.flagged and flat.figures["reasons"] == ["agreement_and_flat_times"]
    assert not varied.flagged
    # A steady pace that still slows down where it matters is a person's: not flat.
    steady = detection.assess(_games(4, 0.85, sigma=0.1, seed=3, slows=True), "connect4")
    assert steady.figures["think_cv"] < detection.FLAT_CV and steady.figures["slower_when_it_matters"] > 0.4
    assert not steady.flagged


def test_too_few_positions_that_matter_give_no_verdict():
    verdict = detection.assess(_games(1, 1.0, sigma=0.1), "connect4")
    assert verdict.figures["positions"] == 8 < detection.MIN_POSITIONS
    assert not verdict.flagged


class _Position:
    def __init__(self, player: int, legal: list[int]) -> None:
        self.player, self.legal = player, legal

    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list[int]:
        return self.legal


def test_forced_moves_and_the_opening_are_not_evaluated():
    opening = detection.game_figures("connect4").opening_plies
    states = [_Position(1 + ply % 2, [3] if ply in (8, 10) else [0, 1, 2, 3]) for ply in range(20)]
    mine, chosen = detection.plies_to_check(states, "connect4", 1, match=1)
    assert mine == list(range(1, 21, 2))  # pink moves at the odd plies
    assert all(ply > opening for ply in chosen)
    assert 9 not in chosen and 11 not in chosen  # one legal move: forced
    assert chosen == [7, 13, 15, 17, 19]


def test_decided_and_obvious_positions_do_not_matter():
    assert Look(0.6, False, best=3, easy=2).matters
    assert not Look(0.6, False, best=3, easy=3).matters  # łatwy finds it too: obvious
    assert not Look(0.99, False, best=3, easy=2).matters  # an estimate already won
    assert not Look(0.0, True, best=3, easy=2).matters  # a proven loss: every move loses
    assert Look(1.0, True, best=3, easy=2).matters  # a proven win still has to be found


def test_think_times_are_counted_from_the_opponents_move_only():
    assert detection.think_times([1, 2, 2, 1], [0.0, 4.0, 5.5, 12.0]) == [None, 4.0, None, 6.5]


def test_the_binomial_tail():
    assert detection.binomial_tail(0, 10, 0.5) == 1.0
    assert detection.binomial_tail(10, 10, 0.5) == pytest.approx(0.5**10)
    assert detection.binomial_tail(6, 10, 0.5) == pytest.approx(386 / 1024)


def test_a_game_s_facts_come_from_the_reviewer():
    game = get_game("connect4")
    history = [3, 3, 2, 4, 1, 0, 5, 4, 2, 2, 4, 1]
    evaluate = c4_review.evaluator(game)
    easy = lambda state, ply: choose_action(state, "latwy", seed=ply)  # noqa: E731
    both = detection.game_facts(game, "connect4", history, [None, *[3.0] * 11], 7, evaluate, easy)
    facts = both[1]
    assert facts.match == 7 and facts.side == 1 and both[2].side == 2
    assert [m.ply for m in facts.moves] == [3, 5, 7, 9, 11]  # ply 1 has no think time, none is forced
    assert {m.ply for m in facts.moves if m.legal} == {7, 9, 11}  # past the opening: evaluated
    assert [m.ply for m in both[2].moves if m.legal] == [8, 10, 12]
    # a move's drop is known when the next position was evaluated too (the last move's is not)
    assert [m.ply for m in facts.moves if m.drop is not None] == [7, 9, 11]
    assert [m.ply for m in both[2].moves if m.drop is not None] == [8, 10]
    assert all(0 <= m.drop <= 1 for m in facts.moves if m.drop is not None)
    again = GameFacts.from_dict(facts.to_dict())
    assert again == facts
    assert detection.assess([facts], "connect4").figures["accuracy_moves"] == 3


# -- after a rated game, through the site --------------------------------------------------------


def _engine_game(alice, bob) -> Match:
    """A rated Cztery w rzędzie match in which alice (pink) plays the solver's move every time
    and bob łatwy's, to its end."""
    match = make_match(alice, bob, rated=True)
    game = get_game("connect4")
    evaluate = c4_review.evaluator(game)
    state = game.new_initial_state()
    while not state.is_terminal():
        ply = len(state.history) + 1
        best = evaluate(state, ply).best
        if state.current_player() == 1 and best is not None:
            action = best
        else:
            action = choose_action(state, "latwy", seed=ply + 1000)
        play_moves(match, [action])
        state.apply_action(action)
    match.refresh_from_db()
    return match


@pytest.fixture
def lenient(monkeypatch):
    """One game is enough: any position counts as past the opening, a handful settle it."""
    figures = dataclasses.replace(detection.game_figures("connect4"), opening_plies=0)
    monkeypatch.setattr(detection, "game_figures", lambda slug: figures)
    monkeypatch.setattr(detection, "MIN_POSITIONS", 2)
    monkeypatch.setattr(detection, "ALPHA", 0.5)


@pytest.mark.django_db(transaction=True)
def test_the_check_runs_after_a_rated_game_and_flags_its_player(alice, bob, lenient, monkeypatch):
    sent = []

    def publish(name, args):  # what the fairplay worker would do with it, here and now
        sent.append((name, args))
        from games.fairplay.tasks import fairplay_check

        fairplay_check(*args)

    monkeypatch.setattr(checks, "publish", publish)
    match = _engine_game(alice, bob)
    assert match.status == Match.Status.FINISHED and match.rated and match.counts

    assert sent == [(tasknames.FAIRPLAY_CHECK, (match.pk,))]
    flag = FairPlayFlag.objects.get(user=alice, kind=FairPlayFlag.Kind.ENGINE)
    assert flag.status == FairPlayFlag.Status.OPEN and flag.variant == match.variant
    assert flag.figures["agreement"] == 1.0 and flag.figures["games"] == 1
    assert flag.figures["variant"] == match.variant and "rating" in flag.figures
    assert flag.evidence[0]["match"] == match.pk and flag.evidence[0]["plies"]
    assert not FairPlayFlag.objects.filter(user=bob).exists()

    # Checked again: the same open flag is updated, from the cached facts.
    assert checks.fairplay_check_match(match.pk) == [flag.pk]
    assert FairPlayFlag.objects.filter(user=alice).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_marked_account_and_a_bot_account_are_left_alone(alice, bob, lenient, monkeypatch):
    monkeypatch.setattr(checks, "publish", lambda name, args: None)
    match = _engine_game(alice, bob)
    alice.fair_play_mark = "engine"
    alice.save(update_fields=["fair_play_mark"])
    assert checks.fairplay_check_match(match.pk) == []
    alice.fair_play_mark, alice.is_bot = "", True
    alice.save(update_fields=["fair_play_mark", "is_bot"])
    assert checks.fairplay_check_match(match.pk) == []
    assert not FairPlayFlag.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_unrated_games_are_not_checked(alice, bob, monkeypatch):
    sent = []
    monkeypatch.setattr(checks, "publish", lambda name, args: sent.append(name))
    match = make_match(alice, bob)
    play_moves(match, [0, 1, 0, 1, 0, 1, 0])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.rated
    assert sent == []


def test_the_hook_waits_for_a_rated_game_that_counts(monkeypatch):
    sent = []
    monkeypatch.setattr(checks, "publish", lambda name, args: sent.append(args))
    short = Match(rated=True, counts=False, status=Match.Status.FINISHED, pink_id=1, blue_id=2, pk=5)
    checks.fairplay_after_finish(short)  # too short to count: nothing, not even on commit
    assert sent == []


@pytest.mark.django_db
def test_a_flagged_player_s_evidence_page_links_the_games(client, alice, bob, django_user_model):
    """The flag's page in the admin (the moderation page, games/fairplay/admin.py) lists the games
    of detection's evidence, each linked to its record, with the plies and the note."""
    matches = [make_match(alice, bob, rated=True) for _ in range(2)]
    verdict = detection.assess(
        [GameFacts(m.pk, 1, (MoveFacts(9, True, True, 4.0, 5), MoveFacts(11, True, True, 4.1, 4))) for m in matches],
        "connect4",
    )
    flag = FairPlayFlag.objects.create(
        user=alice,
        kind=FairPlayFlag.Kind.ENGINE,
        variant=matches[0].variant,
        figures=verdict.figures,
        evidence=verdict.evidence,
    )
    staff = django_user_model.objects.create_superuser("sedzia", "sedzia@example.com", "kropka-Trudna-2024")
    client.force_login(staff)
    page = client.get(reverse("admin:games_fairplayflag_change", args=[flag.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for m in matches:
        assert f'href="{reverse("record", args=[m.pk])}"' in html
    assert html.count('data-testid="evidence-row"') == 2
    assert "9, 11" in html  # the plies where the best move was played
    assert "best 2/2 · think s 4 4.1" in html  # the note


@pytest.mark.django_db(transaction=True)
def test_a_game_the_reviewer_cannot_read_is_skipped_and_logged(alice, bob, lenient, monkeypatch, caplog):
    monkeypatch.setattr(checks, "publish", lambda name, args: None)
    match = _engine_game(alice, bob)

    def broken(match, side):
        raise ValueError("illegal action")

    monkeypatch.setattr(checks, "match_facts", broken)
    assert checks.fairplay_check_match(match.pk) == []
    assert f"match {match.pk} could not be evaluated" in caplog.text


def test_the_check_has_a_queue_and_a_worker_of_its_own(settings):
    """Never in front of a review someone asked for: its own queue, served by its own niced process."""
    from pathlib import Path

    from kropki_site import health

    assert settings.CELERY_TASK_ROUTES[tasknames.FAIRPLAY_CHECK] == {"queue": "fairplay"}
    assert settings.CELERY_TASK_ROUTES[tasknames.ANALYSE_MATCH] == {"queue": "analysis"}
    assert "fairplay" in health.QUEUES
    conf = (Path(__file__).resolve().parents[2] / "scripts" / "supervisord.conf").read_text()
    program = conf.split("[program:fairplay-worker]", 1)[1].split("[program:", 1)[0]
    assert "nice -n 10" in program and "-Q fairplay " in program and "--concurrency 1" in program
    analysis = conf.split("[program:analysis-worker]", 1)[1].split("priority", 1)[0]  # its command
    assert "-Q analysis,board " in analysis and "fairplay" not in analysis
