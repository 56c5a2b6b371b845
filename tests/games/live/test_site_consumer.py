"""ws/site/ through the real ASGI application (origin check, session auth, routing) and the
settings' Redis channel layer: presence, the online list, direct challenges, every frame good
and bad (docs/protocol.md "Site socket")."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from accounts.blocks import block_create
from games.live import online, site_consumer
from games.models import Challenge, Match
from kropki_site.asgi import application
from tests.helpers import C4
from tests.sockets import ORIGIN, logged_in_client, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(user=None):
    headers = [ORIGIN]
    if user is not None:
        client = await database_sync_to_async(logged_in_client)(user)
        headers.append((b"cookie", session_cookie(client)))
    ws = WebsocketCommunicator(application, "/ws/site/", headers=headers)
    connected, code = await ws.connect(timeout=5)
    assert connected, code
    return ws


async def site_socket(user) -> WebsocketCommunicator:
    """A connected site socket that has read its ``hello``."""
    ws = await connect(user)
    hello = await ws.receive_json_from(timeout=5)
    assert hello == {"type": "hello", "user": user.username}
    return ws


async def frame_of(ws, kind: str, timeout: float = 5) -> dict:
    """The next frame of type ``kind`` (other frames before it, e.g. online lists, are skipped)."""
    while True:
        frame = await ws.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame


async def online_names(ws, names: list[str], timeout: float = 5) -> dict:
    """The first online list naming exactly ``names`` (an earlier push may still be on its way)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        frame = await frame_of(ws, "online", timeout=max(0.1, end - loop.time()))
        if [p["name"] for p in frame["players"]] == names:
            return frame


async def error(ws, code: str) -> dict:
    frame = await frame_of(ws, "error")
    assert frame["code"] == code, frame
    assert frame["message"] and frame["message"] != code
    return frame


async def closed_with(ws, code: int) -> None:
    out = await ws.receive_output(timeout=5)
    assert out["type"] == "websocket.close" and out.get("code") == code, out


@pytest.fixture
def fast_offline(monkeypatch):
    monkeypatch.setattr(site_consumer, "OFFLINE_GRACE_SECONDS", 0.1)
    monkeypatch.setattr(site_consumer, "ANNOUNCE_DELAY_SECONDS", 0.05)


def make_guest(make_user):
    user = make_user("gosc-abc123")
    user.is_guest = True
    user.save(update_fields=["is_guest"])
    return user


# -- connecting and presence ---------------------------------------------------------------------


async def test_an_anonymous_visitor_and_a_guest_only_watch(make_user):
    """Issue 38: a watcher's socket: the online list, nobody's presence, and no command."""
    guest = await database_sync_to_async(make_guest)(make_user)
    for user in (None, guest):
        ws = await connect(user)
        assert await ws.receive_json_from(timeout=5) == {"type": "hello", "user": None}
        await ws.send_json_to({"type": "watch_online"})
        assert (await frame_of(ws, "online"))["players"] == []
        await ws.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
        await error(ws, "login_required")
        await ws.send_json_to({"type": "tournament_berserk", "match": 1})
        await error(ws, "login_required")
        await ws.disconnect()
    assert online.online_ids() == []


async def test_a_bad_origin_is_refused_before_the_socket_opens(alice):
    ws = WebsocketCommunicator(application, "/ws/site/", headers=[(b"origin", b"http://evil.example")])
    connected, _code = await ws.connect(timeout=5)
    assert not connected


async def test_a_socket_puts_the_user_online_and_the_last_one_closing_sets_last_seen(alice, fast_offline):
    first, second = await site_socket(alice), await site_socket(alice)
    assert online.online_ids() == [alice.pk] and online.open_sockets(alice.pk) == 2
    await first.disconnect()
    await asyncio.sleep(0.3)
    assert online.is_online(alice.pk)  # one tab still open
    await second.disconnect()
    await asyncio.sleep(0.4)
    assert not online.is_online(alice.pk)
    await database_sync_to_async(alice.refresh_from_db)()
    assert alice.last_seen is not None


