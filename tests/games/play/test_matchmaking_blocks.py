"""The ranked queue keeps two players apart for BLOCK_QUEUE_HOURS after either blocked the other."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.blocks import block_create, block_delete
from games.play.matchmaking import seek_create, seek_pair
from tests.helpers import C4

pytestmark = pytest.mark.django_db


def test_a_block_either_way_keeps_two_players_apart_for_a_day(alice, bob, charlie, settings):
    now = timezone.now()
    block_create(blocker=bob, blocked=alice)
    seek_create(user=alice, variants=[C4], now=now)
    seek_create(user=bob, variants=[C4], now=now)
    assert seek_pair(now) == []
    assert seek_pair(now + timedelta(seconds=90)) == []  # however wide the window
    # a third player is paired with one of them at once
    seek_create(user=charlie, variants=[C4], now=now)
    [match] = seek_pair(now + timedelta(seconds=90))
    assert charlie.pk in (match.pink_id, match.blue_id)
    # after BLOCK_QUEUE_HOURS the two may meet again
    later = now + timedelta(hours=settings.BLOCK_QUEUE_HOURS, seconds=1)
    waiting = alice if match.pink_id != alice.pk and match.blue_id != alice.pk else bob
    other = bob if waiting == alice else alice
    seek_create(user=other, variants=[C4], now=later)
    seek_create(user=waiting, variants=[C4], now=later)
    [match] = seek_pair(later)
    assert {match.pink_id, match.blue_id} == {alice.pk, bob.pk}


def test_an_unblocked_pair_is_paired(alice, bob):
    now = timezone.now()
    block_create(blocker=alice, blocked=bob)
    block_delete(blocker=alice, blocked_id=bob.pk)
    seek_create(user=alice, variants=[C4], now=now)
    seek_create(user=bob, variants=[C4], now=now)
    assert len(seek_pair(now)) == 1
