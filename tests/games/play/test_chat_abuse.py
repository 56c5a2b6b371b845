"""Issue 24, the chat: bounded rooms, closed after the end, none against the computer,
no guest writes anywhere, invisible or reordering text refused, the record's chat paged
and cached (items 5, 6, 17). Through the match socket's desk (games/desk.py), as a
``chat`` frame arrives."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from games import play
from games.desk import MatchDesk
from games.models import ChatMessage, Match
from games.play import chat
from kropki_site.lib.refusals import Refusal

pytestmark = pytest.mark.django_db

DESK = MatchDesk()


def send(match, user, text="hej", room="players"):
    DESK.chat(match.pk, user.pk if user is not None else None, {"room": room, "text": text})


def refused(code, match, user, text="hej", room="players"):
    with pytest.raises(Refusal) as info:
        send(match, user, text, room)
    assert info.value.code == code, info.value
    return info.value


@pytest.fixture
def match(make_match):
    return make_match("cztery-w-rzedzie")


@pytest.fixture
def guest(make_user):
    user = make_user("guest-x")
    user.is_guest = True
    user.save(update_fields=["is_guest"])
    return user


def finish(match, user, *, minutes_ago: float = 0) -> None:
    play.match_resign(match_id=match.pk, user_id=user.pk)
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(minutes=minutes_ago))


# -- item 6: guests publish nothing, no chat against the computer ---------------------------


def test_a_guest_writing_in_its_own_computer_game_is_refused(guest):
    match = play.computer_match_start(variant="cztery-w-rzedzie", user_id=guest.pk, level="latwy", colour="pink")
    error = refused("chat_closed", match, guest)
    with translation.override("pl"):
        assert error.message == "W grze z komputerem nie ma czatu."
    assert not ChatMessage.objects.exists()


def test_an_account_writing_in_a_computer_game_is_refused_in_both_rooms(alice, charlie):
    match = play.computer_match_start(variant="cztery-w-rzedzie", user_id=alice.pk, level="latwy", colour="pink")
    refused("chat_closed", match, alice)
    refused("chat_closed", match, charlie, room="spectators")
    assert not ChatMessage.objects.exists()


def test_a_guest_player_writing_to_the_players_room_is_refused(make_match, guest, bob):
    match = make_match("cztery-w-rzedzie", pink=guest, blue=bob)
    refused("account_required", match, guest)
    refused("login_required", match, None, room="spectators")
    assert not ChatMessage.objects.exists()


def test_the_computer_games_page_has_no_chat_for_a_spectator(client, alice, charlie):
    match = play.computer_match_start(variant="cztery-w-rzedzie", user_id=alice.pk, level="latwy", colour="pink")
    client.force_login(charlie)
    assert 'id="chat"' not in client.get(reverse("match", args=[match.pk])).content.decode()


# -- item 5: bounded rooms, closed after the end ----------------------------------------------


def test_writing_after_the_end_is_refused_once_the_chat_closed(match, alice, bob, settings):
    settings.CHAT_CLOSE_MINUTES = 10
    finish(match, bob, minutes_ago=2)
    send(match, alice, "gg")  # a few minutes after the end: still open
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(minutes=11))
    error = refused("chat_closed", match, alice, "jeszcze jedno")
    with translation.override("pl"):
        assert error.message == "Czat tej partii jest zamknięty."
    assert ChatMessage.objects.count() == 1


def test_a_room_takes_at_most_its_cap_of_lines(match, alice, bob, charlie, settings):
    settings.CHAT_LINES_PER_ROOM = 5
    settings.CHAT_MESSAGES_PER_WINDOW = 100
    for i in range(5):
        send(match, alice if i % 2 else bob, f"l{i}")
    refused("chat_full", match, alice, "one more")
    send(match, charlie, "the spectators have a room of their own", room="spectators")
    assert ChatMessage.objects.filter(room="players").count() == 5


def test_twenty_thousand_lines_cost_the_record_one_page_of_them(client, match, alice, bob, charlie, settings):
    """The attack: 20,000 lines made one anonymous record view cost 2.0 s and 5.3 MB (old code:
    every line rendered). Now the latest RECORD_CHAT_LINES a room, a link to the earlier ones,
    and once the chat is closed the lines come from the cache."""
    finish(match, bob, minutes_ago=60)
    now = timezone.now()
    ChatMessage.objects.bulk_create(
        ChatMessage(
            match=match,
            room="players" if i % 2 else "spectators",
            author=alice if i % 2 else charlie,
            text=f"linia numer {i} " + "x" * 100,
            created_at=now - timedelta(seconds=20_000 - i),
        )
        for i in range(20_000)
    )
    url = reverse("record", args=[match.pk])
    started = time.perf_counter()
    response = client.get(url)
    first = time.perf_counter() - started
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('class="chat-line"') == 2 * chat.RECORD_CHAT_LINES
    assert "linia numer 19999 " in html and "linia numer 19000 " not in html
    assert len(response.content) < 200_000, len(response.content)  # was 5.3 MB
    assert 'data-testid="record-chat-players-more"' in html and "?czat=2" in html
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    assert again.status_code == 200
    assert not [q for q in queries.captured_queries if "games_chatmessage" in q["sql"]]  # cached: closed
    older = client.get(url + "?czat=2").content.decode()
    assert "linia numer 19799 " in older and "linia numer 19999 " not in older
    print(f"record view with 20,000 chat lines: {first * 1000:.0f} ms, {len(response.content)} bytes")


# -- item 17: text that shows nothing, reorders the page or stacks accents --------------------


@pytest.mark.parametrize(
    "text,code",
    [
        ("\u200b\u200b\u200b", "chat_invisible"),  # zero-width spaces only
        ("\u200d\u2060\ufeff", "chat_invisible"),
        ("a\u202eolleh", "chat_bidi"),  # right-to-left override
        ("\u2067x\u2069", "chat_bidi"),  # an isolate
        ("Z" + "\u0301" * 140, "chat_too_long"),
        ("Z" + "\u0301" * 20, "chat_marks"),  # stacked accents
    ],
)
def test_invisible_reordering_or_stacked_text_is_refused(match, alice, text, code):
    refused(code, match, alice, text)
    assert not ChatMessage.objects.exists()


def test_ordinary_polish_and_a_few_marks_pass(match, alice):
    send(match, alice, "Zażółć gęślą jaźń 👍🏽 e\u0301\u0302")
    assert ChatMessage.objects.count() == 1
