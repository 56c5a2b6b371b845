"""Helpers to start the real site (daphne, Celery worker and beat) as subprocesses in tests.

Each process runs in its own session (process group) so that stopping it also
stops its children (Celery's pool processes). Logs go to files under the
caller's temporary directory; a failed start raises with the log's tail.
"""

from __future__ import annotations

import atexit
import contextlib
import http.cookiejar
import json
import os
import queue
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kropki_site.lib import devredis

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
# daphne's WebSocket size limits, as scripts/run sets them (tests/live_play/test_socket_lifetime.py
# checks that the two agree).
WS_MAX_BYTES = 65536
DAPHNE_LIMITS = ["--websocket-max-message-size", str(WS_MAX_BYTES), "--websocket-max-frame-size", str(WS_MAX_BYTES)]


# Debian's Chromium and the flags the browser tests and the screenshots run it with. The browser
# tests run its headless shell (Debian's chromium-headless-shell: the same engine in the old
# headless mode, about a third less CPU, docs/testing.md); a test that needs what only the full
# browser has (system notifications: the service worker's push) asks for CHROMIUM_FULL.
CHROMIUM_FULL = "/usr/bin/chromium"
CHROMIUM = os.environ.get("KROPKI_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def run_programs() -> dict[str, str]:
    """scripts/supervisord.conf's programs (the process table scripts/run starts): name -> command."""
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    parser.read(ROOT / "scripts" / "supervisord.conf")
    return {
        section.removeprefix("program:"): " ".join(parser[section]["command"].split())
        for section in parser.sections()
        if section.startswith("program:")
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_get(url: str, timeout: float = 5.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def status_of(url: str) -> int:
    """The HTTP status a GET of ``url`` gets (an error status too)."""
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def ask_review(url: str, match_id: int, cookie_name: str, cookie: str, address: str) -> str:
    """POST the record page's "analyse" form as that visitor, then open the page it sends them
    to with the cookies it set (the message): that page's text."""
    token = "k" * 32  # the CSRF cookie and the form's token agree (Django checks only that)
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    host = urllib.parse.urlparse(url).hostname or ""
    for name, value in ((cookie_name, cookie), ("csrftoken", token)):
        jar.set_cookie(
            http.cookiejar.Cookie(
                0, name, value, None, False, host, False, False, "/", True, False, None, False, None, None, {}
            )
        )
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token}).encode()
    request = urllib.request.Request(f"{url}/partia/{match_id}/analiza/", data=body, method="POST")
    request.add_header("X-Forwarded-For", address)
    with opener.open(request, timeout=30) as response:  # follows the redirect with the jar's cookies
        return response.read().decode()


def wait_for_http(
    url: str, timeout: float = 60.0, proc: subprocess.Popen | None = None, log: Path | None = None
) -> None:
    deadline = time.monotonic() + timeout
    last: int | Exception | None = None  # the last status, or why there was none
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before {url} answered\n{tail(log)}")
        try:
            status, _ = http_get(url, timeout=2)
            if status == 200:
                return
            last = status
        except (OSError, urllib.error.URLError) as exc:
            last = exc
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer 200 within {timeout} s (last: {last})\n{tail(log)}")


def tail(log: Path | None, lines: int = 40) -> str:
    if log is None or not log.exists():
        return ""
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen
    log: Path

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM the process group, then SIGKILL what is left."""
        stop_group(self.popen, timeout)

    def kill(self) -> None:
        """kill -9 the whole group at once (for fault tests)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)


def stop_group(popen: subprocess.Popen, timeout: float = 15.0, sig: int = signal.SIGTERM) -> None:
    try:
        os.killpg(popen.pid, sig)
    except ProcessLookupError:
        return
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=timeout)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(popen.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=5)


# Every log a process started by this test process writes to (tests/conftest.py reports the
# errors in them when a test fails: CI keeps no temporary folders).
STARTED_LOGS: list[Path] = []


