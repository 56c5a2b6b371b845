"""Chat frames on ws/match/<id>/ (docs/protocol.md "Chat") through the real ASGI
application and the settings' Redis channel layer: who reads which room, who may
write, every refusal, the history on connect, and that chat never costs a move."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from accounts.blocks import block_create
from games.models import ChatMessage
from games.play.chat import LOGIN_REQUIRED
from tests.sockets import open_socket

pytestmark = pytest.mark.django_db(transaction=True)

LINE_FIELDS = {"type", "room", "id", "author", "author_id", "text", "at"}


def chat(room: str, text: str, **extra) -> dict:
    return {"type": "chat", "room": room, "text": text, **extra}


async def expect_chat_error(ws, code: str) -> dict:
    """A chat refusal: an error frame marked for the chat, and no state frame after it."""
    error = await ws.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == code and error["for"] == "chat", error
    assert error["message"]
    assert await ws.receive_nothing(timeout=0.3)
    return error


@database_sync_to_async
def stored(match_id: int) -> list[tuple[str, str, str]]:
    return list(
        ChatMessage.objects.filter(match_id=match_id).order_by("pk").values_list("room", "author__username", "text")
    )


async def close_all(*sockets) -> None:
    for ws in sockets:
        await ws.disconnect()


async def test_the_players_chat_reaches_the_players_only(make_match, alice, bob, charlie):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a, ws_b = await open_socket(match.pk, alice), await open_socket(match.pk, bob)
    ws_c, ws_anon = await open_socket(match.pk, charlie), await open_socket(match.pk)
    await ws_a.send_json_to(chat("players", "  Powodzenia!  "))
    for ws in (ws_a, ws_b):
        frame = await ws.receive_json_from(timeout=5)
        assert set(frame) == LINE_FIELDS
        assert frame["type"] == "chat" and frame["room"] == "players" and frame["text"] == "Powodzenia!"
        assert frame["author"] == "alice" and frame["author_id"] == alice.pk and frame["at"]
    for ws in (ws_c, ws_anon):
        assert await ws.receive_nothing(timeout=0.3)
    assert await stored(match.pk) == [("players", "alice", "Powodzenia!")]
    await close_all(ws_a, ws_b, ws_c, ws_anon)


async def test_the_spectators_chat_reaches_the_spectators_only(make_match, alice, bob, charlie, make_user):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    dave = await database_sync_to_async(make_user)("dave")
    ws_a, ws_b = await open_socket(match.pk, alice), await open_socket(match.pk, bob)
    ws_c, ws_d, ws_anon = (
        await open_socket(match.pk, charlie),
        await open_socket(match.pk, dave),
        await open_socket(match.pk),
    )
    await ws_c.send_json_to(chat("spectators", "Ciekawa partia"))
    for ws in (ws_c, ws_d, ws_anon):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "chat" and frame["room"] == "spectators" and frame["author"] == "charlie"
    for ws in (ws_a, ws_b):
        assert await ws.receive_nothing(timeout=0.3)
    await close_all(ws_a, ws_b, ws_c, ws_d, ws_anon)


async def test_history_comes_after_the_state_for_the_room_one_reads(make_match, alice, bob, charlie):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a, ws_c = await open_socket(match.pk, alice), await open_socket(match.pk, charlie)
    await ws_a.send_json_to(chat("players", "Cześć"))
    await ws_c.send_json_to(chat("spectators", "Hej"))
    assert (await ws_a.receive_json_from(timeout=5))["text"] == "Cześć"
    assert (await ws_c.receive_json_from(timeout=5))["text"] == "Hej"
    await close_all(ws_a, ws_c)
    for user, room, text in [(bob, "players", "Cześć"), (charlie, "spectators", "Hej"), (None, "spectators", "Hej")]:
        ws = await open_socket(match.pk, user)  # read its state first
        history = await ws.receive_json_from(timeout=5)
        assert history["type"] == "chat_history" and history["room"] == room
        assert [line["text"] for line in history["lines"]] == [text]
        assert set(history["lines"][0]) == LINE_FIELDS - {"type"}
        assert await ws.receive_nothing(timeout=0.3)
        await ws.disconnect()


async def test_an_empty_room_sends_no_history(make_match, alice):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()


BAD_CHAT = [
    (chat("players", "x" * 141), "chat_too_long"),
    (chat("players", ""), "chat_empty"),
    (chat("players", " \n\t "), "chat_empty"),
    (chat("players", 5), "bad_frame"),  # type: ignore[arg-type]  # not a string, on purpose
    ({"type": "chat", "room": "players"}, "bad_frame"),
    (chat("lobby", "hej"), "bad_frame"),
    ({"type": "chat", "room": ["players"], "text": "hej"}, "bad_frame"),
    (chat("spectators", "hej"), "not_a_spectator"),
]


@pytest.mark.parametrize("frame,code", BAD_CHAT, ids=[c + "-" + str(i) for i, (_, c) in enumerate(BAD_CHAT)])
async def test_bad_chat_frames_get_their_code_and_store_nothing(make_match, alice, frame, code):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    await ws.send_json_to(frame)
    await expect_chat_error(ws, code)
    assert await stored(match.pk) == []
    await ws.disconnect()


async def test_140_characters_are_fine_and_counted_as_characters(make_match, alice):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    text = "ż" * 139 + "😀"
    await ws.send_json_to(chat("players", text))
    assert (await ws.receive_json_from(timeout=5))["text"] == text
    await ws.disconnect()


async def test_who_may_not_write(make_match, alice, bob, charlie):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_c = await open_socket(match.pk, charlie)
    for room in ("spectators", "players"):
        ws_anon = await open_socket(match.pk)  # one each: a socket hears one chat refusal a second
        await ws_anon.send_json_to(chat(room, "hej"))
        error = await expect_chat_error(ws_anon, "login_required")
        with translation.override("pl"):
            assert error["message"] == str(LOGIN_REQUIRED)  # worded for the chat, in the socket's language
        await ws_anon.disconnect()
    await ws_c.send_json_to(chat("players", "hej"))
    await expect_chat_error(ws_c, "not_a_player")
    assert await stored(match.pk) == []
    await close_all(ws_c)


async def test_a_blocked_player_cannot_write_to_the_blocker(make_match, alice, bob):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    await database_sync_to_async(block_create)(blocker=bob, blocked=alice)
    ws_a, ws_b = await open_socket(match.pk, alice), await open_socket(match.pk, bob)
    await ws_a.send_json_to(chat("players", "hej"))
    await expect_chat_error(ws_a, "blocked")
    assert await ws_b.receive_nothing(timeout=0.3)
    await ws_b.send_json_to(chat("players", "Dobra partia!"))  # the blocker may still write
    assert (await ws_b.receive_json_from(timeout=5))["text"] == "Dobra partia!"
    assert await stored(match.pk) == [("players", "bob", "Dobra partia!")]
    await close_all(ws_a, ws_b)


async def test_too_fast_is_refused_and_the_moves_keep_their_tokens(make_match, alice, bob):
    """Accepted lines give the socket's frame token back (a chatty player still moves); the
    chat_rate_limited refusal is answered once a second, not once a frame."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a = await open_socket(match.pk, alice)
    for i in range(5):
        await ws_a.send_json_to(chat("players", f"linia {i}"))
        assert (await ws_a.receive_json_from(timeout=5))["text"] == f"linia {i}"
    for _ in range(10):
        await ws_a.send_json_to(chat("players", "za szybko"))
    await expect_chat_error(ws_a, "chat_rate_limited")
    assert await ws_a.receive_nothing(timeout=0.5)  # one answer for ten refusals
    await ws_a.send_json_to({"type": "move", "ply": 0, "action": 3})
    moved = await ws_a.receive_json_from(timeout=5)
    assert moved["type"] == "moved" and moved["ply"] == 1
    assert len(await stored(match.pk)) == 5
    await ws_a.disconnect()


