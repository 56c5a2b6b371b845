"""Issue 24, item 20: a ranked player who never makes a first move aborts the game
(no result, no rating) and could re-join the queue at once, again and again. Now the
aborts are counted (the aborted rated matches and who failed to move): after
QUEUE_ABORTS_LIMIT (2) within QUEUE_ABORT_WINDOW_MINUTES (60) the player is kept out
of the queue for QUEUE_COOLDOWN_MINUTES (15), said on the ranked queue page (pl/en).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import play as services
from games.models import Match, Seek
from games.play import matchmaking
from kropki_site.lib.refusals import Refusal
from tests.sockets import logged_in_client

pytestmark = pytest.mark.django_db


def _abandoned(pink, blue, *, blue_fails=False, at=None):
    """A rated match the player to move first never starts (or, ``blue_fails``: pink moves, blue never)."""
    now = at or timezone.now() - timedelta(minutes=3)  # ended (deadline + grace) a moment ago
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=pink.pk, blue_id=blue.pk, rated=True, now=now)
    if blue_fails:
        services.match_play(match_id=match.pk, user_id=pink.pk, ply=0, action=3, now=now)
        match.refresh_from_db()
    assert match.turn_deadline is not None
    assert services.match_expire_turn(match_id=match.pk, now=match.turn_deadline + timedelta(seconds=10))
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    return match


def test_a_ranked_player_who_never_moves_first_twice_in_an_hour_is_cooled_down(alice, bob, settings):
    settings.LANGUAGE_CODE = "pl"
    _abandoned(alice, bob)
    matchmaking.seek_create(user=alice, variants=["kropki-10"])  # one abort: may re-join
    matchmaking.seek_cancel(user=alice)
    _abandoned(bob, alice, blue_fails=True)  # as blue: bob moved, alice never did
    with pytest.raises(Refusal) as refused:
        matchmaking.seek_create(user=alice, variants=["kropki-10"])
    assert refused.value.code == "queue_cooldown"
    matchmaking.seek_create(user=bob, variants=["kropki-10"])  # the one who waited is not punished
    # the queue page says so, in Polish and in English, and nothing joined
    client = logged_in_client(alice)
    response = client.post(reverse("queue_join"), {"variant": "all"}, HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 429
    body = response.content.decode()
    assert 'data-testid="queue-cooldown"' in body
    assert "w 2 grach rankingowych nie było Twojego pierwszego ruchu" in body
    assert re.search(r"możesz wrócić o \d\d:\d\d \(za 1[34] min\)", body)
    assert not Seek.objects.filter(user=alice, status=Seek.Status.WAITING).exists()
    alice.language = "en"
    alice.save(update_fields=["language"])
    page = client.get(reverse("queue"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "You did not make your first move in 2 ranked games within an hour" in page


def test_the_cool_down_ends_after_fifteen_minutes_and_old_aborts_do_not_count(alice, bob):
    past = timezone.now() - timedelta(minutes=30)
    _abandoned(alice, bob, at=past)
    _abandoned(alice, bob, at=past)
    assert matchmaking.queue_cooldown_until(alice.pk) is None  # 15 minutes have passed
    matchmaking.seek_create(user=alice, variants=["kropki-10"])
    matchmaking.seek_cancel(user=alice)
    long_ago = timezone.now() - timedelta(minutes=90)
    Match.objects.filter(pink=alice).update(finished_at=long_ago)
    _abandoned(alice, bob)
    assert len(matchmaking.queue_aborts(alice.pk)) == 1  # the window is an hour
    matchmaking.seek_create(user=alice, variants=["kropki-10"])