async def test_a_reload_within_the_grace_does_not_go_offline(alice, monkeypatch):
    monkeypatch.setattr(site_consumer, "OFFLINE_GRACE_SECONDS", 0.5)
    ws = await site_socket(alice)
    await ws.disconnect()
    ws = await site_socket(alice)  # the next page, a moment later
    await asyncio.sleep(0.8)
    assert online.is_online(alice.pk)
    await database_sync_to_async(alice.refresh_from_db)()
    assert alice.last_seen is None
    await ws.disconnect()


async def test_the_lobby_hears_who_comes_online_and_goes(alice, bob, fast_offline, settings):
    watcher = await site_socket(alice)
    await watcher.send_json_to({"type": "watch_online"})
    frame = await frame_of(watcher, "online")
    assert [p["name"] for p in frame["players"]] == ["alice"]
    assert frame["players"][0]["ratings"][C4] == "1500?" and frame["players"][0]["in_match"] is False
    ws_b = await site_socket(bob)
    await online_names(watcher, ["alice", "bob"])
    await ws_b.disconnect()
    await online_names(watcher, ["alice"])
    await watcher.disconnect()


async def test_an_invisible_player_is_not_listed_and_a_player_in_a_match_is_marked(alice, bob, charlie, make_match):
    charlie.invisible = True
    await database_sync_to_async(charlie.save)()
    await database_sync_to_async(make_match)(C4)  # alice vs bob
    sockets = [await site_socket(u) for u in (alice, bob, charlie)]
    await sockets[0].send_json_to({"type": "watch_online"})
    frame = await frame_of(sockets[0], "online")
    assert [(p["name"], p["in_match"]) for p in frame["players"]] == [("alice", True), ("bob", True)]
    for ws in sockets:
        await ws.disconnect()


async def test_site_sockets_are_capped_per_user_apart_from_match_sockets(alice, settings):
    settings.WS_SITE_SOCKETS_PER_USER = 2
    settings.WS_SOCKETS_PER_USER = 1  # the match sockets' cap does not count site sockets
    first, second = await site_socket(alice), await site_socket(alice)
    third = await connect(alice)
    await closed_with(third, 4429)
    await first.disconnect()
    again = await site_socket(alice)  # a closed tab gives its place back
    for ws in (second, again):
        await ws.disconnect()


async def test_an_idle_socket_is_sent_nothing(alice, bob):
    ws_a = await site_socket(alice)
    ws_b = await site_socket(bob)  # someone else comes online: only lobby pages hear of it
    assert await ws_a.receive_nothing(timeout=1.0)
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_logging_out_closes_the_site_socket(alice):
    client = await database_sync_to_async(logged_in_client)(alice)
    ws = WebsocketCommunicator(application, "/ws/site/", headers=[ORIGIN, (b"cookie", session_cookie(client))])
    assert (await ws.connect(timeout=5))[0]
    await ws.receive_json_from(timeout=5)
    await database_sync_to_async(client.post)("/konto/wyloguj/")
    await closed_with(ws, 4401)


# -- direct challenges -----------------------------------------------------------------------------


