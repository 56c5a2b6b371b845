"""The README's run command keeps the site up (scripts/run + scripts/supervisord.conf).

The command is started as a person starts it, then each of its nine parts is killed
with SIGKILL, in five steps: Redis alone; daphne and beat; the sweeper and the default
worker; the clock worker and the analysis worker; the fair-play and notify workers. Two
parts in one step never share a duty the idle match's end needs (the sweeper and the clock
worker both end overdue turns, so they are killed in different steps). After each step:

- the home page answers within 20 s of the kill, and /healthz names every part
  alive again (each killed one with a new pid);
- a new match is played over WebSockets;
- a match left idle since just before the kill ends on its clock within
  deadline + grace + 10 s.

At the end Ctrl-C (SIGINT to the command's process group, as a terminal sends it)
stops everything and leaves nothing running.

Two set-ups: the default one (SQLite and the embedded Redis, DEBUG on, as on a
fresh machine), and the production flags with DATABASE_URL (PostgreSQL when the
test run has it, as in CI) and an external Redis, which the test restarts
instead of killing an embedded one.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
from contextlib import closing, suppress
from datetime import UTC, datetime
from pathlib import Path

import psutil
import psycopg
import pytest

from tests import live
from tests.helpers import C4

from .conftest import PASSWORD, Player, PrivateRedis, play

pytestmark = pytest.mark.slow

MOVE_SECONDS = 6
GRACE_SECONDS = 2
# The steps: "a+b" kills both at once. Every part is killed once; Redis alone (every other part
# leans on it); the sweeper and the clock worker, the two that end overdue turns, in different
# steps. One part a step (eight steps) proved no more and took twice as long (about 170 s a
# set-up, two set-ups: the suite's longest module).
STEPS = [
    "redis",
    "web+beat",
    "sweeper+worker",
    "clock-worker+analysis-worker",
    "fairplay-worker+notify-worker",
]
QUEUE_OF = {
    "clock-worker": "clock",
    "worker": "bots",
    "analysis-worker": "analysis",
    "fairplay-worker": "fairplay",
    "notify-worker": "notify",
}

MATCH_STATE = "SELECT status, end_reason, ply, turn_deadline, finished_at FROM games_match WHERE id = {}"


class RunCommand:
    """``scripts/run`` in a session of its own, its environment and its supervisord."""

    def __init__(self, env: dict[str, str], workdir: Path):
        self.env = env
        self.workdir = workdir
        self.port = int(env["PORT"])
        self.url = f"http://127.0.0.1:{self.port}"
        self.var_dir = env["VAR_DIR"]
        self.log = workdir / "run.log"
        self.popen: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as handle:  # O_APPEND: supervisord reopens /dev/stderr
            self.popen = subprocess.Popen(
                ["bash", "scripts/run"],
                cwd=live.ROOT,
                env=self.env,
                stdout=handle,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                # Ctrl-C as at a terminal: a test run started in the background (nohup … &) has
                # SIGINT ignored, which bash would inherit and then could not trap
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
            )

    def ctl(self, *args: str) -> str:
        result = subprocess.run(
            [str(live.VENV_BIN / "supervisorctl"), "-s", f"unix://{self.var_dir}/supervisor.sock", *args],
            capture_output=True,
            text=True,
            timeout=30,
        )
        return result.stdout.strip()

    def program(self, part: str) -> str:
        return f"web:web-{self.port}" if part == "web" else part

    def pid(self, part: str) -> int:
        return int(self.ctl("pid", self.program(part)))

    def call(self, name: str, **kwargs: object) -> dict:
        """A function of tests/sitecalls/ run in this site's database (tests/live.py's site_call)."""
        return live.site_call(self.env, name, kwargs, python=str(live.VENV_BIN / "python"), timeout=120)

    def create_match(self, variant: str = C4) -> dict:
        return self.call("players_with_match", variant=variant, names=["alice", "bob"], password=PASSWORD)

    def match_state(self, match_id: int) -> dict:
        """The match's row, read straight from the site's database (a manage.py call takes seconds)."""
        url = self.env.get("DATABASE_URL") or f"sqlite:///{self.var_dir}/db.sqlite3"
        if url.startswith("sqlite"):
            with closing(sqlite3.connect(url.removeprefix("sqlite:///"), timeout=10)) as conn:
                row = conn.execute(MATCH_STATE.format("?"), (match_id,)).fetchone()
        else:
            with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
                row = conn.execute(MATCH_STATE.format("%s"), (match_id,)).fetchone()
        status, end_reason, ply, deadline, finished_at = row
        return {
            "status": status,
            "end_reason": end_reason,
            "ply": ply,
            "deadline": as_timestamp(deadline),
            "finished_at": as_timestamp(finished_at),
        }

    def home_answers(self) -> bool:
        try:
            return live.http_get(self.url + "/")[0] == 200
        except OSError:
            return False

    def healthz(self) -> dict | None:
        try:
            return live.site_healthz(self.url)
        except (OSError, ValueError):
            return None

    def processes(self) -> list[psutil.Process]:
        """Every process of this site: the command's group, and whatever carries its VAR_DIR."""
        found = []
        assert self.popen is not None
        for proc in psutil.process_iter(["pid", "environ"]):
            try:
                mine = (
                    os.getpgid(proc.pid) == self.popen.pid
                    or (proc.info["environ"] or {}).get("VAR_DIR") == self.var_dir
                )
            except (ProcessLookupError, psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            if mine and proc.pid != os.getpid():
                found.append(proc)
        return found

    def ctrl_c(self) -> list[psutil.Process]:
        """SIGINT to the command's process group; returns what is still running afterwards (the
        test's own site-call processes, which carry its VAR_DIR, are stopped first)."""
        assert self.popen is not None
        live.close_site_calls(self.env)
        os.killpg(self.popen.pid, signal.SIGINT)
        try:
            self.popen.wait(timeout=90)
        finally:
            leftovers = [p for p in self.processes() if p.is_running()]
            for proc in leftovers:  # never leave them running, even when the test fails
                with suppress(psutil.NoSuchProcess):
                    proc.kill()
        return leftovers


def as_timestamp(value) -> float | None:
    """A datetime column as a Unix time (SQLite gives naive UTC text, PostgreSQL aware datetimes)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def wait_until(predicate, timeout: float, what: str, log: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"no {what} within {timeout} s\n{live.tail(log, 60)}")


def all_parts_alive(health: dict | None, new_pid_of: tuple[str, int] | None = None) -> bool:
    """/healthz says every part is there; ``new_pid_of=(part, old_pid)``: that part beats with another pid."""
    if not health or health["status"] != "ok":
        return False
    if new_pid_of is None:
        return True
    part, old = new_pid_of
    parts = health["parts"]
    if part in ("beat", "sweeper"):
        return parts[part]["pid"] != old
    if part in QUEUE_OF:
        return any(
            QUEUE_OF[part] in w["queues"] and w["pid"] != old
            for w in parts["workers"].values()
            if w["seen_seconds_ago"] < 2.5
        )
    return True


async def play_a_match(run: RunCommand, moves: int = 4) -> dict:
    """A new match whose first ``moves`` moves are played over WebSockets; returns its state."""
    made = await asyncio.to_thread(run.create_match)
    alice = await Player(run.url, made["match"], made["alice"], "alice").start(timeout=20)
    bob = await Player(run.url, made["match"], made["bob"], "bob").start(timeout=20)
    try:
        turns = [(alice, bob, 0), (bob, alice, 1)] * 2
        for mover, watcher, column in turns[:moves]:
            await play(mover, watcher, column, timeout=15)
    finally:
        await alice.close()
        await bob.close()
    state = await asyncio.to_thread(run.match_state, made["match"])
    assert state["status"] == "active" and state["ply"] == moves, state
    return {"match": made["match"], **state}


def kill_part(run: RunCommand, part: str, external_redis: PrivateRedis | None) -> int:
    """SIGKILL one part (an external Redis is killed and started again, empty). Returns the old pid."""
    if part == "redis" and external_redis is not None:
        assert external_redis.popen is not None
        old = external_redis.popen.pid
        external_redis.kill()
        time.sleep(1.0)
        external_redis.start()
        return old
    old = run.pid(part)
    os.kill(old, signal.SIGKILL)
    return old


def kill_parts(run: RunCommand, step: str, external_redis: PrivateRedis | None) -> dict[str, int]:
    """SIGKILL the parts of one step ("a+b": both at once): part -> its old pid."""
    return {part: kill_part(run, part, external_redis) for part in step.split("+")}


def check_every_part_restarts(run: RunCommand, external_redis: PrivateRedis | None) -> list[dict]:
    run.start()
    wait_until(run.home_answers, 180, "site", run.log)
    # It says where the site is and where the logs are.
    wait_until(lambda: f"==> Kropki at {run.url}/" in run.log.read_text(), 10, "banner", run.log)
    assert f"{run.var_dir}/log/<part>.log" in run.log.read_text()
    wait_until(lambda: all_parts_alive(run.healthz()), 90, "every part alive", run.log)
    report = []
    for step in STEPS:
        idle = asyncio.run(play_a_match(run, moves=2))  # then left idle: pink's clock runs
        idle_deadline = idle["deadline"]
        killed_at = time.monotonic()
        old_pids = kill_parts(run, step, external_redis)
        wait_until(run.home_answers, 20, f"home page after killing {step}", run.log)
        answered = time.monotonic() - killed_at
        # The home page needs no Redis: a killed Redis may answer a moment later (supervisord
        # starts it again); the new match's set-up and play need both services.
        wait_until(lambda: (h := run.healthz()) is not None and not h.get("failing"), 20, "database and Redis", run.log)
        asyncio.run(play_a_match(run))
        limit = idle_deadline + GRACE_SECONDS + 10
        state = wait_until(
            lambda idle=idle: (s := run.match_state(idle["match"]))["status"] != "active" and s,
            max(1, limit - time.time()) + 5,
            f"the idle match's end after killing {step}",
            run.log,
        )
        assert state["end_reason"] == "timeout", state
        assert state["finished_at"] <= limit, (step, state, idle_deadline)
        # Every part is back: the killed ones under new pids, beating again.
        for each, old_pid in old_pids.items():
            wait_until(
                lambda each=each, old_pid=old_pid: all_parts_alive(run.healthz(), (each, old_pid)),
                max(5.0, 60 - (time.monotonic() - killed_at)),
                f"every part alive after killing {step}",
                run.log,
            )
            if not (each == "redis" and external_redis is not None):
                assert run.pid(each) != old_pid, each
        report.append(
            {
                "step": step,
                "home_s": round(answered, 1),
                "ended_after_deadline_s": round(state["finished_at"] - idle_deadline, 1),
            }
        )
    log = run.log.read_text()
    assert f"exited: web-{run.port} (terminated by SIGKILL; not expected)" in log
    return report


@pytest.fixture
def workdir():
    path = Path(tempfile.mkdtemp(prefix="kropki-run-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_run_command_restarts_each_part_embedded(workdir):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(
        {
            "PORT": str(live.free_port()),
            "VAR_DIR": str(workdir / "var"),
            "PYTHONUNBUFFERED": "1",
            "MOVE_SECONDS": str(MOVE_SECONDS),
            "MOVE_GRACE_SECONDS": str(GRACE_SECONDS),
        }
    )
    run = RunCommand(env, workdir)
    try:
        report = check_every_part_restarts(run, None)
    finally:
        leftovers = run.ctrl_c() if run.popen else []
    print(json.dumps(report))
    assert leftovers == [], [p.info for p in leftovers]
    assert run.popen is not None and run.popen.returncode in (130, 0), live.tail(run.log)
    assert "==> stopped" in run.log.read_text()


def test_run_command_restarts_each_part_external_redis_and_database(workdir):
    redis = PrivateRedis(workdir)
    redis.start()
    env = live.live_env(
        workdir,
        redis.url,
        PORT=str(live.free_port()),
        MOVE_SECONDS=str(MOVE_SECONDS),
        MOVE_GRACE_SECONDS=str(GRACE_SECONDS),
    )
    run = RunCommand(env, workdir)
    try:
        report = check_every_part_restarts(run, redis)
    finally:
        leftovers = run.ctrl_c() if run.popen else []
        redis.stop()
        live.drop_live_database(env["DATABASE_URL"])
    print(json.dumps(report))
    assert leftovers == [], [p.info for p in leftovers]
    assert "==> stopped" in run.log.read_text()
