"""The one listener base of the sockets and the API's streams (games/live/listener.py), on the
real Redis of the run: a place under a socket cap until the listener ends, its topics heard
until it ends, its resync after the hub's connection to Redis broke, until it ends."""

from __future__ import annotations

import asyncio
import secrets

from games.live import hub
from games.live.listener import HubListener
from kropki_site.lib import limits
from tests.helpers import cut_hub_connection


class Inbox(HubListener):
    """A listener that keeps what it hears and whether it was told to resync."""

    def __init__(self) -> None:
        super().__init__()
        self.channel_name = "test." + secrets.token_hex(6)
        self.heard: asyncio.Queue[str] = asyncio.Queue()
        self.resynced = asyncio.Event()

    async def hear(self, text: str) -> None:
        self.heard.put_nowait(text)

    async def resync(self) -> None:
        self.resynced.set()


async def test_a_full_cap_refuses_a_place_until_a_listener_ends():
    key = limits.key("ws", "user", secrets.token_hex(4))
    first, second = Inbox(), Inbox()
    assert await first.take_place(key, 1)
    assert await first.take_place(key, 1)  # its own place, renewed, is no second place
    assert not await second.take_place(key, 1)
    await first.stop_listening()
    await first.stop_listening()  # a second end is a no-op
    assert await second.take_place(key, 1)
    assert not await Inbox().take_place(key, 1)
    await second.stop_listening()


async def test_a_renewed_place_is_still_held_and_counted_once():
    key = limits.key("ws", "user", secrets.token_hex(4))
    holder = Inbox()
    assert await holder.take_place(key, 2)
    holder.renew_place()
    assert limits.client().zcard(key) == 1
    await holder.stop_listening()
    holder.renew_place()  # after the end: takes nothing back
    assert limits.client().zcard(key) == 0


async def test_a_listener_hears_its_topics_once_until_it_ends():
    topic = "test:" + secrets.token_hex(4)
    inbox, witness = Inbox(), Inbox()
    await inbox.listen(topic, inbox.hear)
    await inbox.listen(topic, inbox.hear)  # a topic already heard is not joined twice
    await witness.listen(topic, witness.hear)
    hub.publish(topic, "one")
    assert await asyncio.wait_for(witness.heard.get(), 5) == "one"
    assert inbox.heard.get_nowait() == "one" and inbox.heard.empty()
    await inbox.stop_listening()
    hub.publish(topic, "two")
    assert await asyncio.wait_for(witness.heard.get(), 5) == "two"
    assert inbox.heard.empty()
    await witness.stop_listening()


async def test_after_the_hub_reconnects_a_listener_resyncs_and_hears_again_until_it_ends():
    topic = "test:" + secrets.token_hex(4)
    inbox, ended = Inbox(), Inbox()
    for listener in (inbox, ended):
        await listener.listen(topic, listener.hear)
        listener.rejoin_after_reconnect()
    await ended.stop_listening()
    assert cut_hub_connection() == 1  # this process's hub: the other test processes share the Redis
    await asyncio.wait_for(inbox.resynced.wait(), 5)
    hub.publish(topic, "after")
    assert await asyncio.wait_for(inbox.heard.get(), 5) == "after"
    await asyncio.sleep(hub.RESYNC_SPREAD_SECONDS)  # the resyncs are spread over this long
    assert not ended.resynced.is_set() and ended.heard.empty()
    await inbox.stop_listening()
