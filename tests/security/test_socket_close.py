"""docs/reliability.md row 20: logging out or changing the password in another tab
closes the user's open match sockets (code 4401) through the per-user group."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.factories import make_match
from tests.sockets import logged_in_client, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
NEW_PASSWORD = "nowe-Haslo-do-gry-77"


async def expect_close(ws, code: int = 4401) -> None:
    output = await ws.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": code}, output


async def two_sockets(alice, bob):
    """Alice's socket in a match, Bob's socket in the same match (must stay open)."""
    match = await database_sync_to_async(make_match)(alice, bob)
    alice_tab = await database_sync_to_async(logged_in_client)(alice)
    ws_alice = await open_socket(match.pk, cookie=session_cookie(alice_tab))
    ws_bob = await open_socket(match.pk, cookie=session_cookie(await database_sync_to_async(logged_in_client)(bob)))
    return match, ws_alice, ws_bob


async def assert_still_open(ws) -> None:
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"


async def test_logout_in_another_client_closes_the_socket(alice, bob):
    _match, ws_alice, ws_bob = await two_sockets(alice, bob)
    other_tab = await database_sync_to_async(logged_in_client)(alice)
    response = await database_sync_to_async(other_tab.post)(reverse("logout"))
    assert response.status_code == 302
    await expect_close(ws_alice)
    await assert_still_open(ws_bob)  # only Alice's sockets
    await ws_bob.disconnect()


async def test_password_change_closes_the_socket(alice, bob):
    _match, ws_alice, ws_bob = await two_sockets(alice, bob)
    other_tab = await database_sync_to_async(logged_in_client)(alice)
    response = await database_sync_to_async(other_tab.post)(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    await expect_close(ws_alice)
    await assert_still_open(ws_bob)
    await ws_bob.disconnect()


async def test_a_failed_password_change_closes_nothing(alice, bob):
    _match, ws_alice, ws_bob = await two_sockets(alice, bob)
    other_tab = await database_sync_to_async(logged_in_client)(alice)
    response = await database_sync_to_async(other_tab.post)(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert await ws_alice.receive_nothing(timeout=0.5)
    await assert_still_open(ws_alice)
    for ws in (ws_alice, ws_bob):
        await ws.disconnect()


async def test_password_reset_closes_the_socket(alice, bob, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    _match, ws_alice, ws_bob = await two_sockets(alice, bob)

    def reset() -> int:
        anonymous = Client()
        anonymous.post(reverse("password_reset"), {"email": alice.email})
        found = re.search(r"https?://[^/]+(/\S+)", str(mail.outbox[-1].body))
        assert found is not None
        link = found.group(1)
        form_page = anonymous.get(link, follow=True)  # Django swaps the token for a session marker
        assert form_page.context["validlink"]
        form_url = form_page.redirect_chain[-1][0]
        return anonymous.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}).status_code

    assert await database_sync_to_async(reset)() == 302
    await expect_close(ws_alice)
    await assert_still_open(ws_bob)
    await ws_bob.disconnect()


async def test_a_closed_socket_cannot_come_back_with_the_old_session(alice, bob):
    match, ws_alice, ws_bob = await two_sockets(alice, bob)
    alice_tab = await database_sync_to_async(logged_in_client)(alice)
    cookie = session_cookie(alice_tab)
    await database_sync_to_async(alice_tab.post)(reverse("logout"))
    await expect_close(ws_alice)
    # the logged-out session is now anonymous: a move is refused
    ws_again = await open_socket(match.pk, cookie=cookie)
    assert ws_again.first_state["you"] is None
    await ws_again.send_json_to({"type": "move", "ply": 0, "action": 3})
    error = await ws_again.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "login_required"
    for ws in (ws_again, ws_bob):
        await ws.disconnect()


async def test_a_password_change_keeps_the_changing_sessions_own_sockets(alice, bob):
    """issue 24, item 15: changing the password closed the player's own match tab (4401) and the
    page never came back. Now only the other sessions' sockets close; this session's play on
    (under the session's new key: its commands still pass the session check)."""
    match = await database_sync_to_async(make_match)(alice, bob)
    tab = await database_sync_to_async(logged_in_client)(alice)
    own = await open_socket(match.pk, cookie=session_cookie(tab))
    other = await open_socket(match.pk, cookie=session_cookie(await database_sync_to_async(logged_in_client)(alice)))
    response = await database_sync_to_async(tab.post)(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    await expect_close(other)
    await own.send_json_to({"type": "move", "ply": 0, "action": 3})
    frame = await own.receive_json_from(timeout=5)
    assert frame["type"] == "moved" and frame["ply"] == 1
    await own.disconnect()
