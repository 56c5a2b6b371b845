"""The chat panel of the match page, the chat on the record page, and reports (views)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import play
from games.models import Report
from games.play import chat

pytestmark = pytest.mark.django_db

MARKUP = "<script>alert(1)</script><img src=x onerror=alert(2)> http://evil.example"


def _config(html: str) -> dict:
    found = re.search(r'<script id="chat-config" type="application/json">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


def test_a_player_gets_the_players_room_with_phrases_and_a_form(client, make_match, alice):
    match = make_match("cztery-w-rzedzie")
    client.force_login(alice)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-room="players"' in html and 'data-testid="chat-form"' in html
    assert "Powodzenia!" in html and "Rewanż?" in html
    assert "/static/js/chat.js" in html and "/static/css/chat.css" in html
    config = _config(html)
    assert config["room"] == "players" and config["me"] == alice.pk and config["max"] == 140
    assert not re.search(r"<script(?![^>]*(src=|application/json))", html)
    assert " style=" not in html


def test_a_spectator_gets_the_spectators_room_and_anonymous_reads_only(client, make_match, charlie):
    match = make_match("cztery-w-rzedzie")
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-room="spectators"' in html and 'data-testid="chat-readonly"' in html
    assert 'data-testid="chat-form"' not in html and 'id="chat-report"' not in html
    client.force_login(charlie)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-room="spectators"' in html and 'data-testid="chat-form"' in html
    assert "Powodzenia!" not in html  # quick phrases are for the players


def test_english_visitors_get_english_phrases(make_match, make_user):
    match = make_match("cztery-w-rzedzie")
    client = Client()
    client.force_login(match.pink)
    client.cookies["kropki_language"] = "en"
    match.pink.language = "en"
    match.pink.save(update_fields=["language"])
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Good luck!" in html and "Players' chat" in html


def test_no_players_chat_against_the_computer(client, alice):
    match = play.computer_match_start(variant="cztery-w-rzedzie", user_id=alice.pk, level="latwy", colour="pink")
    client.force_login(alice)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'id="chat"' not in html


def test_the_record_shows_both_rooms_escaped(client, make_match, alice, bob, charlie):
    match = make_match("cztery-w-rzedzie")
    chat.chat_send(match_id=match.pk, user_id=alice.pk, room="players", text=MARKUP)
    chat.chat_send(match_id=match.pk, user_id=charlie.pk, room="spectators", text="Ciekawa partia")
    play.match_resign(match_id=match.pk, user_id=bob.pk)
    html = client.get(reverse("record", args=[match.pk])).content.decode()
    assert 'data-testid="record-chat-players"' in html and 'data-testid="record-chat-spectators"' in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;" in html
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert 'href="http://evil.example"' not in html  # links are not made clickable
    assert "Ciekawa partia" in html


def test_report_a_message(client, make_match, alice, bob):
    match = make_match("cztery-w-rzedzie")
    line = chat.chat_send(match_id=match.pk, user_id=bob.pk, room="players", text="brzydkie słowo")
    client.force_login(alice)
    response = client.post(reverse("chat_report", args=[match.pk]), {"message": line["id"], "reason": "wulgarne"})
    assert response.status_code == 200 and response.json()["ok"]
    assert "Dziękujemy" in response.json()["message"]  # in the visitor's language
    report = Report.objects.get()
    assert (report.reporter_id, report.reported_id, report.match_id, report.message_id) == (
        alice.pk,
        bob.pk,
        match.pk,
        line["id"],
    )
    assert report.context[0]["text"] == "brzydkie słowo"


def test_report_a_player_and_the_refusals(client, make_match, alice, bob, charlie):
    match = make_match("cztery-w-rzedzie")
    url = reverse("chat_report", args=[match.pk])
    assert Client().post(url, {"player": bob.pk}).status_code == 403  # anonymous
    client.force_login(charlie)
    assert client.post(url, {"player": bob.pk}).json()["ok"]
    assert client.post(url, {}).status_code == 400
    assert client.post(url, {"player": "x"}).status_code == 400
    assert client.post(url, {"player": charlie.pk}).json()["code"] == "not_found"  # not a player of it
    assert client.post(reverse("chat_report", args=[987654]), {"player": bob.pk}).status_code == 404
    assert client.get(url).status_code == 405
    assert Report.objects.count() == 1


def test_report_needs_the_csrf_token(make_match, alice, bob):
    match = make_match("cztery-w-rzedzie")
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(reverse("chat_report", args=[match.pk]), {"player": bob.pk})
    assert response.status_code == 403 and not Report.objects.exists()


def test_staff_see_chat_lines_and_reports_in_the_admin(client, make_match, alice, bob, django_user_model):
    match = make_match("cztery-w-rzedzie")
    line = chat.chat_send(match_id=match.pk, user_id=bob.pk, room="players", text=MARKUP)
    report = chat.report_create(reporter_id=alice.pk, match_id=match.pk, message_id=line["id"], reason="<b>zły</b>")
    staff = django_user_model.objects.create_superuser(username="staff", email="staff@example.com", password="x")
    client.force_login(staff)
    for url in ("/admin/games/chatmessage/", "/admin/games/report/", f"/admin/games/report/{report.pk}/change/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "<script>alert(1)" not in response.content.decode()
    client.post("/admin/games/report/", {"action": "mark_handled", "_selected_action": [report.pk]})
    report.refresh_from_db()
    assert report.handled
