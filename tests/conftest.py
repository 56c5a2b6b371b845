"""Shared fixtures: personas, the embedded Redis when REDIS_URL is unset, a Redis channel layer."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable

import hypothesis
import pytest
from django.conf import settings
from django.utils import translation

from tests.smtp import inbox  # noqa: F401 (a real local SMTP server: the e-mail tests' fixture)

PASSWORD = "kropka-Trudna-2024"

# Hypothesis profiles: "ci" (the default) gives each fuzzed route or frame a few examples, enough for
# the values Hypothesis tries first (empty, zero, boundaries, odd characters) on every route;
# HYPOTHESIS_PROFILE=nightly keeps the many. Tests that name their own max_examples keep them.
hypothesis.settings.register_profile("ci", max_examples=8)
hypothesis.settings.register_profile("nightly", max_examples=300)
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# Modules that start whole sites (daphne, Celery, beat as processes): the long ones, sent first.
WHOLE_SITE = ("tests/live_play/", "tests/faults/", "tests/web/test_healthz_live.py")
# Whole-site modules whose assertions are about time (clocks, an arena's waves, a cluster's
# take-over): one group, so one process runs them one after another and they never starve each
# other of the machine's two cores.
TIMED = (
    "tests/faults/test_cluster.py",
    "tests/live_play/test_tournament_live.py",
    "tests/live_play/test_clock_live.py",
)


def _transactional(item: pytest.Item) -> bool:
    """A test whose database is emptied after it (pytest-django's TransactionTestCase): the
    data migrations' rows go with it, so the tests that expect them must run before."""
    mark = item.get_closest_marker("django_db")
    if mark is not None and (mark.kwargs.get("transaction") or mark.kwargs.get("reset_sequences")):
        return True
    return bool({"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ())))


def _order(items: list[pytest.Item]) -> Callable[[pytest.Item], tuple[int, int]]:
    """The whole-site modules first, the in-process ones next (a module with a transactional test
    after every module without one: each process runs its modules in this order, as Django runs
    its TransactionTestCases after its TestCases), the browser tests last."""
    transactional = {item.path for item in items if _transactional(item)}

    def key(item: pytest.Item) -> tuple[int, int]:
        path = item.path.as_posix()
        if "/tests/browser/" in path:
            return (2, 0)
        if item.path not in transactional and any(f"/{part}" in path for part in WHOLE_SITE):
            return (0, 0 if any(path.endswith(timed) for timed in TIMED) else 1)  # the longest group first
        return (1, int(item.path in transactional))

    return key


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Order the run (pytest-xdist groups it: ``pytest_xdist_make_scheduler`` below).

    - Each module is one group, run by one process: its module-scoped fixtures (a live site, a
      world of rows) are made once.
    - The whole-site modules go first (they are long: the others fill the processes around them),
      the in-process ones next, the browser tests last (sent first, beside the timed whole-site
      modules, they made no difference to the wall time: 24:17 against 24:40). Playwright's sync
      API keeps an event loop running in the main thread while the browser lives; it is
      package-scoped, so async tests (consumers, pytest-asyncio) the same process runs after the
      browser tests meet no running loop. scripts/test keeps this order (``--no-loadscope-reorder``).
    """
    yield
    items.sort(key=_order(items))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    item.stash[_CALL_STARTED] = time.time()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report carries the errors its live processes logged meanwhile (daphne's,
    the worker's): CI removes the temporary folders, and a 500 says nothing without them."""
    report = yield
    if report.failed and call.when == "call" and _CALL_STARTED in item.stash:
        from tests import live

        for path, text in live.errors_logged_since(item.stash[_CALL_STARTED]).items():
            report.sections.append((f"logged by {path}", text))
    return report


_CALL_STARTED = pytest.StashKey[float]()

# KROPKI_TEST_TIMELINE=<file>: every test's process, id, start and end (Unix seconds) and the CPU
# seconds it cost (its process's and the processes it started and waited for: a live site's) as a
# JSON line, to see where a run's time goes (docs/testing.md).
_TIMELINE = os.environ.get("KROPKI_TEST_TIMELINE")


def _cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not _TIMELINE:
        return (yield)
    started, cpu = time.time(), _cpu_seconds()
    try:
        return (yield)
    finally:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        line = json.dumps([worker, item.nodeid, started, time.time(), round(_cpu_seconds() - cpu, 2)])
        with open(_TIMELINE, "a") as handle:  # O_APPEND: one short line a write, whole
            handle.write(line + "\n")


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's scheduler, one group a module (the time-bound modules one group, ``TIMED``;
    the browser tests one group): xdist's own ``loadgroup`` names a group by rewriting the test's
    id, which pytest 9 no longer lets a plugin do, so the group is read from the test's file here.

    With two processes or more and browser tests among others, the last process runs the browser
    group from the start; the others share every other group. Run last on a shared process, the
    browser group was a tail of about ten minutes with the other processes idle. Once its group
    is sent, the browser process takes the modules without async tests that are left (a process
    that ran the browser tests cannot run async tests afterwards: Playwright's sync API kept an
    event loop in it): it finished about three minutes before the others and sat idle."""
    from xdist.scheduler import LoadScopeScheduling

    sync_modules: dict[str, bool] = {}  # module path: it has no coroutine (read once)

    class ModuleScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            if path.startswith("tests/browser/"):
                # One process for the browser tests: three sites and three Chromiums at once on two
                # cores made pairings and a computer's reply late.
                return "browser"
            return "timed" if any(path.endswith(timed) for timed in TIMED) else path

        def _browser_process(self):
            """The process kept for the browser group, or None (decided once, on the whole queue)."""
            if not hasattr(self, "_browser"):
                scopes = set(self.workqueue)
                split = "browser" in scopes and len(scopes) > 1 and len(self.nodes) > 1
                self._browser = self.nodes[-1] if split else None
            return self._browser

        def _fits(self, node, scope: str) -> bool:
            browser = self._browser_process()
            if browser is None:
                return True
            if node is not browser:
                return scope != "browser"
            return scope == "browser" or ("browser" not in self.workqueue and self._sync_module(scope))

        def _sync_module(self, scope: str) -> bool:
            """A module without a coroutine (no async test, no async helper)."""
            if scope == "timed":
                return False
            if scope not in sync_modules:
                try:
                    sync_modules[scope] = "async def " not in (config.rootpath / scope).read_text()
                except OSError:
                    sync_modules[scope] = False
            return sync_modules[scope]

        def _assign_work_unit(self, node) -> None:
            scope = next((scope for scope in self.workqueue if self._fits(node, scope)), None)
            if scope is None:
                return
            work_unit = self.workqueue.pop(scope)
            self.assigned_work.setdefault(node, {})[scope] = work_unit
            collection = self.registered_collections[node]
            node.send_runtest_some([collection.index(nodeid) for nodeid, done in work_unit.items() if not done])

        def _reschedule(self, node) -> None:
            if node.shutting_down:
                return
            if not any(self._fits(node, scope) for scope in self.workqueue):
                node.shutdown()
                return
            if self._pending_of(self.assigned_work[node]) > 2:
                return
            self._assign_work_unit(node)

    return ModuleScheduling(config, log)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """SQLite: test in a file (per process), not the shared-cache in-memory database.

    Concurrency tests run real threads; in shared-cache memory SQLite they fail
    with "database table is locked" (no busy timeout), while a file database
    gets WAL, the busy timeout and IMMEDIATE transactions like the real site.
    """
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        import tempfile

        db.setdefault("TEST", {})["NAME"] = os.path.join(tempfile.gettempdir(), f"kropki-test-{os.getpid()}.sqlite3")


@pytest.fixture(scope="session", autouse=True)
def _embedded_redis():
    """When REDIS_URL is unset (plain `pytest`), make sure the embedded Redis answers.

    scripts/test starts its own Redis and sets REDIS_URL, so this only acts for
    a bare `pytest` run; it starts redis-server on var/redis.sock and stops it
    at the end if it was not already running.
    """
    if os.environ.get("REDIS_URL"):
        yield
        return
    from kropki_site.lib import devredis

    sock = settings.EMBEDDED_REDIS_SOCKET
    proc = None if devredis.answers(sock) else devredis.start(sock)
    yield
    if proc is not None:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session", autouse=True)
def _own_live_channels():
    """Each test process hears only its own live frames. Pub/sub channels are global to a Redis
    server and the hub names them by the Redis database (games/live/hub.py), which every
    pytest-xdist process shares, as it shares match ids from 1 in its own test database: without
    this, one process's sockets heard another's ``match:1``. Tests of the default set it back."""
    settings.LIVE_PREFIX = f"kropki:live:test-{os.getpid()}:"
    yield


@pytest.fixture(scope="session", autouse=True)
def _static_files_walked_once():
    """Django's test Client builds the middleware chain anew for every client, and WhiteNoise's
    start walks every static file and finder (about 60 ms, most of a short test): walk once per
    process and share the table (the files do not change during a run). Sites started by the
    whole-site tests build theirs once anyway."""
    from whitenoise.middleware import WhiteNoiseMiddleware

    walked: dict[tuple, dict] = {}
    add_files, add_from_finders = WhiteNoiseMiddleware.add_files, WhiteNoiseMiddleware.add_files_from_finders

    def once(key: tuple, walk: Callable[[], None], files: dict) -> None:
        if key not in walked:
            before = dict(files)
            walk()
            walked[key] = {url: found for url, found in files.items() if before.get(url) is not found}
        files.update(walked[key])

    def add_files_once(self, root, prefix=None):
        once(("root", str(root), prefix), lambda: add_files(self, root, prefix), self.files)

    def add_from_finders_once(self):
        once(("finders",), lambda: add_from_finders(self), self.files)

    WhiteNoiseMiddleware.add_files = add_files_once
    WhiteNoiseMiddleware.add_files_from_finders = add_from_finders_once
    yield
    WhiteNoiseMiddleware.add_files, WhiteNoiseMiddleware.add_files_from_finders = add_files, add_from_finders


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """PBKDF2 costs ~0.3 s a user on this machine; tests only need passwords to round-trip.

    Live-server processes (tests/live.py) keep the real hashers.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _own_limits(settings):
    """Each test counts its own rate limits (kropki_site/lib/limits.py keys live in the shared Redis)."""
    import secrets

    token = secrets.token_hex(4)
    settings.LIMITS_PREFIX = f"kropki:test-limit:{token}:"
    # ...and its own keys in the shared cache (kropki_site/cache.py: Redis)
    caches = {**settings.CACHES, "default": {**settings.CACHES["default"], "KEY_PREFIX": f"kropki-test-{token}"}}
    settings.CACHES = caches


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language, as each request and socket does on the
    site (its own context): the test client runs a page in the test's thread, and a page asked
    in English left English active for the tests after it in that process."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _established_personas(settings):
    """The personas are made a moment before they play rated games or report: tests of other
    things treat them as established accounts (games/play/trust.py); the tests of new accounts
    set NEW_ACCOUNT_MINUTES back."""
    settings.NEW_ACCOUNT_MINUTES = 0


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker):
    """Rows made once for a whole module: a module-scoped fixture that asks for this one makes
    its rows inside ``module_rows()`` (below) and they live in a transaction rolled back when the
    module ends. Each test's own transaction (pytest-django's) is a savepoint inside it, so a test
    sees those rows and its own changes, never an earlier test's. Not for a module with
    transactional tests: their flush would run inside this transaction."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(scope="module")
def module_rows(module_db, django_db_blocker):
    """``with module_rows():`` inside a module-scoped fixture: the database is open, with the
    settings the function-scoped fixtures above give each test (the fast hasher, established
    personas)."""
    from contextlib import contextmanager

    from django.test.utils import override_settings

    @contextmanager
    def rows():
        with (
            django_db_blocker.unblock(),
            override_settings(
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"], NEW_ACCOUNT_MINUTES=0
            ),
        ):
            yield

    return rows


def make_persona(username: str, *, email: str | None = None, password: str = PASSWORD, language: str = "pl"):
    """A user as ``make_user`` makes one (for a module-scoped fixture, which cannot ask for it)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(
        username=username, email=email or f"{username.lower()}@example.com", password=password, language=language
    )


@pytest.fixture(scope="session")
def vectors_dir():
    """The shared engine vectors (``tests.helpers.VECTORS``), which must be there."""
    from tests.helpers import VECTORS  # local: the catalogue loads games' modules

    assert VECTORS.is_dir(), f"reference vectors not found at {VECTORS} (set SHARED_VECTORS_DIR)"
    return VECTORS


@pytest.fixture
def make_user(db):
    return make_persona


@pytest.fixture
def alice(make_user):
    """A player."""
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    """Alice's opponent."""
    return make_user("bob")


@pytest.fixture
def charlie(make_user):
    """Not part of Alice and Bob's matches."""
    return make_user("charlie")


@pytest.fixture
def make_match(alice, bob):
    """``make_match(variant, *, pink=alice, blue=bob, rated=False, ...)``: a match made by the service."""
    from tests import factories  # local: conftest loads before pytest-django sets Django up

    def make(variant: str = "cztery-w-rzedzie", *, pink=None, blue=None, rated: bool = False, **kwargs):
        return factories.make_match(pink or alice, blue or bob, variant, rated=rated, **kwargs)

    return make