async def test_a_chat_flood_spends_the_sockets_frame_budget(make_match, alice):
    """issue 24, item 4: refused chat frames are not free. 2000 of them used to get 1995
    chat_rate_limited answers and never a rate_limited: now a refused line keeps its frame
    token, the socket's bucket runs dry (rate_limited), and chat refusals come once a second."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a = await open_socket(match.pk, alice)
    for _ in range(200):
        await ws_a.send_json_to(chat("players", "spam"))
    codes = []
    while not await ws_a.receive_nothing(timeout=0.3):
        frame = await ws_a.receive_json_from(timeout=1)
        codes.append(frame.get("code") or frame["type"])
    assert codes.count("rate_limited") >= 150
    assert codes.count("chat_rate_limited") <= 2
    assert len(await stored(match.pk)) == 5  # the chat bucket's burst, no more
    await ws_a.disconnect()


async def test_the_per_user_limit_holds_across_sockets(make_match, alice, settings):
    settings.CHAT_MESSAGES_PER_WINDOW = 2
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_1, ws_2 = await open_socket(match.pk, alice), await open_socket(match.pk, alice)
    for ws in (ws_1, ws_2):
        await ws.send_json_to(chat("players", "raz"))
        await ws_1.receive_json_from(timeout=5)
        await ws_2.receive_json_from(timeout=5)
    await ws_1.send_json_to(chat("players", "trzy"))
    await expect_chat_error(ws_1, "chat_rate_limited")
    await close_all(ws_1, ws_2)


async def test_a_foreign_match_id_in_the_frame_is_ignored(make_match, alice, bob, charlie):
    """The socket's match is its address; a "match" field cannot write elsewhere."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    other = await database_sync_to_async(make_match)("cztery-w-rzedzie", pink=charlie, blue=bob)
    ws_a, ws_other = await open_socket(match.pk, alice), await open_socket(other.pk, charlie)
    await ws_a.send_json_to(chat("players", "tylko tu", match=other.pk, match_id=other.pk))
    assert (await ws_a.receive_json_from(timeout=5))["text"] == "tylko tu"
    assert await ws_other.receive_nothing(timeout=0.3)
    assert await stored(match.pk) == [("players", "alice", "tylko tu")] and await stored(other.pk) == []
    await close_all(ws_a, ws_other)


