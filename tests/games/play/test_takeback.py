"""Takeback (games/play/takeback.py, docs/protocol.md "Takeback"): by agreement in casual games,
at once against the computer, never in rated or tournament games, TAKEBACKS_PER_PLAYER asks per
player; the Move rows, the match row (ply, history, turn, clock, scores, position key) and the
frames after it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import play as services
from games.desk import MatchDesk
from games.models import Match, Move
from games.play import guard
from games.play.core import grace
from games.selectors import match_state
from kropki_site.lib.refusals import Refusal
from tests.helpers import C4, play, play_moves

pytestmark = pytest.mark.django_db


def _rows(match: Match) -> list[int]:
    return list(Move.objects.filter(match=match).order_by("ply").values_list("action", flat=True))


def _refused(code: str, call, **kwargs) -> None:
    with pytest.raises(Refusal) as caught:
        call(**kwargs)
    assert caught.value.code == code


def test_asked_and_accepted_the_askers_last_move_and_the_reply_are_undone(
    make_match, alice, bob, django_capture_on_commit_callbacks
):
    match = play_moves(make_match(C4), [3, 2, 4, 5])  # alice 3, bob 2, alice 4, bob 5: alice to move
    before = timezone.now()
    assert services.match_takeback(match_id=match.pk, user_id=alice.pk) == "offered"
    match.refresh_from_db()
    assert (match.takeback_offer, match.ply, match.pink_takebacks, match.blue_takebacks) == (1, 4, 1, 0)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.match_answer_takeback(match_id=match.pk, user_id=bob.pk, accept=True)
    assert callbacks, "the frame goes after the commit"
    match.refresh_from_db()
    # alice's last move (4, ply 3) and bob's reply (5) are gone: alice to move at ply 2
    assert match.ply == 2 and match.history == [3, 2] == _rows(match)
    assert match.to_move == 1 and match.takeback_offer is None and match.takebacks_done == 1
    assert match.turn_deadline is not None and match.turn_deadline >= before + timedelta(seconds=5)
    assert match.position_key == ""  # casual: the guard keeps no key
    assert match_state(match).history == [3, 2]
    # and the game goes on from there
    play(match, alice, 6)
    match.refresh_from_db()
    assert match.history == [3, 2, 6] and match.to_move == 2


def test_asked_on_the_opponents_turn_only_the_askers_move_is_undone(make_match, alice, bob):
    match = play_moves(make_match(C4), [3, 2, 4])  # alice just played 4: bob to move
    services.match_takeback(match_id=match.pk, user_id=alice.pk)
    services.match_answer_takeback(match_id=match.pk, user_id=bob.pk, accept=True)
    match.refresh_from_db()
    assert match.history == [3, 2] and match.ply == 2 and match.to_move == 1


def test_refused_nothing_changes_but_the_ask_counts(make_match, alice, bob, django_capture_on_commit_callbacks):
    match = play_moves(make_match(C4), [3, 2, 4])
    services.match_takeback(match_id=match.pk, user_id=alice.pk)
    _refused("takeback_already_offered", services.match_takeback, match_id=match.pk, user_id=alice.pk)
    _refused("no_takeback_offer", services.match_answer_takeback, match_id=match.pk, user_id=alice.pk, accept=True)
    services.match_answer_takeback(match_id=match.pk, user_id=bob.pk, accept=False)
    match.refresh_from_db()
    assert match.history == [3, 2, 4] == _rows(match) and match.to_move == 2
    assert match.takeback_offer is None and match.pink_takebacks == 1 and match.takebacks_done == 0
    _refused("no_takeback_offer", services.match_answer_takeback, match_id=match.pk, user_id=bob.pk, accept=True)


def test_a_move_lets_the_ask_lapse(make_match, alice, bob):
    match = play_moves(make_match(C4), [3, 2, 4])
    services.match_takeback(match_id=match.pk, user_id=alice.pk)
    play(match, bob, 5)  # bob plays on instead of answering
    match.refresh_from_db()
    assert match.takeback_offer is None
    _refused("no_takeback_offer", services.match_answer_takeback, match_id=match.pk, user_id=bob.pk, accept=True)


def test_the_limit_is_per_player_per_game(make_match, alice, bob, settings):
    settings.TAKEBACKS_PER_PLAYER = 2
    match = play_moves(make_match(C4), [3, 2, 4])
    for _ in range(2):
        services.match_takeback(match_id=match.pk, user_id=alice.pk)
        services.match_answer_takeback(match_id=match.pk, user_id=bob.pk, accept=False)
    _refused("takeback_limit", services.match_takeback, match_id=match.pk, user_id=alice.pk)
    # bob's own asks are his own
    play(match, bob, 5)
    assert services.match_takeback(match_id=match.pk, user_id=bob.pk) == "offered"


def test_never_in_rated_or_tournament_games(make_match, alice, bob):
    rated = play_moves(make_match(C4, rated=True), [3, 2, 4])
    _refused("takeback_not_allowed", services.match_takeback, match_id=rated.pk, user_id=alice.pk)
    rated.refresh_from_db()
    assert rated.takeback_offer is None and rated.pink_takebacks == 0 and rated.history == [3, 2, 4]


def test_nothing_to_take_back_before_a_first_move(make_match, alice, bob):
    match = make_match(C4)
    _refused("takeback_nothing", services.match_takeback, match_id=match.pk, user_id=alice.pk)
    play(match, alice, 3)
    _refused("takeback_nothing", services.match_takeback, match_id=match.pk, user_id=bob.pk)
    match.refresh_from_db()
    assert match.pink_takebacks == match.blue_takebacks == 0


def test_a_spectator_cannot_ask(make_match, charlie):
    match = play_moves(make_match(C4), [3, 2])
    _refused("not_a_player", services.match_takeback, match_id=match.pk, user_id=charlie.pk)


def _computer_match(alice):
    return services.computer_match_start(user_id=alice.pk, variant=C4, level="latwy", colour="pink")


def test_against_the_computer_granted_at_once_after_its_reply(alice):
    match = _computer_match(alice)
    play(match, alice, 3)
    # the computer has not replied yet: wait for it
    _refused("takeback_wait", services.match_takeback, match_id=match.pk, user_id=alice.pk)
    match.refresh_from_db()
    services.match_bot_play(match_id=match.pk, ply=match.ply, action=2)
    assert services.match_takeback(match_id=match.pk, user_id=alice.pk) == "taken_back"
    match.refresh_from_db()
    assert match.ply == 0 and match.history == [] == _rows(match) and match.to_move == 1
    assert match.pink_takebacks == 1 and match.takebacks_done == 1
    assert match.turn_deadline is not None  # the human's clock runs again


def test_against_the_computer_not_once_the_players_time_has_run_out(alice):
    match = _computer_match(alice)
    play(match, alice, 3)
    match.refresh_from_db()
    services.match_bot_play(match_id=match.pk, ply=match.ply, action=2)
    match.refresh_from_db()
    assert match.turn_deadline is not None and match.to_move == 1
    late = match.turn_deadline + grace() + timedelta(seconds=1)
    _refused("turn_expired", services.match_takeback, match_id=match.pk, user_id=alice.pk, now=late)
    match.refresh_from_db()
    # the clock ended the game first (committed); no takeback counted, no clock restarted
    assert not match.is_active and match.turn_deadline is None
    assert match.history == [3, 2] == _rows(match) and match.pink_takebacks == 0 and match.takebacks_done == 0


def test_between_people_an_ask_cannot_be_answered_once_the_turn_has_run_out(make_match, alice, bob):
    match = play_moves(make_match(C4), [3, 2, 4])  # bob to move
    services.match_takeback(match_id=match.pk, user_id=alice.pk)
    match.refresh_from_db()
    assert match.turn_deadline is not None
    late = match.turn_deadline + grace() + timedelta(seconds=1)
    _refused("turn_expired", services.match_answer_takeback, match_id=match.pk, user_id=bob.pk, accept=True, now=late)
    match.refresh_from_db()
    assert not match.is_active and match.winner == 1 and match.history == [3, 2, 4]


def test_against_the_computer_not_while_a_rated_game_is_played(alice, bob, make_match, settings):
    settings.FAIR_PLAY_GUARD = True
    match = _computer_match(alice)
    play(match, alice, 3)
    match.refresh_from_db()
    services.match_bot_play(match_id=match.pk, ply=match.ply, action=2)
    rated = make_match(C4, rated=True, pink=bob, blue=alice)
    assert guard.has_active_rated_match(alice.pk) and rated.is_active
    _refused("rated_game_in_progress", services.match_takeback, match_id=match.pk, user_id=alice.pk)
    match.refresh_from_db()
    assert match.history == [3, 2]


def test_the_socket_desk_takes_the_frames(make_match, alice, bob):
    desk = MatchDesk()
    match = play_moves(make_match(C4), [3, 2, 4])
    assert desk.knows("takeback") and desk.knows("takeback_answer")
    desk.command("takeback", match.pk, alice.pk, {"type": "takeback"})
    with pytest.raises(Refusal) as caught:
        desk.command("takeback_answer", match.pk, bob.pk, {"type": "takeback_answer", "accept": "yes"})
    assert caught.value.code == "bad_frame"
    desk.command("takeback_answer", match.pk, bob.pk, {"type": "takeback_answer", "accept": True})
    match.refresh_from_db()
    assert match.history == [3, 2]
    state = desk.state(match.pk, alice.pk, "pl")
    assert state is not None
    assert state["snapshot"]["takebacks"] == [1, 0] and state["snapshot"]["takebacks_done"] == 1
    assert len(state["snapshot"]["moves"]) == 2
