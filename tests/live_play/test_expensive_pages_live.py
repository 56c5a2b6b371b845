"""Issue 24 item 11 through a real daphne with production flags (DEBUG=0): 8 threads fetching
distinct plies of a finished match from one address. The site answers the limit's worth and then
429; the frames drawn are in the shared Redis cache, where any other daphne finds them."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import cast

import pytest
import redis

from tests import live

pytestmark = pytest.mark.slow
LIMIT = 30


@pytest.fixture(scope="module")
def board_site():
    with live.own_site("boards", EXPENSIVE_GETS_PER_MINUTE=str(LIMIT)) as site:
        data = site.call("c4_won_by_alice")
        _proc, url = site.start_daphne()
        yield site, url, data, site.workdir / "redis.sock"


status_of = live.status_of


def test_eight_threads_of_distinct_plies_from_one_address_get_the_limit_then_429(board_site):
    site, url, data, sock = board_site
    match = data["match"]
    urls = [
        f"{url}/partia/{match}/zapis/klatka/{i % 8}/" if i % 2 else f"{url}/partia/{match}/plansza/{i % 8}/"
        for i in range(80)
    ]
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(status_of, urls))
    assert statuses.count(200) == LIMIT and statuses.count(429) == len(urls) - LIMIT, statuses
    prefix = site.env["CACHE_KEY_PREFIX"]
    keys = [key.decode() for key in cast(list[bytes], redis.Redis(unix_socket_path=str(sock)).keys(f"{prefix}:*"))]
    assert any("record-frame:" in key for key in keys) and any(":board:" in key for key in keys), keys
