"""Issue 12, items 6-8 (sockets): sync amplification, socket caps, /ws/ping/ in production,
deep frames, unknown paths. Real ASGI application, real Redis channel layer, real database."""

from __future__ import annotations

import importlib
import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.live import wsframes
from games.live.match_consumer import STATE_BURST, STATE_RATE_PER_SECOND
from kropki_site.asgi import application
from kropki_site.lib import limits
from tests.sockets import ORIGIN, logged_in_client, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def next_output(ws, timeout):
    """The next frame within ``timeout``, else None (receive_output's timeout cancels the app)."""
    if await ws.receive_nothing(timeout=timeout, interval=0.005):
        return None
    return await ws.receive_output(timeout=1)


def _clear_caps(*user_ids):
    keys = [wsframes.socket_key({}, None)[0], *(wsframes.socket_key({}, uid)[0] for uid in user_ids)]
    limits.client().delete(*keys)


# -- item 8: unknown paths and unknown matches -----------------------------------------------


@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/match/-1/", "/ws/match/abc/", "/ws/"])
async def test_an_unknown_path_is_closed_with_4404_without_a_traceback(path):
    # before: the router raised ValueError("No route found") -> daphne's 500 and a traceback
    ws = WebsocketCommunicator(application, path, headers=[ORIGIN])
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await ws.disconnect()


# -- item 7: frames nested too deep, the ping endpoint -----------------------------------------


def test_nesting_depth_ignores_brackets_in_strings():
    assert wsframes.nesting_depth('{"type": "move", "x": "[[[[[[[[[[[[[[[["}') == 1
    assert wsframes.nesting_depth('{"a": [[{"b": "\\"]]]"}]]}') == 4
    assert wsframes.nesting_depth("[" * 1000) == 1000
    with pytest.raises(wsframes.TooDeep):
        wsframes.loads_bounded("[" * 9 + "]" * 9)
    assert wsframes.loads_bounded("[" * 8 + "]" * 8) == [[[[[[[[]]]]]]]]