async def test_a_challenge_reaches_the_target_and_accepting_starts_the_match_for_both(alice, bob):
    ws_a, ws_b = await site_socket(alice), await site_socket(bob)
    await ws_a.send_json_to({"type": "challenge", "to": "BOB", "variant": C4, "rated": True, "colour": "blue"})
    received = await frame_of(ws_b, "challenge_received")
    sent = await frame_of(ws_a, "challenge_sent")
    assert received == {
        "type": "challenge_received",
        "id": received["id"],
        "from": "alice",
        "variant": C4,
        "rated": True,
        "colour": "blue",
        "seconds": 60,
        "options": "",  # the game type's own settings
        "days": None,  # a live game
    }
    assert sent["id"] == received["id"] and sent["to"] == "bob"
    await ws_b.send_json_to({"type": "challenge_answer", "id": received["id"], "accept": True})
    for ws in (ws_a, ws_b):
        accepted = await frame_of(ws, "challenge_accepted")
        assert accepted["id"] == received["id"] and accepted["match_url"] == f"/partia/{accepted['match_id']}/"
    match = await database_sync_to_async(Match.objects.get)(pk=accepted["match_id"])
    assert (match.pink_id, match.blue_id, match.rated, match.variant) == (bob.pk, alice.pk, True, C4)
    # answered: a second answer is refused
    await ws_b.send_json_to({"type": "challenge_answer", "id": received["id"], "accept": True})
    await error(ws_b, "challenge_not_open")
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_declining_and_cancelling_are_heard_by_both(alice, bob):
    ws_a, ws_b = await site_socket(alice), await site_socket(bob)
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    first = await frame_of(ws_b, "challenge_received")
    assert first["rated"] is False and first["colour"] == "random"
    await ws_b.send_json_to({"type": "challenge_answer", "id": first["id"], "accept": False})
    for ws in (ws_a, ws_b):
        assert (await frame_of(ws, "challenge_declined"))["id"] == first["id"]
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    second = await frame_of(ws_b, "challenge_received")
    await ws_a.send_json_to({"type": "challenge_cancel", "id": second["id"]})
    for ws in (ws_a, ws_b):
        assert (await frame_of(ws, "challenge_cancelled"))["id"] == second["id"]
    statuses = await database_sync_to_async(lambda: dict(Challenge.objects.values_list("pk", "status")))()
    assert statuses == {first["id"]: "declined", second["id"]: "cancelled"}
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_a_page_opened_later_still_shows_the_waiting_challenge(alice, bob):
    ws_a = await site_socket(alice)
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    await frame_of(ws_a, "challenge_sent")
    ws_b = await site_socket(bob)
    received = await frame_of(ws_b, "challenge_received")
    assert received["from"] == "alice" and 0 < received["seconds"] <= 60
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_an_unanswered_challenge_expires_on_both_screens(alice, bob, settings):
    settings.DIRECT_CHALLENGE_SECONDS = 1
    ws_a, ws_b = await site_socket(alice), await site_socket(bob)
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    received = await frame_of(ws_b, "challenge_received")
    assert received["seconds"] == 1
    for ws in (ws_a, ws_b):
        assert (await frame_of(ws, "challenge_expired", timeout=5))["id"] == received["id"]
    await ws_b.send_json_to({"type": "challenge_answer", "id": received["id"], "accept": True})
    await error(ws_b, "challenge_expired")
    # no longer pending: alice may challenge bob again
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    await frame_of(ws_a, "challenge_sent")
    for ws in (ws_a, ws_b):
        await ws.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "challenge", "to": "nobody-here", "variant": C4}, "unknown_user"),
        ({"type": "challenge", "to": "", "variant": C4}, "unknown_user"),
        ({"type": "challenge", "to": ["bob"], "variant": C4}, "bad_frame"),
        ({"type": "challenge", "to": "bob", "variant": 4}, "bad_frame"),
        ({"type": "challenge", "to": "bob", "variant": C4, "colour": 1}, "bad_frame"),
        ({"type": "challenge", "to": "<script>alert(1)</script>", "variant": C4}, "unknown_user"),
        ({"type": "challenge", "to": "ALICE", "variant": C4}, "self_challenge"),
        ({"type": "challenge", "to": "bob", "variant": "szachy"}, "unknown_variant"),
        ({"type": "challenge", "to": "bob", "variant": C4, "colour": "green"}, "bad_colour"),
        ({"type": "challenge", "to": "bob", "variant": C4, "rated": "yes"}, "bad_frame"),
        ({"type": "challenge_answer", "id": "1", "accept": True}, "bad_frame"),
        ({"type": "challenge_answer", "id": 1, "accept": 1}, "bad_frame"),
        ({"type": "challenge_answer", "id": 999999, "accept": True}, "challenge_not_open"),
        ({"type": "challenge_cancel", "id": 999999}, "challenge_not_open"),
        # issue 37, item 11 (d): a field of the wrong type is bad_frame, never an unknown id or match 1
        ({"type": "challenge_cancel", "id": "x"}, "bad_frame"),
        ({"type": "challenge_cancel", "id": True}, "bad_frame"),
        ({"type": "watch_tournament", "id": "x"}, "bad_frame"),
        ({"type": "watch_tournament", "id": True}, "bad_frame"),
        ({"type": "watch_tournament", "id": 999999, "key": 5}, "bad_frame"),
        ({"type": "watch_tournament", "id": 999999}, "tournament_not_found"),
        ({"type": "tournament_berserk", "match": True}, "bad_frame"),
        ({"type": "tournament_berserk", "match": "1"}, "bad_frame"),
        ({"type": "nonsense"}, "unknown_type"),
        ({"type": ["challenge"]}, "unknown_type"),
        ({"to": "bob"}, "unknown_type"),
    ],
)
async def test_bad_frames_get_stable_codes(alice, bob, frame, code):
    ws = await site_socket(alice)
    await ws.send_json_to(frame)
    await error(ws, code)
    assert await database_sync_to_async(Challenge.objects.count)() == 0
    await ws.disconnect()


