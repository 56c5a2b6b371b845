"""Direct challenges as services (games/play/challenges.py): who may challenge whom, the caps,
colours, expiry, and the frames both players' site sockets are sent after commit."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.blocks import block_create
from games.live import transport
from games.models import Challenge, Match
from games.play import challenges
from games.play.challenges import (
    challenge_direct_answer,
    challenge_direct_cancel,
    challenge_direct_create,
    challenge_direct_expire,
)
from kropki_site.lib.refusals import Refusal
from tests.helpers import C4

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The frames handed to the transport, as (user id, frame)."""
    frames: list[tuple[int, dict]] = []
    monkeypatch.setattr(transport, "send_to_site_user", lambda user_id, frame: frames.append((user_id, frame)))
    return frames


def refused(code: str, **kwargs) -> None:
    with pytest.raises(Refusal) as exc:
        challenge_direct_create(**{"variant": C4, "rated": False, **kwargs})
    assert exc.value.code == code


def test_a_challenge_is_told_to_both_after_commit(alice, bob, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = challenge_direct_create(user_id=alice.pk, target_name="Bob", variant=C4, rated=True, colour="pink")
    assert challenge.target_id == bob.pk and challenge.colour == "pink" and not challenge.listed
    assert [(uid, f["type"]) for uid, f in sent] == [(bob.pk, "challenge_received"), (alice.pk, "challenge_sent")]
    assert sent[0][1]["from"] == "alice" and sent[1][1]["to"] == "bob" and sent[0][1]["seconds"] == 60


def test_refusals(alice, bob, make_user):
    guest = make_user("gosc-1")
    guest.is_guest = True
    guest.save()
    refused("unknown_user", user_id=alice.pk, target_name="nobody")
    refused("unknown_user", user_id=alice.pk, target_name=None)
    refused("self_challenge", user_id=alice.pk, target_name="ALICE")
    refused("not_challengeable", user_id=alice.pk, target_name="gosc-1")
    refused("account_required", user_id=guest.pk, target_name="bob")
    refused("unknown_variant", user_id=alice.pk, target_name="bob", variant="go")
    refused("bad_colour", user_id=alice.pk, target_name="bob", colour="red")
    block_create(blocker=alice, blocked=bob)
    refused("blocked", user_id=bob.pk, target_name="alice")
    refused("blocked", user_id=alice.pk, target_name="bob")
    assert Challenge.objects.count() == 0


def test_one_pending_per_target_then_again_after_expiry(alice, bob, settings):
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=False)
    refused("already_challenged", user_id=alice.pk, target_name="bob")
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.DIRECT_CHALLENGE_SECONDS + 1)):
        challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=False)


def test_caps_per_challenger(alice, make_user, settings):
    settings.DIRECT_CHALLENGES_PENDING_PER_USER = 2
    settings.DIRECT_CHALLENGES_PER_HOUR = 3
    for name in ("p1", "p2", "p3", "p4"):
        make_user(name)
    challenge_direct_create(user_id=alice.pk, target_name="p1", variant=C4, rated=False)
    challenge_direct_create(user_id=alice.pk, target_name="p2", variant=C4, rated=False)
    refused("too_many_pending", user_id=alice.pk, target_name="p3")
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        challenge_direct_create(user_id=alice.pk, target_name="p3", variant=C4, rated=False)
        refused("challenges_too_often", user_id=alice.pk, target_name="p4")
    # direct challenges do not count against the link challenges' limits
    challenges.challenge_create(user_id=alice.pk, variant=C4, rated=False)


def test_accepting_gives_the_colours_asked_for(alice, bob, sent):
    expected = {"pink": (alice.pk, bob.pk), "blue": (bob.pk, alice.pk)}
    for colour, (pink, blue) in expected.items():
        challenge = challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=True, colour=colour)
        match = challenge_direct_answer(challenge_id=challenge.pk, user_id=bob.pk, accept=True)
        assert match is not None and (match.pink_id, match.blue_id, match.rated) == (pink, blue, True)
        challenge.refresh_from_db()
        assert challenge.status == "accepted" and challenge.match_id == match.pk
    pinks: Counter[int | None] = Counter()
    for _ in range(12):
        challenge = challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=False)
        match = challenge_direct_answer(challenge_id=challenge.pk, user_id=bob.pk, accept=True)
        assert match is not None
        pinks[match.pink_id] += 1
    assert set(pinks) == {alice.pk, bob.pk}  # random: both got pink (p = 1 - 2**-11)


def test_decline_cancel_and_who_may_do_which(alice, bob, charlie):
    challenge = challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=False)
    for user, call in ((charlie, "answer"), (alice, "answer"), (bob, "cancel"), (charlie, "cancel")):
        with pytest.raises(Refusal) as exc:
            if call == "answer":
                challenge_direct_answer(challenge_id=challenge.pk, user_id=user.pk, accept=True)
            else:
                challenge_direct_cancel(challenge_id=challenge.pk, user_id=user.pk)
        assert exc.value.code == "challenge_not_open"
    assert challenge_direct_answer(challenge_id=challenge.pk, user_id=bob.pk, accept=False) is None
    challenge.refresh_from_db()
    assert challenge.status == "declined" and Match.objects.count() == 0
    other = challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=False)
    challenge_direct_cancel(challenge_id=other.pk, user_id=alice.pk)
    other.refresh_from_db()
    assert other.status == "cancelled"


def test_expiry(alice, bob, sent, settings, django_capture_on_commit_callbacks):
    challenge = challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=False)
    sent.clear()
    assert not challenge_direct_expire(challenge_id=challenge.pk)  # not yet
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.DIRECT_CHALLENGE_SECONDS)):
        with django_capture_on_commit_callbacks(execute=True):
            assert challenge_direct_expire(challenge_id=challenge.pk)
        assert sorted(uid for uid, f in sent if f == {"type": "challenge_expired", "id": challenge.pk}) == sorted(
            [alice.pk, bob.pk]
        )
        with pytest.raises(Refusal) as exc:
            challenge_direct_answer(challenge_id=challenge.pk, user_id=bob.pk, accept=True)
        assert exc.value.code == "challenge_expired"


def test_waiting_challenges_are_listed_for_a_new_page(alice, bob):
    challenge = challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=True)
    [received] = challenges.challenges_direct_pending_for(bob.pk)
    [mine] = challenges.challenges_direct_sent_by(alice.pk)
    assert received["id"] == mine["id"] == challenge.pk and received["from"] == "alice" and mine["to"] == "bob"
    assert challenges.challenges_direct_pending_for(alice.pk) == []
