"""Sockets for the tests: the real ASGI app (origin check, session auth,
routing) and the settings' Redis channel layer."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.models import Match, Move
from kropki_site.asgi import application

ORIGIN = (b"origin", b"http://127.0.0.1")


def session_cookie(client: Client) -> bytes:
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


def logged_in_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def open_socket(match_id: int, user=None, *, cookie: bytes | None = None, origin=ORIGIN) -> WebsocketCommunicator:
    """A connected socket (as ``user``, or with a session ``cookie``, or anonymous) that
    has already read its first ``state`` frame (kept as ``first_state``)."""
    headers = [origin] if origin else []
    if user is not None:
        client = await database_sync_to_async(logged_in_client)(user)
        cookie = session_cookie(client)
    if cookie is not None:
        headers.append((b"cookie", cookie))
    ws = WebsocketCommunicator(application, f"/ws/match/{match_id}/", headers=headers)
    connected, code = await ws.connect(timeout=5)
    assert connected, code
    first = await ws.receive_json_from(timeout=5)
    assert first["type"] == "state", first
    ws.first_state = first
    return ws


async def open_user_socket(match_id: int, user) -> WebsocketCommunicator:
    return await open_socket(match_id, user)


def db_picture(match_id: int) -> tuple:
    """Everything a frame could change about a match (compare before/after)."""
    match = Match.objects.get(pk=match_id)
    moves = list(Move.objects.filter(match_id=match_id).order_by("ply").values_list("ply", "player", "action"))
    fields = {f.attname: getattr(match, f.attname) for f in Match._meta.concrete_fields}
    return tuple(sorted(fields.items(), key=lambda kv: kv[0])), tuple(moves), Match.objects.count()