async def test_malformed_text_too_large_binary_and_deep_frames(alice):
    ws = await site_socket(alice)
    await ws.send_to(text_data="{not json")
    await error(ws, "bad_json")
    await ws.send_to(text_data="[1, 2]")
    await error(ws, "bad_frame")
    await ws.send_to(text_data=json.dumps({"type": "challenge", "to": "x" * 2000}))
    await error(ws, "frame_too_large")
    await ws.send_to(bytes_data=b"\x00\x01")
    await error(ws, "bad_frame")
    await ws.send_to(text_data="[" * 500 + "]" * 500)
    await error(ws, "bad_frame")
    await ws.disconnect()


async def test_too_fast_is_rate_limited(alice):
    ws = await site_socket(alice)
    for _ in range(int(site_consumer.RATE_BURST) + 2):
        await ws.send_json_to({"type": "nonsense"})
    codes = [(await ws.receive_json_from(timeout=5))["code"] for _ in range(int(site_consumer.RATE_BURST) + 2)]
    assert codes.count("unknown_type") == site_consumer.RATE_BURST and "rate_limited" in codes
    await ws.disconnect()


async def test_a_guest_cannot_be_challenged(alice, make_user):
    await database_sync_to_async(make_guest)(make_user)
    ws = await site_socket(alice)
    await ws.send_json_to({"type": "challenge", "to": "gosc-abc123", "variant": C4})
    await error(ws, "not_challengeable")
    await ws.disconnect()


async def test_a_block_either_way_stops_challenges_and_their_acceptance(alice, bob, charlie):
    ws_a, ws_b, ws_c = await site_socket(alice), await site_socket(bob), await site_socket(charlie)
    await database_sync_to_async(block_create)(blocker=bob, blocked=alice)
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})  # the blocked one
    blocked = await error(ws_a, "blocked")
    assert "challenge" in blocked["message"] or "wyzwa" in blocked["message"]
    await ws_b.send_json_to({"type": "challenge", "to": "alice", "variant": C4})  # the blocker
    await error(ws_b, "blocked")
    # a block made while a challenge waits: it can no longer be accepted
    await ws_c.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    received = await frame_of(ws_b, "challenge_received")
    await database_sync_to_async(block_create)(blocker=bob, blocked=charlie)
    await ws_b.send_json_to({"type": "challenge_answer", "id": received["id"], "accept": True})
    await error(ws_b, "blocked")
    assert await database_sync_to_async(Match.objects.count)() == 0
    for ws in (ws_a, ws_b, ws_c):
        await ws.disconnect()


async def test_one_pending_challenge_per_target_and_a_cap_per_challenger(alice, bob, make_user, settings):
    settings.DIRECT_CHALLENGES_PENDING_PER_USER = 2
    await database_sync_to_async(make_user)("dora")
    await database_sync_to_async(make_user)("emil")
    ws = await site_socket(alice)
    await ws.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    sent = await frame_of(ws, "challenge_sent")
    await ws.send_json_to({"type": "challenge", "to": "Bob", "variant": "kropki-10"})
    await error(ws, "already_challenged")
    await ws.send_json_to({"type": "challenge", "to": "dora", "variant": C4})
    await frame_of(ws, "challenge_sent")
    await ws.send_json_to({"type": "challenge", "to": "emil", "variant": C4})
    await error(ws, "too_many_pending")
    # per hour, whatever became of them
    settings.DIRECT_CHALLENGES_PER_HOUR = 2
    await ws.send_json_to({"type": "challenge_cancel", "id": sent["id"]})
    await frame_of(ws, "challenge_cancelled")
    await ws.send_json_to({"type": "challenge", "to": "emil", "variant": C4})
    await error(ws, "challenges_too_often")
    await ws.disconnect()


