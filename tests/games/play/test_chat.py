"""games/play/chat.py: who writes where, the text, the limits, the broadcast after
commit, the history and reports."""

from __future__ import annotations

from unittest import mock

import pytest

from accounts.blocks import block_create
from games.models import ChatMessage, Report
from games.play import chat
from kropki_site.lib.refusals import Refusal

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_match):
    return make_match("cztery-w-rzedzie")


def refused(code: str, **kwargs) -> Refusal:
    with pytest.raises(Refusal) as info:
        chat.chat_send(**kwargs)
    assert info.value.code == code, info.value
    return info.value


class TestChatSend:
    def test_a_player_writes_to_the_players_room_and_it_is_sent_after_commit(
        self, match, alice, django_capture_on_commit_callbacks
    ):
        with mock.patch("games.live.transport.send_to_chat") as send, django_capture_on_commit_callbacks(execute=True):
            line = chat.chat_send(match_id=match.pk, user_id=alice.pk, room="players", text="  Powodzenia!\n")
        assert line["text"] == "Powodzenia!" and line["author"] == "alice" and line["room"] == "players"
        send.assert_called_once()
        match_id, room, frame = send.call_args.args
        assert (match_id, room) == (match.pk, "players")
        assert frame == {"type": "chat", **line}
        assert ChatMessage.objects.get().text == "Powodzenia!"

    def test_nothing_is_sent_when_the_transaction_rolls_back(self, match, alice, django_capture_on_commit_callbacks):
        with (
            mock.patch("games.live.transport.send_to_chat") as send,
            django_capture_on_commit_callbacks(execute=False) as callbacks,
        ):
            chat.chat_send(match_id=match.pk, user_id=alice.pk, room="players", text="hej")
        assert len(callbacks) == 1 and not send.called

    def test_a_spectator_writes_to_the_spectators_room(self, match, charlie):
        line = chat.chat_send(match_id=match.pk, user_id=charlie.pk, room="spectators", text="Ciekawe")
        assert line["room"] == "spectators"

    def test_white_space_is_folded_and_control_characters_dropped(self):
        assert chat.chat_clean("  a\n\n b\tc\x00d\x07 ") == "a b cd"

    @pytest.mark.parametrize(
        "text,code",
        [("", "chat_empty"), ("   \n", "chat_empty"), ("\x00\x01", "chat_empty"), ("x" * 141, "chat_too_long")],
    )
    def test_bad_text(self, match, alice, text, code):
        refused(code, match_id=match.pk, user_id=alice.pk, room="players", text=text)
        assert not ChatMessage.objects.exists()

    def test_140_characters_after_cleaning_are_fine(self, match, alice):
        line = chat.chat_send(match_id=match.pk, user_id=alice.pk, room="players", text="  " + "ą" * 140 + "  ")
        assert len(line["text"]) == 140

    def test_who_writes_where(self, match, alice, charlie):
        refused("login_required", match_id=match.pk, user_id=None, room="spectators", text="hej")
        refused("not_a_player", match_id=match.pk, user_id=charlie.pk, room="players", text="hej")
        refused("not_a_spectator", match_id=match.pk, user_id=alice.pk, room="spectators", text="hej")
        refused("bad_frame", match_id=match.pk, user_id=alice.pk, room="lobby", text="hej")
        refused("not_found", match_id=987654, user_id=alice.pk, room="players", text="hej")
        assert not ChatMessage.objects.exists()

    def test_a_guest_may_not_write_to_the_spectators(self, match, make_user):
        guest = make_user("gosc-1")
        guest.is_guest = True
        guest.save(update_fields=["is_guest"])
        refused("account_required", match_id=match.pk, user_id=guest.pk, room="spectators", text="hej")

    def test_a_player_blocked_by_the_opponent_cannot_write(self, match, alice, bob):
        block_create(blocker=bob, blocked=alice)
        refused("blocked", match_id=match.pk, user_id=alice.pk, room="players", text="hej")
        chat.chat_send(match_id=match.pk, user_id=bob.pk, room="players", text="hej")  # one way only

    def test_the_rate_limit_is_per_user(self, match, alice, bob, settings):
        settings.CHAT_MESSAGES_PER_WINDOW = 3
        for _ in range(3):
            chat.chat_send(match_id=match.pk, user_id=alice.pk, room="players", text="hej")
        refused("chat_rate_limited", match_id=match.pk, user_id=alice.pk, room="players", text="hej")
        chat.chat_send(match_id=match.pk, user_id=bob.pk, room="players", text="hej")  # bob has his own
        assert ChatMessage.objects.count() == 4

    def test_a_refused_line_does_not_count_against_the_limit(self, match, alice, settings):
        settings.CHAT_MESSAGES_PER_WINDOW = 1
        refused("chat_empty", match_id=match.pk, user_id=alice.pk, room="players", text=" ")
        chat.chat_send(match_id=match.pk, user_id=alice.pk, room="players", text="hej")


