"""A live site of its own for the clock tests: real daphne, Celery worker and beat,
a short MOVE_SECONDS, and its own Redis (so no other live site's worker can
take its tasks or hear its groups)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from kropki_site.lib import devredis
from tests import live

MOVE_SECONDS = 3
GRACE_SECONDS = 1


@pytest.fixture(scope="module")
def clock_workdir():
    path = Path(tempfile.mkdtemp(prefix="kropki-clock-"))
    yield path
    if not os.environ.get("KROPKI_KEEP_LIVE_DIRS"):  # set it to read the processes' logs after a failure
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def clock_redis(clock_workdir):
    sock = clock_workdir / "redis.sock"
    proc = devredis.start(sock)
    yield f"unix://{sock}"
    live.stop_group(proc)


@pytest.fixture(scope="module")
def clock_site(clock_workdir, clock_redis):
    site = live.make_live_site(
        clock_workdir, clock_redis, MOVE_SECONDS=str(MOVE_SECONDS), MOVE_GRACE_SECONDS=str(GRACE_SECONDS)
    )
    yield site
    site.stop_all()
    live.drop_live_database(site.env["DATABASE_URL"])


@pytest.fixture(scope="module")
def clock_url(clock_site) -> str:
    _proc, url = clock_site.start_daphne(name="daphne-1")
    return url


def create_match(site: live.LiveSite, variant: str) -> dict:
    """Users alice/bob/charlie (sessions included) and a new alice-vs-bob match in the live database."""
    return site.call("players_with_match", variant=variant)


def env_flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")