async def test_only_the_target_answers_and_only_the_challenger_cancels(alice, bob, charlie):
    ws_a, ws_b, ws_c = await site_socket(alice), await site_socket(bob), await site_socket(charlie)
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    received = await frame_of(ws_b, "challenge_received")
    await ws_c.send_json_to({"type": "challenge_answer", "id": received["id"], "accept": True})  # a foreign id
    await error(ws_c, "challenge_not_open")
    await ws_a.send_json_to({"type": "challenge_answer", "id": received["id"], "accept": True})  # one's own
    await error(ws_a, "challenge_not_open")
    await ws_b.send_json_to({"type": "challenge_cancel", "id": received["id"]})
    await error(ws_b, "challenge_not_open")
    assert await database_sync_to_async(Match.objects.count)() == 0
    status = await database_sync_to_async(lambda: Challenge.objects.get().status)()
    assert status == "open"
    for ws in (ws_a, ws_b, ws_c):
        await ws.disconnect()


async def test_html_in_a_name_travels_as_text(alice, bob):
    def rename():
        get_user_model().objects.filter(pk=alice.pk).update(username='<img src=x onerror="alert(1)">')

    await database_sync_to_async(rename)()
    await database_sync_to_async(alice.refresh_from_db)()
    ws_a, ws_b = await site_socket(alice), await site_socket(bob)
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    received = await frame_of(ws_b, "challenge_received")
    assert received["from"] == '<img src=x onerror="alert(1)">'  # data: site.js writes it with textContent
    await ws_b.send_json_to({"type": "watch_online"})
    listed = await frame_of(ws_b, "online")
    assert '<img src=x onerror="alert(1)">' in [p["name"] for p in listed["players"]]
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_a_direct_challenge_cannot_be_accepted_by_its_link(alice, bob):
    from games.play import challenge_accept
    from kropki_site.lib.refusals import Refusal

    ws_a = await site_socket(alice)
    await ws_a.send_json_to({"type": "challenge", "to": "bob", "variant": C4})
    await frame_of(ws_a, "challenge_sent")
    token = await database_sync_to_async(lambda: Challenge.objects.get().token)()
    with pytest.raises(Refusal) as refused:
        await database_sync_to_async(challenge_accept)(token=token, user_id=bob.pk)
    assert refused.value.code == "challenge_not_open"
    await ws_a.disconnect()


async def test_an_invisible_players_tabs_coming_and_going_push_nothing(alice, bob, charlie, fast_offline):
    """issue 24, item 14: an invisible player's arrival and departure each pushed the online list
    (unchanged) to every lobby, which told the lobby someone unseen had come or gone."""
    charlie.invisible = True
    await database_sync_to_async(charlie.save)()
    watcher = await site_socket(alice)
    await watcher.send_json_to({"type": "watch_online"})
    await online_names(watcher, ["alice"])
    await asyncio.sleep(0.5)  # alice's own arrival is pushed 0.25 s after it: read it
    while not await watcher.receive_nothing(timeout=0.3):
        await watcher.receive_json_from(timeout=1)
    ws_c = await site_socket(charlie)
    assert await watcher.receive_nothing(timeout=1.0)
    await ws_c.disconnect()
    assert await watcher.receive_nothing(timeout=1.0)
    ws_b = await site_socket(bob)  # a visible player still shows at once
    await online_names(watcher, ["alice", "bob"])
    for ws in (watcher, ws_b):
        await ws.disconnect()


