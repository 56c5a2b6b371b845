"""match_play: guards, rule endings, the move rows and the history cache."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import play as services
from games import selectors
from games.models import Match, Move
from kropki_site.lib.refusals import Refusal
from tests.helpers import play

pytestmark = pytest.mark.django_db


def test_moves_alternate_and_are_stored_with_their_ply(make_match, alice, bob):
    match = make_match()
    play(match, alice, 3)
    play(match, bob, 3)
    match.refresh_from_db()
    assert match.ply == 2 and match.to_move == 1
    assert list(Move.objects.filter(match=match).values_list("ply", "player", "action")) == [(1, 1, 3), (2, 2, 3)]


def test_history_cache_equals_the_move_rows(make_match, alice, bob):
    match = make_match("kropki-10")
    for user, action in [(alice, 44), (bob, 45), (alice, 34), (bob, 55), (alice, 54), (bob, 0), (alice, 43)]:
        play(match, user, action)
    match.refresh_from_db()
    rows = list(Move.objects.filter(match=match).order_by("ply").values_list("action", flat=True))
    assert match.history == rows
    replayed = selectors.match_state(match)
    assert replayed.scores() == (match.pink_score, match.blue_score)


def test_not_your_turn_changes_nothing(make_match, bob):
    match = make_match()
    with pytest.raises(Refusal) as exc:
        play(match, bob, 3)
    assert exc.value.code == "not_your_turn"
    assert Move.objects.count() == 0


def test_a_stranger_cannot_move(make_match, charlie):
    match = make_match()
    with pytest.raises(Refusal) as exc:
        play(match, charlie, 3)
    assert exc.value.code == "not_a_player"


def test_anonymous_cannot_move(make_match):
    match = make_match()
    with pytest.raises(Refusal) as exc:
        services.match_play(match_id=match.pk, user_id=None, ply=0, action=3)
    assert exc.value.code == "login_required"


def test_stale_ply_is_refused(make_match, alice, bob):
    match = make_match()
    play(match, alice, 3)
    with pytest.raises(Refusal) as exc:
        play(match, bob, 2, ply=0)
    assert exc.value.code == "stale_ply"
    assert Move.objects.count() == 1


def test_duplicate_move_is_a_no_op(make_match, alice):
    match = make_match()
    play(match, alice, 3)
    result = play(match, alice, 3, ply=0)
    assert result.duplicate
    assert Move.objects.count() == 1


@pytest.mark.parametrize(
    "variant, setup, action, code",
    [
        ("cztery-w-rzedzie", [0, 0, 0, 0, 0, 0], 0, "column_full"),
        ("kropki-i-kwadraty", [0], 0, "segment_drawn"),
        ("kropki-10", [0], 0, "occupied"),
        ("cztery-w-rzedzie", [], 7, "unknown_action"),
        ("cztery-w-rzedzie", [], -1, "unknown_action"),
    ],
)
def test_engine_refusals_keep_their_code(make_match, alice, bob, variant, setup, action, code):
    match = make_match(variant)
    users = {1: alice, 2: bob}
    for a in setup:
        match.refresh_from_db()
        play(match, users[match.to_move], a)
    match.refresh_from_db()
    before = match.ply
    with pytest.raises(Refusal) as exc:
        play(match, users[match.to_move], action)
    assert exc.value.code == code
    match.refresh_from_db()
    assert match.ply == before


def test_four_in_a_row_finishes_the_match(make_match, alice, bob):
    match = make_match()
    for user, col in [(alice, 0), (bob, 1), (alice, 0), (bob, 1), (alice, 0), (bob, 1), (alice, 0)]:
        play(match, user, col)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner == 1 and match.end_reason == "four_in_a_row"
    assert match.turn_deadline is None
    with pytest.raises(Refusal) as exc:
        play(match, bob, 2)
    assert exc.value.code == "match_not_active"


def test_dots_and_boxes_extra_move_keeps_the_turn(make_match, alice, bob):
    match = make_match("kropki-i-kwadraty")
    # box (0,0): sides 0, 5, 30, 31
    for user, seg in [(alice, 0), (bob, 5), (alice, 30)]:
        play(match, user, seg)
    play(match, bob, 31)  # completes the box
    match.refresh_from_db()
    assert match.to_move == 2 and match.blue_score == 1
    assert match.turn_deadline is not None


def test_kropki_end_game_lets_the_opponent_play_on(make_match, alice, bob):
    match = make_match("kropki-10")
    end = 100
    play(match, alice, 0)
    play(match, bob, 1)
    play(match, alice, end)
    match.refresh_from_db()
    assert match.is_active and match.to_move == 2
    play(match, bob, 2)
    match.refresh_from_db()
    assert match.to_move == 2
    with pytest.raises(Refusal) as exc:
        play(match, alice, 5)
    assert exc.value.code == "player_has_ended"
    play(match, bob, end)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "score" and match.winner is None


def test_resign_loses_at_once(make_match, alice, bob):
    match = make_match()
    play(match, alice, 3)
    services.match_resign(match_id=match.pk, user_id=bob.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 1 and match.end_reason == "resign"


def test_draw_offer_accept_and_decline(make_match, alice, bob):
    match = make_match()
    services.match_offer_draw(match_id=match.pk, user_id=alice.pk)
    with pytest.raises(Refusal) as exc:
        services.match_answer_draw(match_id=match.pk, user_id=alice.pk, accept=True)
    assert exc.value.code == "no_draw_offer"
    services.match_answer_draw(match_id=match.pk, user_id=bob.pk, accept=False)
    match.refresh_from_db()
    assert match.draw_offer is None and match.is_active
    services.match_offer_draw(match_id=match.pk, user_id=bob.pk)
    services.match_answer_draw(match_id=match.pk, user_id=alice.pk, accept=True)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner is None and match.end_reason == "agreement"


def test_rematch_swaps_colours_when_both_agree(make_match, alice, bob):
    match = make_match()
    services.match_resign(match_id=match.pk, user_id=alice.pk)
    services.match_offer_rematch(match_id=match.pk, user_id=alice.pk)
    match.refresh_from_db()
    assert match.rematch_offer == 1 and match.rematch_id is None
    services.match_offer_rematch(match_id=match.pk, user_id=bob.pk)
    match.refresh_from_db()
    new = match.rematch
    assert new is not None and new.pink_id == bob.pk and new.blue_id == alice.pk and new.is_active


def test_challenge_link_starts_a_match_for_both(alice, bob):
    challenge = services.challenge_create(user_id=alice.pk, variant="kropki-20", rated=False)
    with pytest.raises(Refusal) as exc:
        services.challenge_accept(token=challenge.token, user_id=alice.pk)
    assert exc.value.code == "own_challenge"
    match = services.challenge_accept(token=challenge.token, user_id=bob.pk)
    assert {match.pink_id, match.blue_id} == {alice.pk, bob.pk}
    with pytest.raises(Refusal) as exc:
        services.challenge_accept(token=challenge.token, user_id=bob.pk)
    assert exc.value.code == "challenge_not_open"
    with pytest.raises(Refusal):
        services.challenge_accept(token="not-a-uuid", user_id=bob.pk)


# -- the clock -------------------------------------------------------------------


def later(match, seconds):
    match.refresh_from_db()
    return match.turn_deadline + timedelta(seconds=seconds)


def test_timeout_before_first_move_aborts(make_match):
    match = make_match()
    assert not services.match_expire_turn(match_id=match.pk, ply=0, now=later(match, 1))  # within grace
    assert services.match_expire_turn(match_id=match.pk, ply=0, now=later(match, 3))
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.winner is None


def test_second_player_who_never_moved_aborts_too(make_match, alice):
    match = make_match()
    play(match, alice, 3)
    assert services.match_expire_turn(match_id=match.pk, ply=1, now=later(match, 3))
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


def test_timeout_loses_in_connect_four(make_match, alice, bob):
    match = make_match()
    play(match, alice, 3)
    play(match, bob, 3)
    assert services.match_expire_turn(match_id=match.pk, ply=2, now=later(match, 3))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 2 and match.end_reason == "timeout"


def test_timeout_in_kropki_counts_as_ending_the_game(make_match, alice, bob):
    match = make_match("kropki-10")
    play(match, alice, 0)
    play(match, bob, 1)
    assert services.match_expire_turn(match_id=match.pk, ply=2, now=later(match, 3))
    match.refresh_from_db()
    assert match.is_active and match.to_move == 2 and match.ply == 3
    last = Move.objects.get(match=match, ply=3)
    assert last.by_timeout and last.player == 1 and last.action == 100


def test_timeout_task_for_an_old_ply_or_twice_does_nothing(make_match, alice, bob):
    match = make_match()
    play(match, alice, 3)
    play(match, bob, 3)
    now = later(match, 3)
    assert not services.match_expire_turn(match_id=match.pk, ply=1, now=now)
    assert services.match_expire_turn(match_id=match.pk, ply=2, now=now)
    assert not services.match_expire_turn(match_id=match.pk, ply=2, now=now)
    match.refresh_from_db()
    assert match.winner == 2


def test_late_move_is_refused_and_the_timeout_applied(make_match, alice, bob):
    match = make_match()
    play(match, alice, 3)
    play(match, bob, 3)
    with pytest.raises(Refusal) as exc:
        play(match, alice, 4, now=later(match, 3))
    assert exc.value.code == "turn_expired"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 2 and match.ply == 2


def test_move_within_grace_is_accepted(make_match, alice, bob):
    match = make_match()
    play(match, alice, 3)
    play(match, bob, 3)
    play(match, alice, 4, now=later(match, 1))
    match.refresh_from_db()
    assert match.ply == 3 and match.is_active


def test_sweeper_ends_every_overdue_match(make_match, alice, bob):
    a = make_match()
    b = make_match("kropki-i-kwadraty")
    play(a, alice, 3)
    play(a, bob, 3)
    fresh = make_match()
    now = timezone.now() + timedelta(seconds=3600)
    fresh.turn_deadline = now + timedelta(seconds=60)
    Match.objects.filter(pk=fresh.pk).update(turn_deadline=fresh.turn_deadline)
    assert services.sweep_expired(now=now) == 2
    a.refresh_from_db(), b.refresh_from_db(), fresh.refresh_from_db()
    assert a.status == Match.Status.FINISHED and b.status == Match.Status.ABORTED and fresh.is_active


def test_state_cache_never_answers_for_another_game_with_the_same_id(make_match):
    match = make_match("cztery-w-rzedzie")
    assert selectors.match_state(match).game.slug == "connect4"
    match.variant = "kropki-10"  # the same id for another game, as after a rollback reuses it
    assert selectors.match_state(match).game.slug == "kropki"
