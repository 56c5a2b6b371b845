"""docs/reliability.md rows 23 and 24 on the sockets: Origin checked on every WebSocket route,
and a markup username carried as data in live frames. These tests are transactional (a socket's
consumer reads the database from another thread), so they live apart from the page checks of
tests/security/test_http_security.py, whose rows are made once for their module."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.routing import websocket_urlpatterns
from kropki_site.asgi import application
from tests.factories import make_match

XSS_NAME = "<img src=x onerror=alert(1)>"


async def test_live_frames_carry_the_name_as_data(world_async):
    """The snapshot's names are JSON strings, and frames carry no HTML at all (boards come over HTTP)."""
    from tests.sockets import open_user_socket

    match, xss = world_async
    ws = await open_user_socket(match.pk, xss)
    names = {p["name"] for p in ws.first_state["snapshot"]["players"].values()}
    assert XSS_NAME in names
    assert "<svg" not in json.dumps(ws.first_state) and "board_svg" not in ws.first_state["snapshot"]
    await ws.disconnect()


@pytest.fixture
def world_async(transactional_db, alice, make_user):
    xss = make_user(XSS_NAME, email="xss@example.com")
    return make_match(xss, alice, variant="kropki-10"), xss


# -- sockets: Origin checked on every WebSocket route -------------------------------------------


def test_allowed_hosts_is_never_a_wildcard():
    assert "*" not in settings.ALLOWED_HOSTS
    assert settings.ALLOWED_HOSTS


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin",
    [
        b"https://evil.example",
        b"http://127.0.0.1.evil.example",
        b"http://evil.example:80",
        b"null",
        b"",
        None,
    ],
)
@pytest.mark.parametrize("pattern", websocket_urlpatterns, ids=lambda p: str(p.pattern))
async def test_every_socket_refuses_a_foreign_or_missing_origin(pattern, origin):
    path = "/" + str(pattern.pattern).replace("<int:match_id>", "1").replace("<str:token>", "x")
    headers = [(b"origin", origin)] if origin is not None else []
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _code = await ws.connect(timeout=5)
    assert not connected
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin, host, accepted",
    [
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000", True),  # the page's own origin
        (b"http://127.0.0.1", b"127.0.0.1:80", True),  # default ports folded
        (b"http://127.0.0.1:8080", b"127.0.0.1:8000", False),  # another port on the same host
        (b"https://127.0.0.1:8000", b"127.0.0.1:8000", False),  # another scheme
        (b"http://localhost:8000", b"127.0.0.1:8000", False),  # another allowed host, not this page's
    ],
)
async def test_a_socket_from_another_port_or_scheme_of_an_allowed_host_is_refused(origin, host, accepted):
    """issue 24, item 21: the Origin check used to compare the host only (any port, any scheme)."""
    ws = WebsocketCommunicator(application, "/ws/match/999999/", headers=[(b"origin", origin), (b"host", host)])
    connected, _code = await ws.connect(timeout=5)
    assert connected is accepted
    await ws.disconnect()
