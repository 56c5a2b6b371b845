"""Issue 12, item 4: guests are bounded.

- at most GUESTS_PER_IP new guests per IP per window: one more gets a 429 page
  (the site's error-page look, in the visitor's language); a visitor who keeps
  its cookie, an account and another IP are not affected;
- stale guests (no match for GUEST_STALE_DAYS) are deleted by a periodic task,
  with their aborted matches; a guest with a finished match is kept, so its
  records stay readable.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.guests import guest_create
from accounts.models import User
from games import play as services
from games.models import Match, Move
from games.play.guests import guests_delete_stale
from games.tasks import delete_stale_guests

pytestmark = pytest.mark.django_db

GAME = {"variant": "cztery-w-rzedzie", "level": "latwy", "colour": "pink"}


def test_cookieless_posts_make_at_most_the_limit_of_guests(settings):
    settings.GUESTS_PER_IP = 5
    codes = [Client().post(reverse("play_computer"), GAME).status_code for _ in range(12)]
    assert codes == [302] * 5 + [429] * 7
    assert User.objects.filter(is_guest=True).count() == 5
    assert Match.objects.count() == 5


def test_the_refusal_is_an_error_page_in_polish_and_english(settings):
    settings.GUESTS_PER_IP = 0
    response = Client(HTTP_ACCEPT_LANGUAGE="pl").post(reverse("play_computer"), GAME)
    assert response.status_code == 429
    body = response.content.decode()
    assert 'data-testid="error-page"' in body and "Błąd 429" in body and "Za dużo nowych gości" in body
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(reverse("play_computer"), GAME)
    assert response.status_code == 429 and "Too many new guests" in response.content.decode()


def test_a_kept_cookie_an_account_and_another_ip_are_not_limited(settings, alice):
    settings.GUESTS_PER_IP = 1
    browser = Client()
    for _ in range(3):
        assert browser.post(reverse("play_computer"), GAME).status_code == 302
    assert Client().post(reverse("play_computer"), GAME).status_code == 429
    account = Client()
    account.force_login(alice)
    assert account.post(reverse("play_computer"), GAME).status_code == 302
    assert Client(REMOTE_ADDR="198.51.100.9").post(reverse("play_computer"), GAME).status_code == 302


def _age(user, *, days, matches=()):
    past = timezone.now() - timedelta(days=days)
    User.objects.filter(pk=user.pk).update(date_joined=past)
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(created_at=past, last_move_at=None, finished_at=None)


def _bot_match(user):
    return services.match_create(variant="cztery-w-rzedzie", pink_id=user.pk, blue_id=None, bot_level="latwy")


def test_stale_guests_go_their_finished_matches_stay_readable(client, alice):
    # an old guest that never played: deleted
    idle = guest_create()
    _age(idle, days=8)
    # an old guest whose only match was aborted (e.g. a flood): deleted with it and its moves
    flooder = guest_create()
    aborted = _bot_match(flooder)
    services.match_play(match_id=aborted.pk, user_id=flooder.pk, ply=0, action=3)
    services.computer_matches_trim(user_ids=[flooder.pk], keep=0)
    _age(flooder, days=8, matches=[aborted])
    # an old guest with a finished match: kept, and the record still shows its name
    player = guest_create()
    finished = _bot_match(player)
    services.match_resign(match_id=finished.pk, user_id=player.pk)
    _age(player, days=30, matches=[finished])
    # an old guest who played yesterday, a new guest, an old account: kept
    regular = guest_create()
    recent = _bot_match(regular)
    services.computer_matches_trim(user_ids=[regular.pk], keep=0)
    _age(regular, days=30)
    Match.objects.filter(pk=recent.pk).update(created_at=timezone.now() - timedelta(days=1))
    new = guest_create()
    _age(alice, days=400)

    assert guests_delete_stale() == 2
    assert not User.objects.filter(pk__in=[idle.pk, flooder.pk]).exists()
    assert not Match.objects.filter(pk=aborted.pk).exists() and not Move.objects.filter(match_id=aborted.pk).exists()
    assert set(User.objects.values_list("pk", flat=True)) == {player.pk, regular.pk, new.pk, alice.pk}
    response = client.get(reverse("record", args=[finished.pk]))
    assert response.status_code == 200 and player.username in response.content.decode()
    assert guests_delete_stale() == 0  # idempotent


def test_the_periodic_task_is_scheduled_and_runs():
    entry = next(e for e in django_settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == delete_stale_guests.name)
    assert entry["schedule"] <= 24 * 3600
    old = guest_create()
    _age(old, days=django_settings.GUEST_STALE_DAYS + 1)
    assert delete_stale_guests() == 1
    assert not User.objects.filter(pk=old.pk).exists()
