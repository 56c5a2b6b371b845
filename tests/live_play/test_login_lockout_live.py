"""Issue 12, item 3 through a real daphne with production flags (DEBUG=0) and
BEHIND_PROXY=1, as behind the nginx of docs/deploy.md: every request comes
from 127.0.0.1 and carries X-Forwarded-For. An attacker's wrong passwords lock
the attacker's address for that name; the owner, from another address, logs
in. Before issue 12 the lock was per (name, REMOTE_ADDR): behind the proxy,
site-wide for that name."""

from __future__ import annotations

import http.client
import re
import threading
import time
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlparse

import pytest

from accounts.throttle import DEVICE_COOKIE
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


def log_in(url: str, client_ip: str, username: str, password: str, device: SimpleCookie | None = None) -> int:
    """GET the form, POST it, as the proxy would pass them on for ``client_ip``. ``device``: the
    browser's lasting cookies (sent with both; the remembered-device cookie of a success is kept
    in it, the session is not: each call is a browser logged out)."""
    host = urlparse(url).netloc
    headers = {"X-Forwarded-For": client_ip, "Host": host}
    conn = http.client.HTTPConnection(host, timeout=30)
    lasting = SimpleCookie()
    lasting.update(device or {})
    try:
        conn.request(
            "GET", LOGIN, headers={**headers, "Cookie": "; ".join(f"{k}={v.value}" for k, v in lasting.items())}
        )
        page = conn.getresponse()
        body = page.read().decode()
        cookies = SimpleCookie()
        cookies.update(lasting)
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
        if device is not None:
            for value in response.headers.get_all("Set-Cookie") or []:
                got = SimpleCookie()
                got.load(value)
                if DEVICE_COOKIE in got:
                    device[DEVICE_COOKIE] = got[DEVICE_COOKIE].value
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


def test_an_owner_logs_in_from_the_address_an_attacker_keeps_failing_from(proxied_site):
    """Issue 37 item 10 (a): an attacker failing continuously with many names from the owner's
    address kept the slow lane's one slot (the owner: 12 x 429 in 60 s). The owner's browser,
    remembered from an earlier log-in there, gets in at once: at most 0 refusals in 5 log-ins,
    each while the attacker holds the slot; a browser without the cookie stays in the slow lane."""
    home = "192.0.2.80"
    device = SimpleCookie()
    assert log_in(proxied_site, home, "alice", PASSWORD, device) == 302  # a week ago, say
    assert DEVICE_COOKIE in device
    stop = threading.Event()
    attacker: list[int] = []

    def attack() -> None:
        i = 0
        while not stop.is_set():
            try:
                attacker.append(log_in(proxied_site, home, f"zgadywany{i}", "zle-haslo"))
            except OSError:  # a slow answer on a loaded machine: go on attacking
                attacker.append(0)
            i += 1

    thread = threading.Thread(target=attack, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 300
        while 429 not in attacker:  # past AXES_IP_FAILURE_LIMIT: the address is slowed
            assert time.monotonic() < deadline, f"the address was never slowed: {len(attacker)} attempts"
            time.sleep(0.2)
        owner = []
        for _ in range(5):
            owner.append(log_in(proxied_site, home, "alice", PASSWORD, device))
            time.sleep(1)
        stranger = [log_in(proxied_site, home, "alice", PASSWORD) for _ in range(3)]  # no remembered device
        attempts = len(attacker)
    finally:
        stop.set()
        thread.join(timeout=60)
    print(f"attacker: {attempts} attempts, {attacker.count(429)} refused; owner {owner}; no cookie {stranger}")
    assert owner == [302] * 5
    assert stranger.count(429) >= 2  # the attacker still holds the address's slot against the rest