def errors_logged_since(since: float, lines: int = 60) -> dict[str, str]:
    """{log path: ``lines`` lines from just before its first traceback or ERROR line} of each
    log still on disk, written to after ``since`` (a time.time()), that holds one."""
    found = {}
    for log in dict.fromkeys(STARTED_LOGS):
        try:
            if log.stat().st_mtime < since:
                continue
            text = log.read_text(errors="replace")
        except OSError:
            continue
        rows = text.splitlines()
        first = next((k for k, row in enumerate(rows) if "Traceback" in row or " ERROR " in row), None)
        if first is not None:  # from the first error on (a 500's traceback, not the 429s after it)
            start = max(0, first - 5)
            found[str(log)] = "\n".join(rows[start : start + lines])
    return found


def start(name: str, args: list[str], env: dict[str, str], logdir: Path) -> Proc:
    log = logdir / f"{name}.log"
    STARTED_LOGS.append(log)
    with open(log, "ab") as handle:  # the child keeps its own copy
        popen = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    return Proc(name, popen, log)


@dataclass
class LiveSite:
    """Environment and processes of one live site (its own database, shared Redis)."""

    env: dict[str, str]
    workdir: Path
    procs: list[Proc] = field(default_factory=list)

    def manage(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result

    def call(self, name: str, **kwargs: object) -> dict:
        """Run ``tests.sitecalls``' function ``name`` with ``kwargs`` in this site's database (a
        subprocess with the site's environment); the dict it returned."""
        return site_call(self.env, name, kwargs)

    def start_daphne(self, port: int | None = None, name: str = "daphne", ready_path: str = "/") -> tuple[Proc, str]:
        port = port or free_port()
        proc = start(
            name,
            [
                sys.executable,  # daphne as scripts/supervisord.conf runs it: its access log redacted
                "-m",
                "kropki_site.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                *DAPHNE_LIMITS,
                "kropki_site.asgi:application",
            ],
            self.env,
            self.workdir,
        )
        self.procs.append(proc)
        url = f"http://127.0.0.1:{port}"
        wait_for_http(url + ready_path, timeout=60, proc=proc.popen, log=proc.log)
        return proc, url

    def start_worker(
        self,
        queues: str = "default,clock,bots,analysis,board",
        name: str = "worker",
        concurrency: int = 1,
        extra: tuple = (),
        nice: int = 0,
    ) -> Proc:
        hostname = f"{name}-{secrets.token_hex(3)}@%h"
        proc = start(
            name,
            [
                *(["nice", "-n", str(nice)] if nice else []),
                str(VENV_BIN / "celery"),
                "-A",
                "kropki_site",
                "worker",
                "-Q",
                queues,
                "-n",
                hostname,
                "--concurrency",
                str(concurrency),
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                *extra,
            ],
            self.env,
            self.workdir,
        )
        self.procs.append(proc)
        wait_for_log(proc, "ready.", timeout=60)
        return proc

    def start_beat(self, name: str = "beat") -> Proc:
        proc = start(
            name,
            [
                str(VENV_BIN / "celery"),
                "-A",
                "kropki_site",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(self.workdir / f"{name}-schedule"),
            ],
            self.env,
            self.workdir,
        )
        self.procs.append(proc)
        wait_for_log(proc, "beat: Starting", timeout=60)
        return proc

    def stop_all(self) -> None:
        close_site_calls(self.env)
        for proc in reversed(self.procs):
            proc.stop()
        self.procs.clear()


class _SiteCaller:
    """One ``python -m tests.sitecalls --serve`` process with a site's environment: Django set up
    once for many calls. Used by one thread at a time (``lock``); a reader thread hands its
    answers over, so a call can time out."""

    def __init__(self, python: str, env: dict[str, str]) -> None:
        self.lock = threading.Lock()
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.popen = subprocess.Popen(
            [python, "-m", "tests.sitecalls", "--serve"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            text=True,
            start_new_session=True,
        )
        self.answers: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.answers.put(line.rstrip("\n"))
        self.answers.put(None)

    def alive(self) -> bool:
        return self.popen.poll() is None

    def call(self, name: str, kwargs: dict, timeout: float) -> dict:
        assert self.popen.stdin is not None
        self.popen.stdin.write(json.dumps({"name": name, "kwargs": kwargs}) + "\n")
        self.popen.stdin.flush()
        try:
            line = self.answers.get(timeout=timeout)
        except queue.Empty:
            self.close()
            raise TimeoutError(f"site call {name}({kwargs}) did not answer within {timeout} s") from None
        if line is None:
            raise RuntimeError(f"site call {name}({kwargs}): its process died:\n{self.stderr_tail()}")
        if line.startswith("FAIL:"):
            raise RuntimeError(f"site call {name}({kwargs}) failed:\n{json.loads(line[5:])}")
        return json.loads(line.removeprefix("JSON:"))

    def stderr_tail(self, size: int = 4000) -> str:
        self.errors.seek(0, os.SEEK_END)
        self.errors.seek(max(0, self.errors.tell() - size))
        return self.errors.read().decode(errors="replace")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.popen.stdin is not None:
                self.popen.stdin.close()
        try:
            self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            stop_group(self.popen, timeout=5, sig=signal.SIGKILL)
        self.errors.close()


# The site-call processes by (python, environment), most recently used last; at most
# MAX_SITE_CALLERS kept (the least recently used idle ones go), each closed when its site stops.
_callers: dict[tuple, list[_SiteCaller]] = {}
_callers_lock = threading.Lock()
MAX_SITE_CALLERS = 6


def _env_key(python: str, env: Mapping[str, str]) -> tuple:
    return (python, *sorted(env.items()))


def _take_caller(python: str, env: dict[str, str]) -> _SiteCaller:
    """An idle caller of this environment (a new one when all are busy), taken (its lock held)."""
    key = _env_key(python, env)
    with _callers_lock:
        mine = [caller for caller in _callers.pop(key, []) if caller.alive()]
        _callers[key] = mine  # most recently used last
        taken = next((caller for caller in mine if caller.lock.acquire(blocking=False)), None)
        if taken is None:
            taken = _SiteCaller(python, env)
            taken.lock.acquire()
            mine.append(taken)
            _close_idle(sum(map(len, _callers.values())) - MAX_SITE_CALLERS)
        return taken


def _close_idle(count: int) -> None:
    """Close ``count`` idle callers, the least recently used environments' first (lock held)."""
    for key, callers in list(_callers.items()):
        for caller in list(callers):
            if count > 0 and caller.lock.acquire(blocking=False):
                callers.remove(caller)
                caller.close()
                count -= 1
        if not callers:
            del _callers[key]


def close_site_calls(env: Mapping[str, str] | None = None) -> None:
    """Stop the site-call processes of ``env`` (every one when None): a site stopping."""
    with _callers_lock:
        keys = [key for key in _callers if env is None or key == _env_key(key[0], env)]
        gone = [caller for key in keys for caller in _callers.pop(key)]
    for caller in gone:
        caller.close()


atexit.register(close_site_calls)


def site_call(
    env: dict[str, str], name: str, kwargs: dict | None = None, python: str = sys.executable, timeout: float = 300
) -> dict:
    """``tests.sitecalls``' function ``name`` with ``kwargs``, run with the environment ``env`` (a
    site's settings) in a process that serves that environment's calls (``_SiteCaller``; started at
    the first call): the dict the function returned (tests/sitecalls/__init__.py)."""
    caller = _take_caller(python, env)
    try:
        return caller.call(name, kwargs or {}, timeout)
    finally:
        caller.lock.release()


def wait_for_log(proc: Proc, needle: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if needle in proc.log.read_text(errors="replace"):
            return
        if proc.popen.poll() is not None:
            raise RuntimeError(f"{proc.name} exited with {proc.popen.returncode}\n{tail(proc.log)}")
        time.sleep(0.2)
    raise TimeoutError(f"{proc.name} did not log {needle!r} within {timeout} s\n{tail(proc.log)}")


def admin_connection(cfg: Mapping[str, Any]) -> Any:
    """An autocommit connection to the ``postgres`` database of the server ``cfg`` (dj-database-url's
    parse) names: to make, copy and drop the live sites' databases."""
    import psycopg

    return psycopg.connect(
        dbname="postgres",
        user=cfg["USER"] or None,
        password=cfg["PASSWORD"] or None,
        host=cfg["HOST"] or None,
        port=cfg["PORT"] or None,
        autocommit=True,
    )


def live_database_url(base_url: str | None, workdir: Path, suffix: str) -> str:
    """A fresh database the server processes can see: a SQLite file, or a new PostgreSQL database."""
    if not base_url or base_url.startswith("sqlite"):
        return f"sqlite:///{workdir / ('live-' + suffix + '.sqlite3')}"
    import dj_database_url

    cfg = dj_database_url.parse(base_url)
    name = f"{cfg['NAME']}_live_{suffix}"
    admin = admin_connection(cfg)
    with admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    return base_url.rsplit("/", 1)[0] + "/" + name


def drop_live_database(url: str) -> None:
    if url.startswith("sqlite"):
        return
    import dj_database_url

    cfg = dj_database_url.parse(url)
    admin = admin_connection(cfg)
    with admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{cfg["NAME"]}" WITH (FORCE)')


def live_env(workdir: Path, redis_url: str, database_url: str | None = None, **extra_env: str) -> dict[str, str]:
    """The environment of a live site's processes: production flags, a database of its own
    (a new one next to DATABASE_URL unless ``database_url`` is given)."""
    suffix = f"{os.getpid()}_{secrets.token_hex(2)}"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.live_settings",
        "DATABASE_URL": database_url or live_database_url(os.environ.get("DATABASE_URL"), workdir, suffix),
        "REDIS_URL": redis_url,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "VAR_DIR": str(workdir / "var"),
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(workdir / "mail"),
        "PYTHONUNBUFFERED": "1",
        # Every test visitor is 127.0.0.1: a session's browser tests make more guests and start
        # more matches than one IP may (accounts/guests.py, games/play/computer.py); tests of
        # those limits set them. Counters of their own.
        "GUESTS_PER_IP": "100000",
        "MATCH_STARTS_PER_MINUTE": "100000",
        "MATCH_STARTS_PER_ADDRESS_MINUTE": "100000",
        # The same for WebSocket handshakes (games/live/budget.py); tests of the budget set it.
        "WS_CONNECTS_PER_IP_BURST": "100000",
        "WS_CONNECTS_PER_ANONYMOUS_IP_BURST": "100000",
        "WS_CONNECTS_PER_USER_BURST": "100000",
        # ...and sign up more accounts than one IP may, and play rated games with them at once
        # (games/play/trust.py); the tests of those limits set them.
        "SIGNUPS_PER_IP": "100000",
        "NEW_ACCOUNT_MINUTES": "0",
        "LIMITS_PREFIX": f"kropki:live-limit:{suffix}:",
        "CACHE_KEY_PREFIX": f"kropki-live-{suffix}",
        # A session's browser tests step through many replays from 127.0.0.1; the test of that limit sets it.
        "EXPENSIVE_GETS_PER_MINUTE": "100000",
        # ...and import games and ask for their reviews without an account (games/play/imports.py,
        # the visitors' allowance of games/review/services.py); the tests of those limits set them.
        "IMPORTS_PER_HOUR": "100000",
        "VISITOR_ANALYSES_PER_DAY": "100000",
        **extra_env,
    }


def migrations_digest() -> str:
    """A digest of every migration file: a migrated template is good while this is the same."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


@contextlib.contextmanager
def _template_lock(name: str) -> Iterator[None]:
    """One process at a time builds or copies a template (pytest-xdist runs several)."""
    import fcntl

    with open(Path(tempfile.gettempdir()) / f"kropki-{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _migrate(database_url: str) -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kropki_site.settings", "DATABASE_URL": database_url}
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise RuntimeError(f"migrating the live template failed:\n{result.stdout}\n{result.stderr}")


def migrated_database_url(base_url: str | None, workdir: Path, suffix: str) -> str:
    """A fresh, migrated database of a live site's own: a copy of a template migrated once per set of
    migrations (``CREATE DATABASE … TEMPLATE`` on PostgreSQL, a file copy on SQLite), not a
    ``migrate`` per site (several seconds each)."""
    tag = migrations_digest()
    if not base_url or base_url.startswith("sqlite"):
        template = Path(tempfile.gettempdir()) / f"kropki-live-template-{tag}.sqlite3"
        with _template_lock(f"template-{tag}"):
            if not template.exists():
                partial = template.with_suffix(f".{os.getpid()}.tmp")
                _migrate(f"sqlite:///{partial}")
                partial.rename(template)
            target = workdir / f"live-{suffix}.sqlite3"
            shutil.copyfile(template, target)
        return f"sqlite:///{target}"
    import dj_database_url

    cfg = dj_database_url.parse(base_url)
    template_name, name = f"{cfg['NAME']}_tpl_{tag}", f"{cfg['NAME']}_live_{suffix}"
    admin = admin_connection(cfg)
    with admin, _template_lock(f"pg-{template_name}"):
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template_name]).fetchone() is None:
            # Templates of older migrations go; the new one is built under a temporary name and
            # renamed when complete, so a half-migrated template is never copied.
            stale = admin.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", [f"{cfg['NAME']}_tpl_%"]
            ).fetchall()
            for (old,) in stale:
                admin.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{template_name}_building"')
            _migrate(base_url.rsplit("/", 1)[0] + f"/{template_name}_building")
            admin.execute(f'ALTER DATABASE "{template_name}_building" RENAME TO "{template_name}"')
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template_name}"')
    return base_url.rsplit("/", 1)[0] + "/" + name


def make_live_site(workdir: Path, redis_url: str, **extra_env: str) -> LiveSite:
    """A LiveSite with a migrated database of its own (a template's copy), whose processes share it."""
    suffix = f"{os.getpid()}_{secrets.token_hex(2)}"
    database_url = migrated_database_url(os.environ.get("DATABASE_URL"), workdir, suffix)
    return LiveSite(env=live_env(workdir, redis_url, database_url=database_url, **extra_env), workdir=workdir)


@contextlib.contextmanager
def own_site(name: str, **extra_env: str) -> Iterator[LiveSite]:
    """A migrated LiveSite with a Redis of its own (``site.workdir / "redis.sock"``) in a new
    temporary folder; on leaving, its processes and Redis are stopped, its database dropped
    and the folder removed (kept when KROPKI_KEEP_LIVE_DIRS is set, to read the logs)."""
    workdir = Path(tempfile.mkdtemp(prefix=f"kropki-{name}-"))
    redis_proc = devredis.start(workdir / "redis.sock")
    site: LiveSite | None = None
    try:
        site = make_live_site(workdir, f"unix://{workdir / 'redis.sock'}", **extra_env)
        yield site
    finally:
        if site is not None:
            site.stop_all()
            drop_live_database(site.env["DATABASE_URL"])
        stop_group(redis_proc)
        if not os.environ.get("KROPKI_KEEP_LIVE_DIRS"):
            shutil.rmtree(workdir, ignore_errors=True)


def site_healthz(url: str) -> dict:
    status, body = http_get(url + "/healthz")
    return {**json.loads(body), "http_status": status}
