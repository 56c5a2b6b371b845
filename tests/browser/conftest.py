"""Browser-test fixtures: a real daphne (and, on request, Celery) plus Playwright on Debian's Chromium.

- ``live_site``        session: a LiveSite with its own migrated database (SQLite file, or a
                       fresh PostgreSQL database when DATABASE_URL is PostgreSQL) and the
                       test run's Redis. Use ``live_site.env`` to start more processes.
- ``live_url``      session: base URL of a daphne serving that site.
- ``celery_worker_proc`` session: a real Celery worker (queues default, clock, bots) for it.
- ``celery_beat_proc`` session: Celery beat for it.
- ``browser``          package: headless Chromium, closed after the last browser test (its
                       Playwright loop then stops: the process may run async tests after).
- ``page`` / ``new_context``: a fresh browser context per test (``new_context()`` for a
                       second player in the same test).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from kropki_site.lib import devredis
from tests import live

CHROMIUM, CHROMIUM_ARGS = live.CHROMIUM, live.CHROMIUM_ARGS


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def live_workdir():
    path = Path(tempfile.mkdtemp(prefix="kropki-live-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def live_site(live_workdir):
    """The browser tests' site, with a Redis of its own: its Celery worker must never take a task
    that a test in another pytest-xdist process queued for its own database."""
    redis_proc = devredis.start(live_workdir / "redis.sock")
    site = live.make_live_site(live_workdir, f"unix://{live_workdir / 'redis.sock'}", MOVE_SECONDS="60")
    yield site
    site.stop_all()
    live.drop_live_database(site.env["DATABASE_URL"])
    live.stop_group(redis_proc)


@pytest.fixture(scope="session")
def live_url(live_site) -> str:
    _proc, url = live_site.start_daphne()
    return url


@pytest.fixture(scope="session")
def celery_worker_proc(live_site) -> live.Proc:
    return live_site.start_worker()


@pytest.fixture(scope="session")
def celery_beat_proc(live_site) -> live.Proc:
    return live_site.start_beat()


@pytest.fixture(scope="package")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test does it as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_context(browser, live_url):
    contexts = []

    def make(**kwargs):
        kwargs.setdefault("locale", "pl-PL")
        # The site's service worker caches static files as it installs; a context closed during
        # that install once left Chromium unable to make the next context (the run hung at a
        # test's start). Only the app's own tests (test_app_browser.py) let it run.
        kwargs.setdefault("service_workers", "block")
        context = browser.new_context(base_url=live_url, **kwargs)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context):
    return new_context().new_page()
