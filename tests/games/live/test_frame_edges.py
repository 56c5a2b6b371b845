"""issue 24, item 12: a lone surrogate (``"\\ud800"``, valid JSON, not valid UTF-8) in a chat
line or a challenge target used to close the socket with 1011 and log a traceback each time.
Now it is refused as ``bad_frame``, nothing is written, and the socket stays usable."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import ChatMessage
from tests.sockets import open_socket

from .test_site_consumer import frame_of, site_socket

pytestmark = pytest.mark.django_db(transaction=True)

LONE = '"\\ud800"'


async def test_a_lone_surrogate_in_a_chat_line_is_a_bad_frame(make_match, alice):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    await ws.send_to(text_data='{"type": "chat", "room": "players", "text": ' + LONE + "}")
    error = await ws.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "bad_frame"
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"  # as any bad frame
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    await ws.send_json_to({"type": "chat", "room": "players", "text": "hej \U0001f600"})  # a real pair is fine
    assert (await ws.receive_json_from(timeout=5))["text"] == "hej \U0001f600"
    await ws.disconnect()


async def test_a_lone_surrogate_as_a_challenge_target_is_a_bad_frame(alice):
    ws = await site_socket(alice)
    await ws.send_to(text_data='{"type": "challenge", "to": ' + LONE + ', "variant": "cztery-w-rzedzie"}')
    assert (await frame_of(ws, "error"))["code"] == "bad_frame"
    await ws.send_json_to({"type": "nonsense"})
    assert (await frame_of(ws, "error"))["code"] == "unknown_type"  # still open and answering
    await ws.disconnect()
