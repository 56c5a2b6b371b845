"""Issue 12, item 5: challenge spam and sniping. An expiry, a cap of open challenges per user
(and of challenges created per hour), and two kinds chosen at creation: a private link (the
default, never listed) and an open challenge in the lobby."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import play as services
from games.models import Challenge, Match
from kropki_site.lib.refusals import Refusal

pytestmark = pytest.mark.django_db


def _age(challenge, minutes):
    Challenge.objects.filter(pk=challenge.pk).update(created_at=challenge.created_at - timedelta(minutes=minutes))


def test_the_form_makes_a_private_link_by_default_and_the_lobby_never_lists_it(client, alice):
    client.force_login(alice)
    for url in (reverse("challenge_new"), reverse("lobby")):  # both forms that create a challenge
        form = client.get(url).content.decode()
        assert 'name="kind" value="link" checked' in form and 'name="kind" value="lobby"' in form
    client.post(reverse("challenge_new"), {"variant": "kropki-10", "mode": "casual"})
    private = Challenge.objects.get()
    assert not private.listed
    page = client.get(reverse("challenge", args=[private.token])).content.decode()
    assert 'data-testid="challenge-listing"' in page
    client.post(reverse("challenge_new"), {"variant": "kropki-20", "mode": "casual", "kind": "lobby"})
    listed = Challenge.objects.get(variant="kropki-20")
    assert listed.listed
    # an anonymous visitor of the lobby (and its polled part) sees the open challenge only
    for url in (reverse("lobby"), reverse("lobby_lists")):
        html = Client().get(url).content.decode()
        assert f"/wyzwanie/{listed.token}/" in html
        assert str(private.token) not in html  # before: every challenge was listed, so anyone could take it


def test_an_expired_challenge_is_neither_listed_nor_acceptable(client, alice, bob):
    challenge = services.challenge_create(user_id=alice.pk, variant="kropki-10", rated=False, listed=True)
    _age(challenge, settings.CHALLENGE_TTL_MINUTES + 1)
    assert str(challenge.token) not in Client().get(reverse("lobby")).content.decode()
    with pytest.raises(Refusal) as exc:
        services.challenge_accept(token=challenge.token, user_id=bob.pk)
    assert exc.value.code == "challenge_expired"  # before: accepted, however old
    client.force_login(bob)
    response = client.post(reverse("challenge_accept", args=[challenge.token]), follow=True)
    html = response.content.decode()
    assert Match.objects.count() == 0
    assert "To wyzwanie wygasło. Poproś o nowy link." in html and 'data-testid="challenge-expired"' in html
    assert 'data-testid="challenge-accept"' not in html
    # the creator's waiting page reloads itself into the expired view
    client.force_login(alice)
    assert client.get(reverse("challenge_status", args=[challenge.token]))["HX-Refresh"] == "true"


def test_a_challenge_just_inside_its_time_is_accepted(alice, bob):
    challenge = services.challenge_create(user_id=alice.pk, variant="kropki-10", rated=False)
    _age(challenge, settings.CHALLENGE_TTL_MINUTES - 1)
    match = services.challenge_accept(token=challenge.token, user_id=bob.pk)
    assert {match.pink_id, match.blue_id} == {alice.pk, bob.pk}


def test_open_challenges_per_user_are_capped_with_a_clear_message(client, alice, bob):
    client.force_login(alice)
    for _ in range(settings.CHALLENGES_OPEN_PER_USER):
        assert client.post(reverse("challenge_new"), {"variant": "kropki-10", "kind": "lobby"}).status_code == 302
    response = client.post(reverse("challenge_new"), {"variant": "kropki-10", "kind": "lobby"})
    assert response.status_code == 400  # before: 200 challenges in 3 s filled the lobby
    assert (
        "Masz zbyt wiele otwartych wyzwań. Anuluj jedno albo poczekaj, aż któreś wygaśnie." in response.content.decode()
    )
    assert Challenge.objects.count() == settings.CHALLENGES_OPEN_PER_USER
    # another user is not affected; cancelling one, or one expiring, frees a place
    services.challenge_create(user_id=bob.pk, variant="kropki-10", rated=False)
    first, second = Challenge.objects.filter(creator=alice).order_by("created_at")[:2]
    services.challenge_cancel(token=first.token, user_id=alice.pk)
    services.challenge_create(user_id=alice.pk, variant="kropki-10", rated=False)
    _age(second, settings.CHALLENGE_TTL_MINUTES + 1)
    services.challenge_create(user_id=alice.pk, variant="kropki-10", rated=False)
    with pytest.raises(Refusal) as exc:
        services.challenge_create(user_id=alice.pk, variant="kropki-10", rated=False)
    assert exc.value.code == "too_many_challenges"


def test_creating_and_cancelling_is_capped_per_hour(alice, settings):
    settings.CHALLENGES_PER_HOUR = 5
    for _ in range(5):
        challenge = services.challenge_create(user_id=alice.pk, variant="kropki-10", rated=False)
        services.challenge_cancel(token=challenge.token, user_id=alice.pk)
    with pytest.raises(Refusal) as exc:
        services.challenge_create(user_id=alice.pk, variant="kropki-10", rated=False)
    assert exc.value.code == "challenges_too_often"
    first = Challenge.objects.first()
    assert first is not None
    Challenge.objects.update(created_at=first.created_at - timedelta(minutes=61))
    services.challenge_create(user_id=alice.pk, variant="kropki-10", rated=False)
