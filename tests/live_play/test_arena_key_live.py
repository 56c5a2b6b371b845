"""Issue 37 (round three), items 1 and 8 through a real daphne in production mode (DEBUG=0):
a stranger with an account walks the arena ids, pressing withdraw and join and reading each
page, and collects no private arena's key (before: the withdraw's redirect carried it, and
the stranger joined with it); an id beyond 64 bits on each arena address is a 404, not a 500."""

from __future__ import annotations

import http.client
import re
from urllib.parse import urlencode, urlparse

import pytest

from tests import live

pytestmark = pytest.mark.slow

PRIVATE = 4


@pytest.fixture(scope="module")
def arena_site():
    with live.own_site("arenakey") as site:
        setup = site.call("private_arenas", count=PRIVATE)
        _proc, url = site.start_daphne()
        yield site, url, setup


class Visitor:
    """One browser: the session cookie, the CSRF cookie and token from a page."""

    def __init__(self, url: str, cookie_name: str, session: str) -> None:
        self.host = urlparse(url).netloc
        self.cookies = {cookie_name: session}
        status, _headers, body = self.call("GET", "/turnieje/")
        assert status == 200
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        assert found is not None
        self.token = found.group(1)

    def call(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection(self.host, timeout=30)
        try:
            headers = {"Host": self.host, "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
            body = None
            if method == "POST":
                body = urlencode({"csrfmiddlewaretoken": getattr(self, "token", ""), **(form or {})})
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                headers["Referer"] = f"http://{self.host}/turnieje/"
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode(errors="replace")
            for value in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = value.partition("=")
                if name == "csrftoken":
                    self.cookies[name] = rest.split(";", 1)[0]
            return response.status, dict(response.headers.items()), text
        finally:
            conn.close()


def test_a_stranger_walking_the_ids_collects_no_key_and_joins_nothing(arena_site):
    site, url, setup = arena_site
    stranger = Visitor(url, setup["cookie_name"], setup["stranger"]["cookie"])
    ids = [int(i) for i in setup["private"]] + [setup["public"]]
    seen = []
    statuses: dict[int, set[int]] = {}
    for tid in range(1, max(ids) + 3):
        for method, path in (
            ("POST", f"/turnieje/{tid}/wycofaj/"),
            ("POST", f"/turnieje/{tid}/dolacz/"),
            ("GET", f"/turnieje/{tid}/"),
        ):
            status, headers, body = stranger.call(method, path)
            statuses.setdefault(tid, set()).add(status)
            seen.append(headers.get("Location", "") + body)
    text = "\n".join(seen)
    leaked = [key for key in setup["private"].values() if key in text]
    assert leaked == [], f"{len(leaked)} of {PRIVATE} keys leaked"
    for tid in setup["private"]:
        assert statuses[int(tid)] == {404}
    assert 302 in statuses[setup["public"]]
    # the stranger joined only the public arena (its join button), none of the private ones
    assert site.call("arena_lines", user_id=setup["stranger"]["id"])["arenas"] == [setup["public"]]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/turnieje/{}/"),
        ("POST", "/turnieje/{}/dolacz/"),
        ("POST", "/turnieje/{}/wycofaj/"),
        ("POST", "/partia/{}/berserk/"),
    ],
)
def test_an_id_beyond_64_bits_is_a_404(arena_site, method, path):
    _site, url, setup = arena_site
    stranger = Visitor(url, setup["cookie_name"], setup["stranger"]["cookie"])
    for number in ("9" * 30, str(2**63)):
        for other in ("GET", "POST"):  # the wrong method: 404 or 405, never a 500
            assert stranger.call(other, path.format(number))[0] in (404, 405)
        assert stranger.call(method, path.format(number))[0] == 404
