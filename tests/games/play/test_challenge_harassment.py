"""Issue 24 item 8: 8 fresh accounts put 8 live notices (sound, flashing title) on one player's
pages at once. Now pending and hourly challenges are capped per target, and a player may take
challenges only from players they have played (a setting, Polish and English)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games.live import transport
from games.models import Challenge
from games.play.challenges import challenge_direct_create
from kropki_site.lib.refusals import Refusal
from tests.factories import PINK_WINS
from tests.helpers import C4, play_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def notices(monkeypatch):
    frames: list[tuple[int, dict]] = []
    monkeypatch.setattr(transport, "send_to_site_user", lambda user_id, frame: frames.append((user_id, frame)))
    return frames


def challenge(user, target="alice"):
    return challenge_direct_create(user_id=user.pk, target_name=target, variant=C4, rated=False)


def test_eight_fresh_accounts_put_at_most_the_cap_of_notices_on_one_player(
    alice, make_user, notices, settings, django_capture_on_commit_callbacks
):
    settings.DIRECT_CHALLENGES_PENDING_PER_TARGET = 2
    codes = []
    for i in range(8):
        harasser = make_user(f"natret{i}")
        try:
            with django_capture_on_commit_callbacks(execute=True):
                challenge(harasser)
        except Refusal as exc:
            codes.append(exc.code)
    assert codes == ["target_busy"] * 6
    assert len([f for user, f in notices if user == alice.pk and f["type"] == "challenge_received"]) == 2


def test_a_player_receives_at_most_the_hourly_cap_of_challenges(alice, make_user, settings):
    settings.DIRECT_CHALLENGES_PER_TARGET_HOUR = 3
    for i in range(3):
        made = challenge(make_user(f"gracz{i}"))
        Challenge.objects.filter(pk=made.pk).update(status=Challenge.Status.DECLINED)  # answered, not waiting
    with pytest.raises(Refusal) as info:
        challenge(make_user("gracz-x"))
    assert info.value.code == "target_challenged_often"
    with translation.override("pl"):
        assert "w ostatniej godzinie wiele wyzwań" in info.value.message
    Challenge.objects.update(created_at=timezone.now() - timedelta(minutes=61))
    challenge(make_user("gracz-y"))


def test_challenges_only_from_players_i_have_played(client, alice, bob, charlie, make_match):
    client.force_login(alice)
    response = client.post(
        reverse("account_settings"),
        {"language": "pl", "challenges_from_played_only": "on", "notify_sound": "on", "notify_title": "on"},
    )
    assert response.status_code == 302
    assert User.objects.get(pk=alice.pk).challenges_from_played_only
    with pytest.raises(Refusal) as info:
        challenge(charlie)
    assert info.value.code == "only_played_challenge"
    with translation.override("pl"):
        assert info.value.message == "Ta osoba przyjmuje wyzwania tylko od tych, z którymi ma rozegraną partię."
    match = make_match(C4, pink=alice, blue=bob)
    play_moves(match, PINK_WINS)
    challenge(bob)  # they have played


@pytest.mark.parametrize(
    "language, label",
    [
        ("pl", "Wyzwania tylko od graczy, z którymi mam rozegraną partię"),
        ("en", "Challenges only from players I have played"),
    ],
)
def test_the_setting_is_on_the_settings_page_in_both_languages(alice, language, label):
    browser = Client()
    alice.language = language
    alice.save(update_fields=["language"])
    browser.force_login(alice)
    browser.cookies["kropki_language"] = language
    assert label in browser.get(reverse("account_settings")).content.decode()
