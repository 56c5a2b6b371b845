"""Hostile WebSocket frames (docs/reliability.md row 21, issue 8 "hostile input").

Property: whatever a player sends to ``ws/match/<id>/`` — arbitrary JSON,
arbitrary text, wrong types, huge numbers, deep nesting, unicode, fields that
name the other player — the consumer does not crash, answers every invalid
frame with an ``error`` frame carrying a code (then a fresh ``state``), keeps
the socket usable, and the database does not change.

Frames that are valid for Alice right now (a legal move at the current ply,
resign, a draw offer) are excluded with ``assume``: they are supposed to
change the match, and the service tests cover them.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.live.match_consumer import MAX_FRAME_BYTES
from tests.factories import make_match
from tests.sockets import db_picture, logged_in_client, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck))  # examples: the profile (tests/conftest.py)
COMMANDS = [
    "move",
    "end",
    "resign",
    "draw_offer",
    "draw_answer",
    "rematch_offer",
    "rematch_decline",
    "claim_timeout",
    "sync",
]

# Any JSON value: the classic recursive strategy, with big and odd numbers and any unicode.
scalars = (
    st.none()
    | st.booleans()
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.sampled_from([2**63, -(2**63) - 1, 10**40])
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
wrong_ints = json_values | st.integers(min_value=-5, max_value=60)
frames_with_a_known_type = st.fixed_dictionaries(
    {"type": st.sampled_from(COMMANDS) | json_values},
    optional={
        "ply": wrong_ints,
        "action": wrong_ints,
        "accept": json_values,
        # fields a forger might hope the server trusts: it must ignore them
        "player": st.sampled_from([1, 2, 0, "blue", None]),
        "user_id": st.integers(-1, 100),
        "match_id": st.integers(-1, 100),
        "by": st.integers(0, 3),
        "side": st.integers(0, 3),
    },
)


def is_valid_for_alice(content: object, legal: list[int]) -> bool:
    """Would the server accept this from Alice (pink, to move, ply 0)? Then it may change the match."""
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        return False
    kind = content["type"]
    if kind in ("resign", "draw_offer"):
        return True
    if kind == "move":
        ply, action = content.get("ply"), content.get("action")
        return type(ply) is int and type(action) is int and ply == 0 and action in legal
    return False


@pytest.fixture
def arena(alice, bob, settings):
    """A fresh Cztery w rzędzie match, Alice (to move) logged in. Every example opens a socket of
    its own, more than a user's handshake budget allows (games/live/budget.py): these tests are
    about frames, so the budget is lifted here (tests/games/live/test_hub.py tests it)."""
    settings.WS_CONNECTS_PER_USER_BURST = 100000
    settings.WS_CONNECTS_PER_IP_BURST = 100000
    match = make_match(alice, bob)
    return match.pk, session_cookie(logged_in_client(alice))


async def send_and_check(arena, text: str | None = None, *, bytes_data: bytes | None = None, exclude=assume) -> None:
    match_id, cookie = arena
    ws = await open_socket(match_id, cookie=cookie)
    try:
        await _check(ws, match_id, text, bytes_data, exclude)
    finally:  # also when ``exclude`` skips the example: a socket left open keeps its place under the cap
        await ws.disconnect()


async def _check(ws, match_id: int, text: str | None, bytes_data: bytes | None, exclude) -> None:
    legal = ws.first_state["snapshot"]["legal"]
    if text is not None:
        try:
            content = json.loads(text)
        except (ValueError, RecursionError):
            content = None
        oversized = len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES
        exclude(oversized or not is_valid_for_alice(content, legal))
    before = await database_sync_to_async(db_picture)(match_id)
    # send_input, not send_to: the communicator's helper refuses empty frames
    await ws.send_input({"type": "websocket.receive", "text": text, "bytes": bytes_data})
    reply = await ws.receive_json_from(timeout=5)
    if text is not None and isinstance(content, dict) and content.get("type") == "sync" and not oversized:
        assert reply["type"] == "state"
    else:
        assert reply["type"] == "error", reply
        assert isinstance(reply["code"], str) and reply["code"], reply
        assert reply["message"]
        state = await ws.receive_json_from(timeout=5)
        assert state["type"] == "state" and state["ply"] == 0
    # still usable
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    assert await database_sync_to_async(db_picture)(match_id) == before


@FUZZ
@given(value=json_values)
async def test_any_json_value_is_refused_cleanly(arena, value):
    await send_and_check(arena, json.dumps(value))


@FUZZ
@given(frame=frames_with_a_known_type)
async def test_known_types_with_wrong_fields_are_refused_cleanly(arena, frame):
    await send_and_check(arena, json.dumps(frame))


@FUZZ
@given(
    text=st.text(max_size=64)
    | st.text(min_size=2000, max_size=2600)
    | st.text(alphabet='[]{}":,0123456789e.-', max_size=200)
)
async def test_any_text_is_refused_cleanly(arena, text):
    await send_and_check(arena, text)


@FUZZ
@given(data=st.binary(max_size=64))
async def test_binary_frames_are_refused(arena, data):
    await send_and_check(arena, bytes_data=data)


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"type": ["move"]}),
        json.dumps({"type": {"move": 1}}),
        "[" * 1000 + "]" * 1000,
        json.dumps({"type": "move", "ply": 0, "action": 3, "pad": "ż" * 1100}),  # 2200 bytes, 1100 characters
        json.dumps({"type": "move", "ply": 0, "action": 10**400}),
        '{"type": "move", "ply": 0, "action": 1e999}',
        '{"type": "move", "ply": NaN, "action": 3}',
        json.dumps({"type": "move\u0000", "ply": 0, "action": 3}),
        json.dumps({"type": "\ud800"}),
    ],
)
async def test_known_nasty_frames(arena, text):
    def must(condition: bool) -> None:
        assert condition

    await send_and_check(arena, text, exclude=must)


async def test_an_oversized_frame_is_refused_even_when_it_would_be_a_good_move(arena):
    match_id, cookie = arena
    ws = await open_socket(match_id, cookie=cookie)
    before = await database_sync_to_async(db_picture)(match_id)
    await ws.send_to(text_data=json.dumps({"type": "move", "ply": 0, "action": 3, "pad": " " * MAX_FRAME_BYTES}))
    error = await ws.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "frame_too_large" and error["message"]
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    assert await database_sync_to_async(db_picture)(match_id) == before
    await ws.disconnect()


async def test_a_flood_is_rate_limited_with_a_clear_error_and_the_socket_recovers(arena):
    import asyncio

    match_id, cookie = arena
    ws = await open_socket(match_id, cookie=cookie)
    before = await database_sync_to_async(db_picture)(match_id)
    for _ in range(60):
        await ws.send_json_to({"type": "move", "ply": 7, "action": 3})  # stale: refused either way
    # each frame gets rate_limited alone, or stale_ply then a state while the state bucket allows
    # (games/live/match_consumer.STATE_BURST); the states asked for beyond it coalesce into one, later
    from games.live.match_consumer import STATE_BURST

    limited, stale, states = [], 0, 0
    while not await ws.receive_nothing(timeout=3, interval=0.01):
        frame = await ws.receive_json_from(timeout=5)
        if frame["type"] == "state":
            states += 1
            continue
        assert frame["type"] == "error", frame
        if frame["code"] == "rate_limited":
            limited.append(frame)
        else:
            assert frame["code"] == "stale_ply"
            stale += 1
    assert len(limited) + stale == 60
    assert 1 <= states <= STATE_BURST + 1 < stale, (states, stale)
    assert limited and all(frame["message"] for frame in limited)
    await asyncio.sleep(0.5)  # the bucket refills
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    assert await database_sync_to_async(db_picture)(match_id) == before
    await ws.disconnect()