MARKUP = "<script>alert(1)</script><img src=x onerror=alert(2)> <b>&amp;</b> http://evil.example"


async def test_markup_stays_text_in_frames_and_history(make_match, alice, bob):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a = await open_socket(match.pk, alice)
    await ws_a.send_json_to(chat("players", MARKUP))
    frame = await ws_a.receive_json_from(timeout=5)
    assert frame["text"] == MARKUP  # data, exactly as written: pages insert it as text
    await ws_a.disconnect()
    ws_b = await open_socket(match.pk, bob)
    history = await ws_b.receive_json_from(timeout=5)
    assert history["lines"][0]["text"] == MARKUP
    await ws_b.disconnect()


async def test_chat_lines_are_sent_to_the_chat_group_not_the_match_group(make_match, alice, bob):
    """A move frame and a chat line of the same moment: the move still arrives as itself."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a, ws_b = await open_socket(match.pk, alice), await open_socket(match.pk, bob)
    await ws_b.send_json_to(chat("players", "hej"))
    await ws_a.send_json_to({"type": "move", "ply": 0, "action": 3})
    kinds = sorted([(await ws_a.receive_json_from(timeout=5))["type"] for _ in range(2)])
    assert kinds == ["chat", "moved"]
    assert json.loads(json.dumps(kinds))
    await close_all(ws_a, ws_b)


async def test_a_room_goes_on_as_its_sockets_come_and_go(make_match, alice, charlie, make_user):
    """games/live/hub.py: the process is subscribed to a room's topic while one of its sockets reads it."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    dave = await database_sync_to_async(make_user)("dave")
    ws_c, ws_d = await open_socket(match.pk, charlie), await open_socket(match.pk, dave)
    await ws_d.disconnect()
    await ws_c.send_json_to(chat("spectators", "jeden"))
    assert (await ws_c.receive_json_from(timeout=5))["text"] == "jeden"
    await ws_c.disconnect()  # the room is empty here now: the process unsubscribes from its topic
    ws_c = await open_socket(match.pk, charlie)
    assert (await ws_c.receive_json_from(timeout=5))["type"] == "chat_history"
    ws_anon = await open_socket(match.pk)
    assert (await ws_anon.receive_json_from(timeout=5))["type"] == "chat_history"
    await ws_c.send_json_to(chat("spectators", "dwa"))
    for ws in (ws_c, ws_anon):
        assert (await ws.receive_json_from(timeout=5))["text"] == "dwa"
        assert await ws.receive_nothing(timeout=0.2)  # once each, not once per socket in the room
    await close_all(ws_c, ws_anon)
