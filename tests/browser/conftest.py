"""Browser-test fixtures: a real daphne (and, on request, Celery) plus Playwright on Debian's Chromium.

- ``live_site``        session: a LiveSite with its own migrated database (SQLite file, or a
                       fresh PostgreSQL database when DATABASE_URL is PostgreSQL) and the
                       test run's Redis. Use ``live_site.env`` to start more processes.
- ``live_url``      session: base URL of a daphne serving that site.
- ``celery_worker_proc`` session: a real Celery worker (queues default, clock, bots) for it.
- ``celery_beat_proc`` session: Celery beat for it.
- ``browser``          package: Chromium's headless shell, closed after the last browser test (its
                       Playwright loop then stops: the process may run async tests after).
                       A watchdog kills it when a context is not made in CONTEXT_SECONDS (made
                       again, once, on a fresh Chromium) or a test outlives TEST_SECONDS (that
                       test fails; the next one gets a fresh Chromium), or a context's close
                       outlives CLOSE_SECONDS: a stalled Chromium costs one test at most, never
                       the run.
- ``page`` / ``new_context``: a fresh browser context per test (``new_context()`` for a
                       second player in the same test; ``new_context(full=True)``: of the full
                       Chromium, launched for that test, for system notifications).
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

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


# Chromium once stalled making a context (no error, no progress, the run hung until CI's limit).
CONTEXT_SECONDS = 30.0
TEST_SECONDS = 300.0
# A context closing at a test's end: Chromium once hung five minutes over it (a CI run, after the
# test had passed); past this its Chromium is killed and the next test gets a fresh one.
CLOSE_SECONDS = 20.0


def _descendants(root: int) -> list[int]:
    """Every process under ``root``, from /proc (Playwright's driver, Chromium and its children)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class Chromium:
    """The package's Chromium (``executable``), launched again when a watchdog had to kill it."""

    def __init__(self, playwright: Any, executable: str = CHROMIUM) -> None:
        self.playwright = playwright
        self.executable = executable
        self.browser = self._launch()

    def _launch(self) -> Any:
        return self.playwright.chromium.launch(executable_path=self.executable, headless=True, args=CHROMIUM_ARGS)

    def kill(self, why: str) -> None:
        print(f"\n!! browser watchdog: {why}; killing Chromium", file=sys.stderr, flush=True)
        for pid in _descendants(os.getpid()):
            try:
                if Path(f"/proc/{pid}/exe").resolve().name.startswith("chromium"):
                    os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def alive(self) -> Any:
        if not self.browser.is_connected():
            self.browser = self._launch()
        return self.browser

    def new_context(self, **kwargs: Any) -> Any:
        for attempt in (1, 2):
            timer = threading.Timer(CONTEXT_SECONDS, self.kill, (f"no context in {CONTEXT_SECONDS:.0f} s",))
            timer.start()
            try:
                return self.alive().new_context(**kwargs)
            except Exception:
                if attempt == 2 or self.browser.is_connected():
                    raise
            finally:
                timer.cancel()
        raise AssertionError("unreachable")

    def close_context(self, context: Any) -> None:
        """Close a test's context; one that does not close in CLOSE_SECONDS kills Chromium (a
        context of a Chromium a watchdog killed is closed already)."""
        from playwright.sync_api import Error

        timer = threading.Timer(CLOSE_SECONDS, self.kill, (f"a context not closed in {CLOSE_SECONDS:.0f} s",))
        timer.start()
        try:
            context.close()
        except Error:
            if self.browser.is_connected():
                raise
        finally:
            timer.cancel()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.alive(), name)


def _installed(path: str) -> None:
    if not os.path.exists(path):
        pytest.fail(
            f"{path} is missing: apt-get install chromium chromium-headless-shell (scripts/test does it as root)"
        )


@pytest.fixture(scope="package")
def browser():
    _installed(CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = Chromium(playwright)
        yield chromium
        if chromium.browser.is_connected():
            chromium.browser.close()


@pytest.fixture(autouse=True)
def _browser_watchdog(request):
    """A browser test that outlives TEST_SECONDS fails (its Chromium killed) instead of hanging."""
    if "browser" not in request.fixturenames:
        yield
        return
    chromium = request.getfixturevalue("browser")
    name = request.node.nodeid
    timer = threading.Timer(TEST_SECONDS, chromium.kill, (f"{name} ran over {TEST_SECONDS:.0f} s",))
    timer.start()
    yield
    timer.cancel()


@pytest.fixture
def new_context(browser, live_url):
    contexts = []
    full_browser: list[Chromium] = []  # launched for a test that asks, closed after its contexts

    def make(full: bool = False, **kwargs):
        """A context of the headless shell, or (``full=True``) of the full Chromium, for what the
        shell lacks: system notifications."""
        if full and not full_browser:
            _installed(live.CHROMIUM_FULL)
            full_browser.append(Chromium(browser.playwright, live.CHROMIUM_FULL))
        chromium = full_browser[0] if full else browser
        kwargs.setdefault("locale", "pl-PL")
        # The site's service worker caches static files as it installs; a context closed during
        # that install once left Chromium unable to make the next context (the run hung at a
        # test's start). Only the app's own tests (test_app_browser.py) let it run.
        kwargs.setdefault("service_workers", "block")
        context = chromium.new_context(base_url=live_url, **kwargs)
        context.set_default_timeout(10_000)
        contexts.append((chromium, context))
        return context

    yield make
    for chromium, context in contexts:
        chromium.close_context(context)
    for chromium in full_browser:
        if chromium.browser.is_connected():
            chromium.browser.close()


@pytest.fixture
def page(new_context):
    return new_context().new_page()
