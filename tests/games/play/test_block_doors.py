"""Issue 24 item 7: a block is checked at every door (link and lobby accept, offers, the
spectators' room of the blocker's other games), a pending challenge from a just-blocked player
is cancelled on the victim's pages, and offers are limited."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.blocks import block_create
from games import play
from games.live import transport
from games.models import Challenge, ChatMessage
from games.play import chat
from games.play.challenges import challenge_direct_create, challenges_direct_pending_for
from kropki_site.lib.refusals import Refusal
from tests.helpers import C4
from tests.helpers import play as play_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch, django_capture_on_commit_callbacks):
    frames: list[tuple[int, dict]] = []
    monkeypatch.setattr(transport, "send_to_site_user", lambda user_id, frame: frames.append((user_id, frame)))
    return frames


def refused(code, fn, **kwargs):
    with pytest.raises(Refusal) as info:
        fn(**kwargs)
    assert info.value.code == code, info.value
    return info.value


@pytest.mark.parametrize("listed", [True, False])
def test_the_blocked_player_accepting_the_blockers_challenge_is_refused(alice, bob, listed):
    challenge = play.challenge_create(user_id=alice.pk, variant=C4, rated=False, listed=listed)
    block_create(blocker=alice, blocked=bob)
    refused("blocked", play.challenge_accept, token=challenge.token, user_id=bob.pk)
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.OPEN


def test_the_blocked_player_cannot_write_in_the_spectators_room_of_the_blockers_other_game(
    alice, bob, charlie, make_match, make_user
):
    dora = make_user("dora")
    other_game = make_match(C4, pink=alice, blue=dora)
    block_create(blocker=alice, blocked=bob)
    refused("blocked", chat.chat_send, match_id=other_game.pk, user_id=bob.pk, room="spectators", text="hej")
    chat.chat_send(match_id=other_game.pk, user_id=charlie.pk, room="spectators", text="hej")
    assert list(ChatMessage.objects.values_list("author__username", flat=True)) == ["charlie"]


def test_a_pending_challenge_from_a_just_blocked_player_disappears_from_the_victims_pages(
    client, alice, bob, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = challenge_direct_create(user_id=bob.pk, target_name="alice", variant=C4, rated=False)
    assert [f["type"] for _user, f in sent] == ["challenge_received", "challenge_sent"]
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("block", args=["bob"]))
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.CANCELLED
    assert challenges_direct_pending_for(alice.pk) == []
    assert sorted((user, f["type"]) for user, f in sent[2:]) == sorted(
        [(alice.pk, "challenge_cancelled"), (bob.pk, "challenge_cancelled")]
    )


def test_repeated_draw_offers_wait_ten_plies(alice, bob, make_match, settings):
    settings.DRAW_OFFER_PLIES = 10
    match = make_match("kropki-i-kwadraty")
    play.match_offer_draw(match_id=match.pk, user_id=alice.pk)
    play.match_answer_draw(match_id=match.pk, user_id=bob.pk, accept=False)
    error = refused("draw_offer_too_soon", play.match_offer_draw, match_id=match.pk, user_id=alice.pk)
    with translation.override("pl"):
        assert "kilka ruchów" in error.message
    play.match_offer_draw(match_id=match.pk, user_id=bob.pk)  # each player has their own
    play.match_answer_draw(match_id=match.pk, user_id=alice.pk, accept=False)
    # ten plies later alice may offer again (Dots and Boxes: edges far apart, no box closed)
    for edge in (0, 59, 1, 58, 2, 57, 3, 56, 4, 55):
        match.refresh_from_db()
        play_move(match, alice if match.to_move == 1 else bob, edge)
    play.match_offer_draw(match_id=match.pk, user_id=alice.pk)


def test_a_second_rematch_offer_in_one_match_is_refused(alice, bob, make_match):
    match = make_match(C4)
    play.match_resign(match_id=match.pk, user_id=bob.pk)
    play.match_offer_rematch(match_id=match.pk, user_id=alice.pk)
    play.match_decline_rematch(match_id=match.pk, user_id=bob.pk)
    refused("rematch_already_offered", play.match_offer_rematch, match_id=match.pk, user_id=alice.pk)


def test_offers_stop_at_a_block(alice, bob, make_match):
    active = make_match(C4)
    block_create(blocker=alice, blocked=bob)
    refused("blocked", play.match_offer_draw, match_id=active.pk, user_id=bob.pk)
    finished = make_match(C4)
    play.match_resign(match_id=finished.pk, user_id=bob.pk)
    refused("blocked", play.match_offer_rematch, match_id=finished.pk, user_id=bob.pk)
    refused("blocked", play.match_offer_rematch, match_id=finished.pk, user_id=alice.pk)