async def test_a_page_opened_pushes_the_list_only_when_it_changed(alice, bob, make_match, fast_offline):
    """issue 37, item 14: docs/protocol.md said an ``online`` frame is pushed when someone opens a
    page. What is meant (issue 24, item 14) is a push when the list changed: a page opening is when
    the change is looked for. Another tab of someone already listed changes nothing and pushes
    nothing; a tab opened after a match began shows the change (``in_match``) and pushes it."""
    watcher = await site_socket(alice)
    ws_b = await site_socket(bob)
    await watcher.send_json_to({"type": "watch_online"})
    await online_names(watcher, ["alice", "bob"])
    await asyncio.sleep(0.5)  # the arrivals' pushes (0.05 s after each): read them
    while not await watcher.receive_nothing(timeout=0.3):
        await watcher.receive_json_from(timeout=1)
    second = await site_socket(bob)  # bob opens another page: the list is the same
    assert await watcher.receive_nothing(timeout=1.0)
    await database_sync_to_async(make_match)(C4)  # alice vs bob: nobody's page opened yet
    third = await site_socket(bob)
    frame = await frame_of(watcher, "online")
    assert [(p["name"], p["in_match"]) for p in frame["players"]] == [("alice", True), ("bob", True)]
    for ws in (watcher, ws_b, second, third):
        await ws.disconnect()


async def test_a_change_heard_while_the_list_is_being_pushed_is_pushed_too(monkeypatch):
    """The coalesced push read the online set before bob came online, and bob's own request
    arrived while that push was still running: a second push must follow (a lost update left
    the lobby without bob; CI saw it as a time-out of the test above)."""
    monkeypatch.setattr(site_consumer, "ANNOUNCE_DELAY_SECONDS", 0.01)
    reading, release = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()
    pushes: list[int] = []

    class SlowDesk:
        def announce_online(self) -> None:
            pushes.append(len(pushes))
            if len(pushes) == 1:
                loop.call_soon_threadsafe(reading.set)
                asyncio.run_coroutine_threadsafe(release.wait(), loop).result(timeout=5)

    desk = SlowDesk()
    site_consumer.request_announce(desk)  # type: ignore[arg-type]  # a stand-in: only announce_online is asked
    await asyncio.wait_for(reading.wait(), 5)
    site_consumer.request_announce(desk)  # type: ignore[arg-type]  # bob comes online while the first list is being pushed
    release.set()
    for _ in range(100):
        if len(pushes) == 2:
            break
        await asyncio.sleep(0.05)
    assert pushes == [0, 1]


async def test_a_visitor_on_the_home_page_hears_right_now_change(alice, bob):
    """Issue 38: the home page's "Right now" over a watcher's socket: the counts and games now
    (``watch_home``), then again when a page opened shows a change (a match begun)."""
    ws = await connect()
    await ws.receive_json_from(timeout=5)
    await ws.send_json_to({"type": "watch_home"})
    first = await frame_of(ws, "home")
    assert first["playing"] == 0 and first["matches"] == []
    match = await database_sync_to_async(Match.objects.create)(pink=alice, blue=bob, variant=C4)
    player = await site_socket(alice)  # a page opened: the change is looked for and pushed
    while True:
        frame = await frame_of(ws, "home")
        if frame["playing"] == 2:
            break
    assert frame["matches"] == [[f"/partia/{match.pk}/", C4, "alice", "bob"]]
    for socket in (ws, player):
        await socket.disconnect()


async def test_the_header_hears_its_unread_count_on_opening_and_a_new_line_at_once(alice, bob, charlie):
    """games/notifications: the welcome carries the unread count; a follower arriving is pushed
    with its sentence in the reader's language and the new count."""
    from games.following.services import follow
    from games.notifications.services import deliver_pending  # beat's delivery, every second

    await database_sync_to_async(follow)(follower=charlie, username="bob")
    await database_sync_to_async(deliver_pending)()
    ws = await site_socket(bob)
    assert await frame_of(ws, "notification") == {"type": "notification", "unread": 1}
    await database_sync_to_async(follow)(follower=alice, username="bob")
    await database_sync_to_async(deliver_pending)()
    pushed = await frame_of(ws, "notification")
    assert pushed == {
        "type": "notification",
        "kind": "follower",
        "unread": 2,
        "text": "alice obserwuje Cię.",
        "url": "/gracz/alice/",
    }
    await ws.disconnect()
