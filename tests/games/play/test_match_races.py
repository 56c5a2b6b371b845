"""The services under real concurrency: threads with their own database connections.

Runs against PostgreSQL in CI (row locks via SELECT ... FOR UPDATE) and on
SQLite locally (IMMEDIATE transactions serialise the writers).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import play as services
from games.models import Match, Move
from games.play import core
from kropki_site.lib.refusals import Refusal
from tests.helpers import play_moves, run_together

pytestmark = pytest.mark.django_db(transaction=True)


def codes(results) -> list:
    return sorted(r.code if isinstance(r, Refusal) else type(r).__name__ for r in results)


def play_call(match, user, action, ply=None, now=None):
    return lambda: services.match_play(
        match_id=match.pk, user_id=user.pk, ply=match.ply if ply is None else ply, action=action, now=now
    )


@pytest.mark.parametrize("round_", range(5))
def test_two_moves_for_one_ply_exactly_one_applies(make_match, alice, bob, round_):
    match = make_match("cztery-w-rzedzie")
    services.match_play(match_id=match.pk, user_id=alice.pk, ply=0, action=3)  # bob to move at ply 1
    match.refresh_from_db()
    # bob twice with different columns, and alice out of turn, all answering ply 1
    results = run_together(play_call(match, bob, 2), play_call(match, bob, 4), play_call(match, alice, 5))
    applied = [r for r in results if isinstance(r, services.PlayResult) and not r.duplicate]
    assert len(applied) == 1, results
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(refused) == 2 and all(r.code in {"stale_ply", "not_your_turn"} for r in refused), results
    match.refresh_from_db()
    assert match.ply == 2
    assert Move.objects.filter(match=match).count() == 2
    assert match.history == list(Move.objects.filter(match=match).order_by("ply").values_list("action", flat=True))


@pytest.mark.parametrize("round_", range(5))
def test_the_same_move_twice_at_once_makes_one_row(make_match, alice, round_):
    match = make_match("kropki-i-kwadraty")
    results = run_together(play_call(match, alice, 7), play_call(match, alice, 7))
    applied = [r for r in results if isinstance(r, services.PlayResult) and not r.duplicate]
    assert len(applied) == 1, results
    # the other is either recognised as a resend (duplicate) or refused as stale
    other = next(r for r in results if r is not applied[0])
    assert (isinstance(other, services.PlayResult) and other.duplicate) or (
        isinstance(other, Refusal) and other.code == "stale_ply"
    ), other
    assert Move.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.ply == 1 and match.history == [7]


def _at_deadline(match) -> datetime:
    """A move by each player, then the moment deadline + grace (the racing instant)."""
    match.refresh_from_db()
    return match.turn_deadline + core.grace()


@pytest.mark.parametrize("variant", ["cztery-w-rzedzie", "kropki-10"])
@pytest.mark.parametrize("offset_ms", [-1, 0, 1])
def test_a_move_racing_its_timeout_has_one_terminal_outcome(make_match, alice, bob, variant, offset_ms):
    match = make_match(variant)
    first = {"cztery-w-rzedzie": (3, 3), "kropki-10": (44, 45)}[variant]
    play_moves(match, first)  # alice to move at ply 2, both have moved: a timeout is a real result
    instant = _at_deadline(match) + timedelta(milliseconds=offset_ms)
    move = {"cztery-w-rzedzie": 4, "kropki-10": 55}[variant]
    results = run_together(
        play_call(match, alice, move, ply=2, now=instant),
        lambda: services.match_expire_turn(match_id=match.pk, ply=2, now=instant),
    )
    played, expired = results
    match.refresh_from_db()
    moves = list(Move.objects.filter(match=match).order_by("ply").values_list("ply", "player", "action", "by_timeout"))
    if isinstance(played, services.PlayResult):
        # the move won: the timer saw ply 3 (or a fresh deadline) and did nothing
        assert expired is False
        assert moves[-1] == (3, 1, move, False)
        assert match.status == Match.Status.ACTIVE and match.ply == 3
    else:
        # refused: it either applied the timeout itself (turn_expired) or came after the timer did
        assert isinstance(played, Refusal), played
        assert played.code in {"turn_expired", "match_not_active", "stale_ply"}, played
        # the timeout won exactly once: the move was not stored
        assert all(m[2] != move or m[1] != 1 for m in moves[2:])
        if variant == "cztery-w-rzedzie":
            assert match.status == Match.Status.FINISHED and match.end_reason == "timeout" and match.winner == 2
            assert len(moves) == 2
        else:  # Kropki: the timeout is alice's "end" move, stored once
            assert [m for m in moves if m[3]] == [(3, 1, 100, True)]
            assert len(moves) == 3
    # never both: at most one of {the move, the timeout} changed the match
    assert not (isinstance(played, services.PlayResult) and expired is True)


def test_a_timeout_task_run_twice_or_late_changes_nothing(make_match, alice, bob):
    match = make_match("cztery-w-rzedzie")
    play_moves(match, [3, 3])
    late = match.turn_deadline + core.grace() + timedelta(seconds=1)
    # twice at once: one acts
    results = run_together(
        lambda: services.match_expire_turn(match_id=match.pk, ply=2, now=late),
        lambda: services.match_expire_turn(match_id=match.pk, ply=2, now=late),
    )
    assert sorted(results) == [False, True]
    match.refresh_from_db()
    finished = (match.status, match.winner, match.end_reason, match.finished_at, match.ply)
    assert finished[:3] == ("finished", 2, "timeout")
    # and again, much later: nothing
    assert services.match_expire_turn(match_id=match.pk, ply=2, now=late + timedelta(hours=1)) is False
    assert services.sweep_expired(now=late + timedelta(hours=1)) == 0
    match.refresh_from_db()
    assert (match.status, match.winner, match.end_reason, match.finished_at, match.ply) == finished


def test_a_timer_for_an_old_ply_does_nothing(make_match, alice, bob):
    match = make_match("cztery-w-rzedzie")
    play_moves(match, [3, 3])
    # the alarm for ply 1 fires late, while ply 2 is running and not yet overdue
    assert services.match_expire_turn(match_id=match.pk, ply=1, now=timezone.now() + timedelta(seconds=1)) is False
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.ply == 2