async def test_a_deeply_nested_frame_is_refused_and_the_match_socket_stays_open(make_match, alice):
    """The depth is bounded before parsing: a frame nested 9 deep is refused even where its
    deep part would be ignored (before: this sync was answered like any other)."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    await ws.send_to(text_data='{"type": "sync", "extra": ' + "[" * 8 + "]" * 8 + "}")
    error = await ws.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "bad_frame", error
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    # as deep as 2048 bytes allow: refused by counting, never handed to json.loads's recursion
    await ws.send_to(text_data="[" * 1024 + "]" * 1024)  # 2048 bytes: within the frame size
    error = await ws.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "bad_frame", error
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    await ws.disconnect()


def test_ws_ping_is_not_routed_in_production(settings):
    import games.routing

    try:
        settings.WS_PING = False
        names = [p.name for p in importlib.reload(games.routing).websocket_urlpatterns]
        assert "ws_ping" not in names and names[-1] == "ws_not_found"
        settings.WS_PING = True
        assert "ws_ping" in [p.name for p in importlib.reload(games.routing).websocket_urlpatterns]
    finally:
        importlib.reload(games.routing)


async def test_ping_refuses_deep_frames_and_many_relay_groups():
    ws = WebsocketCommunicator(application, "/ws/ping/", headers=[ORIGIN])
    connected, _ = await ws.connect(timeout=5)
    assert connected
    await ws.receive_json_from(timeout=5)  # hello
    await ws.send_to(text_data="[" * 2048 + "]" * 2048)  # 4 KiB: RecursionError and 1011 before
    assert await ws.receive_json_from(timeout=5) == {"type": "error", "code": "bad_json"}
    replies = []
    for n in range(10):
        await ws.send_json_to({"relay": f"g{n}", "join": True})
        replies.append(await ws.receive_json_from(timeout=5))
    assert [r["type"] for r in replies].count("joined") == 4
    assert replies[-1] == {"type": "error", "code": "too_many_groups"}
    await ws.disconnect()


# -- item 6: sync amplification and socket caps --------------------------------------------------


@pytest.mark.slow
async def test_a_sync_flood_gets_a_bounded_number_of_states(make_match, alice, bob):
    """An anonymous socket sends `sync` at 8/s (the frame rate limit) for 5 s: bytes received per
    byte sent stay bounded (before: a whole state per sync, ~x100 for this small match)."""
    match = await database_sync_to_async(make_match)("kropki-10")
    _clear_caps()
    ws = await open_socket(match.pk)
    state_bytes = len(json.dumps(ws.first_state, ensure_ascii=False).encode())
    sent = received = states = 0
    frame = json.dumps({"type": "sync"})
    started = time.monotonic()
    for n in range(40):
        await ws.send_to(text_data=frame)
        sent += len(frame.encode())
        deadline = started + (n + 1) / 8
        while (left := deadline - time.monotonic()) > 0:
            if (output := await next_output(ws, left)) is None:
                break
            received += len(output["text"].encode())
            states += json.loads(output["text"])["type"] == "state"
    while (output := await next_output(ws, 2.5)) is not None:  # still on its way (a coalesced state)
        received += len(output["text"].encode())
        states += json.loads(output["text"])["type"] == "state"
    elapsed = time.monotonic() - started
    assert states <= STATE_BURST + 1 + STATE_RATE_PER_SECOND * elapsed, (states, elapsed)
    ratio = received / sent
    print(
        f"sync flood: {sent} B sent, {received} B received (x{ratio:.1f}), {states} states of {state_bytes} B, "
        f"{elapsed:.1f} s"
    )
    assert ratio <= 0.25 * state_bytes / len(frame), (ratio, state_bytes)
    # the socket still works: a sync with the current version is a pong
    await ws.send_json_to({"type": "sync", "version": ws.first_state["snapshot"]["version"]})
    assert (await ws.receive_json_from(timeout=5))["type"] == "pong"
    await ws.disconnect()


@pytest.mark.slow
async def test_a_gap_sync_after_the_burst_still_gets_its_state(make_match, alice):
    """match.js asks for a state after a gap: past the burst it comes late, never not at all."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    for _ in range(int(STATE_BURST) + 3):
        await ws.send_json_to({"type": "sync"})
    types = []
    while (output := await next_output(ws, 1 / STATE_RATE_PER_SECOND + 1)) is not None:
        types.append(json.loads(output["text"])["type"])
    assert types == ["state"] * (int(STATE_BURST) + 1), types
    await ws.disconnect()


async def _open(path, headers):
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    first = await ws.receive_output(timeout=5)
    return ws, first


async def test_open_match_sockets_are_capped_per_user_and_per_anonymous_ip(make_match, alice, bob, settings):
    settings.WS_SOCKETS_PER_USER = 3
    settings.WS_SOCKETS_PER_ANONYMOUS_IP = 4
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    _clear_caps(alice.pk, bob.pk)
    path = f"/ws/match/{match.pk}/"
    cookie = (b"cookie", session_cookie(await database_sync_to_async(logged_in_client)(alice)))
    mine = []
    for _ in range(3):
        ws, first = await _open(path, [ORIGIN, cookie])
        assert json.loads(first["text"])["type"] == "state"
        mine.append(ws)
    ws, first = await _open(path, [ORIGIN, cookie])
    assert first == {"type": "websocket.close", "code": 4429}  # before: accepted (150 for one user)
    # another user is not affected; an anonymous IP has its own cap
    other, first = await _open(
        path, [ORIGIN, (b"cookie", session_cookie(await database_sync_to_async(logged_in_client)(bob)))]
    )
    assert json.loads(first["text"])["type"] == "state"
    anonymous = []
    for _ in range(4):
        ws, first = await _open(path, [ORIGIN])
        assert json.loads(first["text"])["type"] == "state"
        anonymous.append(ws)
    ws, first = await _open(path, [ORIGIN])
    assert first == {"type": "websocket.close", "code": 4429}
    # closing one frees its place
    await mine.pop().disconnect()
    ws, first = await _open(path, [ORIGIN, cookie])
    assert json.loads(first["text"])["type"] == "state"
    mine.append(ws)
    for ws in mine + anonymous + [other]:
        await ws.disconnect()
