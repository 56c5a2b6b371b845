"""The WebSocket path through the real ASGI application and the real Redis channel layer."""

import asyncio
import uuid

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.live.consumers import PING_GROUP
from kropki_site.asgi import application

ORIGIN = (b"origin", b"http://localhost")


def communicator(headers=(ORIGIN,)):
    return WebsocketCommunicator(application, "/ws/ping/", headers=list(headers))


def test_channel_layer_is_redis_without_socket_timeout():
    config = settings.CHANNEL_LAYERS["default"]
    assert config["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert all(host["socket_timeout"] is None for host in config["CONFIG"]["hosts"])


async def test_ping_echoes_json():
    ws = communicator()
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert await ws.receive_json_from(timeout=5) == {"type": "hello", "user": None}
    await ws.send_json_to({"n": 1})
    assert await ws.receive_json_from(timeout=5) == {"type": "echo", "data": {"n": 1}}
    await ws.send_to(text_data="not json")
    assert await ws.receive_json_from(timeout=5) == {"type": "error", "code": "bad_json"}
    await ws.send_to(text_data="x" * 5000)
    assert await ws.receive_json_from(timeout=5) == {"type": "error", "code": "bad_frame"}
    await ws.disconnect()


@pytest.mark.parametrize("headers", [[(b"origin", b"https://evil.example")], []])
async def test_ping_refuses_a_foreign_or_missing_origin(headers):
    ws = communicator(headers)
    connected, _ = await ws.connect(timeout=5)
    assert not connected
    await ws.disconnect()


@pytest.mark.slow
async def test_idle_consumer_survives_12_seconds_then_gets_a_group_send():
    """Regression for channels_redis#422: redis-py 8's 5 s socket_timeout kills idle readers."""
    ws = communicator()
    connected, _ = await ws.connect(timeout=5)
    assert connected
    await ws.receive_json_from(timeout=5)  # hello
    await asyncio.sleep(12)
    token = uuid.uuid4().hex
    await get_channel_layer().group_send(PING_GROUP, {"type": "ping.broadcast", "data": token})
    assert await ws.receive_json_from(timeout=5) == {"type": "broadcast", "data": token}
    await ws.send_json_to({"still": "alive"})
    assert await ws.receive_json_from(timeout=5) == {"type": "echo", "data": {"still": "alive"}}
    await ws.disconnect()


@pytest.mark.slow
async def test_the_trap_is_real_a_plain_host_string_times_out_when_idle():
    """Shows why the hosts are dicts: with redis-py's default socket_timeout the idle read dies."""
    from channels_redis.core import RedisChannelLayer
    from redis.exceptions import TimeoutError as RedisTimeoutError

    guarded = RedisChannelLayer(hosts=settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"])
    plain = RedisChannelLayer(hosts=[settings.REDIS_URL])

    async def idle_receive(layer):
        channel = await layer.new_channel()
        receiving = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(12)
        await layer.send(channel, {"type": "wake"})
        try:
            return await asyncio.wait_for(receiving, 5)
        except (RedisTimeoutError, TimeoutError) as exc:
            return exc
        finally:
            await layer.flush()

    good, bad = await asyncio.gather(idle_receive(guarded), idle_receive(plain))
    assert good == {"type": "wake"}
    assert isinstance(bad, (RedisTimeoutError, TimeoutError))
