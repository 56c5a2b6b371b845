"""The match page and challenges by link (views)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.models import Challenge, Match

pytestmark = pytest.mark.django_db


def _snapshot(html: str) -> dict:
    found = re.search(r'<script id="match-snapshot" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the snapshot is passed as json_script"
    return json.loads(found.group(1))


def test_match_page_for_a_player_has_the_board_controls_and_the_snapshot(client, make_match, alice):
    match = make_match("cztery-w-rzedzie")
    client.force_login(alice)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-testid="controls"' in html
    assert "<svg" in html and 'data-action="3"' in html
    snap = _snapshot(html)
    assert snap["id"] == match.pk and snap["ply"] == 0 and snap["deadline"]
    assert "/static/js/match.js" in html
    # CSP: no inline script that executes, no inline styles
    assert not re.search(r"<script(?![^>]*(src=|application/json))", html)
    assert " style=" not in html


def test_match_page_for_a_spectator_and_anonymous_has_no_controls(client, make_match, charlie):
    match = make_match("kropki-10")
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-testid="spectating"' in html and 'data-testid="controls"' not in html
    client.force_login(charlie)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-testid="spectating"' in html


def test_unknown_match_is_404(client):
    assert client.get("/partia/999999/").status_code == 404


def test_challenge_needs_login(client):
    response = client.get(reverse("challenge_new"))
    assert response.status_code == 302 and "/konto/" in response["Location"]


def test_challenge_flow_link_accept_and_live_status(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("challenge_new"), {"variant": "kropki-i-kwadraty", "mode": "rated"})
    challenge = Challenge.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/wyzwanie/{challenge.token}/"
    assert challenge.rated and challenge.variant == "kropki-i-kwadraty"
    page = client.get(response["Location"]).content.decode()
    assert f"/wyzwanie/{challenge.token}/" in page and "hx-get" in page
    status_url = reverse("challenge_status", args=[challenge.token])
    assert client.get(status_url).status_code == 204

    # an anonymous visitor of the link sees it, with the ways to sign up or log in and come back
    client.logout()
    response = client.get(f"/wyzwanie/{challenge.token}/")
    assert response.status_code == 200 and "next=%2Fwyzwanie%2F" in response.content.decode()

    client.force_login(bob)
    page = client.get(f"/wyzwanie/{challenge.token}/").content.decode()
    assert 'data-testid="challenge-accept"' in page
    response = client.post(reverse("challenge_accept", args=[challenge.token]))
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/partia/{match.pk}/"
    assert {match.pink_id, match.blue_id} == {alice.pk, bob.pk} and match.rated

    client.force_login(alice)
    response = client.get(status_url)
    assert response["HX-Redirect"] == f"/partia/{match.pk}/"
    assert client.get(f"/wyzwanie/{challenge.token}/")["Location"] == f"/partia/{match.pk}/"


def test_own_challenge_cannot_be_accepted(client, alice):
    client.force_login(alice)
    client.post(reverse("challenge_new"), {"variant": "cztery-w-rzedzie", "mode": "casual"})
    challenge = Challenge.objects.get()
    response = client.post(reverse("challenge_accept", args=[challenge.token]), follow=True)
    assert Match.objects.count() == 0
    assert "message error" in response.content.decode()


def test_unknown_variant_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(reverse("challenge_new"), {"variant": "szachy", "mode": "casual"})
    assert response.status_code == 400 and Challenge.objects.count() == 0


@pytest.mark.django_db
def test_the_match_page_links_each_move_error_to_the_rule_behind_it(client, alice, bob):
    import json

    from games import play as services

    match = services.match_create(variant="kropki-10", pink_id=alice.pk, blue_id=bob.pk)
    body = client.get(f"/partia/{match.pk}/").content.decode()
    start = body.index('id="match-page"')
    data = json.loads(body[body.index(">", start) + 1 : body.index("</script>", start)])
    links = data["rule_links"]
    assert links["inside_territory"] == "/zasady/kropki/#poza-gra"
    assert links["player_has_ended"] == "/zasady/kropki/#konczenie"


def test_the_board_of_any_played_position_comes_over_http_cached(client, make_match, alice, bob):
    """What a live page fetches after a gap: the one renderer's SVG of position ``ply``,
    live or as a picture, in the asked language, cacheable; nothing beyond the match's ply."""
    from games import play as services

    match = make_match("kropki-10")
    services.match_play(match_id=match.pk, user_id=alice.pk, ply=0, action=44)
    services.match_play(match_id=match.pk, user_id=bob.pk, ply=1, action=45)
    live = client.get(reverse("match_board", args=[match.pk, 2]) + "?live=1&lang=en")
    assert live.status_code == 200 and live["Content-Type"].startswith("image/svg+xml")
    assert "immutable" in live["Cache-Control"] and "public" in live["Cache-Control"]
    svg = live.content.decode()
    assert 'class="board board-kropki interactive"' in svg and 'aria-label="dot a1"' in svg
    assert 'data-p="44"' in svg and 'data-p="45"' in svg and 'data-action="44"' not in svg
    before = client.get(reverse("match_board", args=[match.pk, 1]) + "?live=0&lang=pl").content.decode()
    assert 'role="img"' in before and 'data-p="44"' in before and 'data-p="45"' not in before
    assert "Różowe kropki: e5" in before and "data-action" not in before
    assert client.get(reverse("match_board", args=[match.pk, 3])).status_code == 404
    assert client.get(f"/partia/{match.pk}/plansza/-1/").status_code == 404
    assert client.get(reverse("match_board", args=[987654, 0])).status_code == 404
