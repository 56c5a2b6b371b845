"""The ping socket (development, tests and benches): proof that the socket stack works."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .wsframes import loads_bounded

PING_GROUP = "ping"
MAX_PING_FRAME = 4096
MAX_RELAY_GROUPS = 4  # bench/live.py joins one


class PingConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]  # channels ships no type hints
    """ws/ping/: echoes JSON frames and relays ``ping.broadcast`` group messages.

    Every socket joins the "ping" group, so a group_send through the channel
    layer (Redis) reaches it: the health of the whole socket path in one route.
    Routed only when ``settings.WS_PING`` (development, tests, bench/live.py):
    production's health check is /healthz.
    """

    async def connect(self) -> None:
        await self.channel_layer.group_add(PING_GROUP, self.channel_name)
        await self.accept()
        user = self.scope.get("user")
        await self.send_json(
            {"type": "hello", "user": user.username if user is not None and user.is_authenticated else None}
        )

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(PING_GROUP, self.channel_name)
        for group in getattr(self, "relay_groups", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if text_data is None or len(text_data) > MAX_PING_FRAME:
            await self.send_json({"type": "error", "code": "bad_frame"})
            return
        await super().receive(text_data=text_data, **kwargs)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:  # any JSON value
        try:
            return loads_bounded(text_data)  # ValueError also for a frame nested too deep
        except ValueError:
            return None

    async def receive_json(self, content: object, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json({"type": "error", "code": "bad_json"})
            return
        relay = content.get("relay")
        if isinstance(relay, str) and 0 < len(relay) <= 40 and relay.isalnum():
            # A bare group_send through the channel layer, back to every socket that
            # joined "ping-<relay>": bench/live.py's baseline for a move's broadcast.
            group = f"ping-{relay}"
            if content.get("join"):
                joined: set[str] = getattr(self, "relay_groups", set())
                if group not in joined and len(joined) >= MAX_RELAY_GROUPS:
                    await self.send_json({"type": "error", "code": "too_many_groups"})
                    return
                await self.channel_layer.group_add(group, self.channel_name)
                self.relay_groups = getattr(self, "relay_groups", set()) | {group}
                await self.send_json({"type": "joined", "group": group})
                return
            await self.channel_layer.group_send(group, {"type": "ping.broadcast", "data": content.get("data")})
            return
        await self.send_json({"type": "echo", "data": content})

    async def ping_broadcast(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "broadcast", "data": event.get("data")})