class TestReads:
    def test_history_is_the_last_lines_of_one_room_oldest_first(self, match, alice, charlie):
        for i in range(5):
            chat.chat_send(match_id=match.pk, user_id=alice.pk, room="players", text=f"p{i}")
        chat.chat_send(match_id=match.pk, user_id=charlie.pk, room="spectators", text="s0")
        lines = chat.chat_lines(match_id=match.pk, room="players", limit=3)
        assert [line["text"] for line in lines] == ["p2", "p3", "p4"]
        assert [line["text"] for line in chat.chat_lines(match_id=match.pk, room="spectators")] == ["s0"]
        rooms = chat.chat_rooms(match_id=match.pk)
        assert [len(rooms["players"]), len(rooms["spectators"])] == [5, 1]

    def test_room_of_a_viewer(self, match, alice, charlie):
        assert chat.chat_room_of(match, alice.pk) == "players"
        assert chat.chat_room_of(match, charlie.pk) == "spectators"
        assert chat.chat_room_of(match, None) == "spectators"


class TestReports:
    def test_a_message_report_keeps_the_lines_around_it(self, match, alice, bob, settings):
        settings.CHAT_MESSAGES_PER_WINDOW = 100
        ids = [
            chat.chat_send(match_id=match.pk, user_id=(alice if i % 2 else bob).pk, room="players", text=f"l{i}")["id"]
            for i in range(14)
        ]
        report = chat.report_create(reporter_id=alice.pk, match_id=match.pk, message_id=ids[8], reason="obraża")
        assert report.reported_id == bob.pk and report.message_id == ids[8] and report.match_id == match.pk
        assert [line["text"] for line in report.context] == [f"l{i}" for i in range(3, 13)]
        assert report.reason == "obraża" and not report.handled

    def test_a_player_report(self, match, alice, bob, charlie):
        chat.chat_send(match_id=match.pk, user_id=charlie.pk, room="spectators", text="hej")
        report = chat.report_create(reporter_id=charlie.pk, match_id=match.pk, reported_id=bob.pk)
        assert report.reported_id == bob.pk and report.message is None
        assert [line["text"] for line in report.context] == ["hej"]

    def test_refusals(self, match, make_match, alice, bob, charlie, settings):
        own = chat.chat_send(match_id=match.pk, user_id=alice.pk, room="players", text="hej")
        other = make_match("cztery-w-rzedzie", pink=charlie, blue=bob)
        cases = [
            (dict(message_id=own["id"]), "report_self"),
            (dict(reported_id=alice.pk), "report_self"),
            (dict(reported_id=charlie.pk), "not_found"),  # not a player of this match
            (dict(message_id=999999), "not_found"),
        ]
        for kwargs, code in cases:
            with pytest.raises(Refusal) as info:
                chat.report_create(reporter_id=alice.pk, match_id=match.pk, **kwargs)
            assert info.value.code == code
        with pytest.raises(Refusal) as info:  # a line of another match
            chat.report_create(reporter_id=bob.pk, match_id=other.pk, message_id=own["id"])
        assert info.value.code == "not_found"
        settings.REPORTS_PER_HOUR = 1
        chat.report_create(reporter_id=bob.pk, match_id=match.pk, message_id=own["id"])
        with pytest.raises(Refusal) as info:
            chat.report_create(reporter_id=bob.pk, match_id=match.pk, reported_id=alice.pk)
        assert info.value.code == "reports_too_often"
        assert Report.objects.count() == 1
