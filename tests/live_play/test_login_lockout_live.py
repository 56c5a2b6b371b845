"""Issue 12, item 3 through a real daphne with production flags (DEBUG=0) and
BEHIND_PROXY=1, as behind the nginx of docs/deploy.md: every request comes
from 127.0.0.1 and carries X-Forwarded-For. An attacker's wrong passwords lock
the attacker's address for that name; the owner, from another address, logs
in. Before issue 12 the lock was per (name, REMOTE_ADDR): behind the proxy,
site-wide for that name."""

from __future__ import annotations

import http.client
import re
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlparse

import pytest

from tests import live
from tests.conftest import PASSWORD

pytestmark = pytest.mark.slow

LOGIN = "/konto/logowanie/"


@pytest.fixture(scope="module")
def proxied_site():
    with live.own_site("lockout", BEHIND_PROXY="1") as site:
        site.call("user_create", username="alice", email="alice@example.com", password=PASSWORD)
        _proc, url = site.start_daphne()
        yield url


def log_in(url: str, client_ip: str, username: str, password: str) -> int:
    """GET the form, POST it, as the proxy would pass them on for ``client_ip``."""
    host = urlparse(url).netloc
    headers = {"X-Forwarded-For": client_ip, "Host": host}
    conn = http.client.HTTPConnection(host, timeout=30)
    try:
        conn.request("GET", LOGIN, headers=headers)
        page = conn.getresponse()
        body = page.read().decode()
        cookies = SimpleCookie()
        for value in page.headers.get_all("Set-Cookie") or []:
            cookies.load(value)
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        assert found is not None
        token = found.group(1)
        form = urlencode({"csrfmiddlewaretoken": token, "username": username, "password": password})
        conn.request(
            "POST",
            LOGIN,
            body=form,
            headers={
                **headers,
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": "; ".join(f"{k}={v.value}" for k, v in cookies.items()),
            },
        )
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_the_attackers_address_is_locked_and_the_owner_logs_in(proxied_site):
    attacker, owner = "203.0.113.7", "198.51.100.20"
    statuses = [log_in(proxied_site, attacker, name, "zle-haslo") for name in ["alice", "ALICE", "Alice"] * 3]
    assert statuses[:4] == [200] * 4 and set(statuses[4:]) == {429}
    assert log_in(proxied_site, attacker, "alice", PASSWORD) == 429
    assert log_in(proxied_site, owner, "alice", PASSWORD) == 302
    assert log_in(proxied_site, attacker, "alice", PASSWORD) == 429


def test_thirty_made_up_names_from_a_school_do_not_lock_out_its_pupils(proxied_site):
    """Issue 24 item 13, through the proxy: 30 failed log-ins with made-up names from one address
    used to lock every account there for the cool-off. Now the address is slowed: an owner on it
    logs in with the right password; an attempt right after gets 429 unchecked."""
    school = "192.0.2.44"
    statuses = [log_in(proxied_site, school, f"zmyslony{i}", "zle-haslo") for i in range(30)]
    assert set(statuses) == {200}
    assert log_in(proxied_site, school, "alice", PASSWORD) == 302
    assert log_in(proxied_site, school, "zmyslony-31", "zle-haslo") == 429
