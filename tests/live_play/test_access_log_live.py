"""Issue 37, item 11 (b), through a real daphne as the site runs it (``python -m kropki_site.serve``,
scripts/supervisord.conf; DEBUG=0): a token sent in the query string is refused, and daphne's
access log keeps the request line with the token's value written ``[redacted]``, never in clear."""

from __future__ import annotations

import time

import pytest

from tests import live

pytestmark = pytest.mark.slow

SECRETS = ("kropki-secret-one-7f3a", "kropki-secret-two-91bc", "kropki-secret-three-c2d4")


status_of = live.status_of


def test_a_query_token_is_refused_and_never_written_in_clear_to_the_access_log():
    with live.own_site("accesslog") as site:
        proc, url = site.start_daphne()
        one, two, three = SECRETS
        assert status_of(f"{url}/api/account?token={one}") == 401
        assert status_of(f"{url}/api/account?x=1&ACCESS_TOKEN={two}") == 401
        assert status_of(f"{url}/?%74oken={three}&page=2") in (200, 302)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "page=2" not in proc.log.read_text(errors="replace"):
            time.sleep(0.1)
        log = proc.log.read_text(errors="replace")
        for secret in SECRETS:
            assert secret not in log
        assert '"GET /api/account?token=[redacted]" 401' in log
        assert '"GET /api/account?x=1&ACCESS_TOKEN=[redacted]" 401' in log
        assert '"GET /?%74oken=[redacted]&page=2"' in log
