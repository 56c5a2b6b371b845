"""The README's run command: the site answers within a minute, and Ctrl-C leaves no process behind.

Runs ``scripts/run`` from this checkout as a fresh set-up would (no DATABASE_URL or
REDIS_URL: SQLite and the embedded Redis), with its own VAR_DIR and port.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time

import psutil
import pytest
import websockets

from tests import live

pytestmark = pytest.mark.slow


async def ws_hello(url: str) -> dict:
    async with websockets.connect(url, origin=url.replace("ws://", "http://").split("/ws/")[0], open_timeout=5) as ws:
        return json.loads(await asyncio.wait_for(ws.recv(), 5))


def group_members(pgid: int) -> list[psutil.Process]:
    members = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if os.getpgid(proc.pid) == pgid:
                members.append(proc)
        except (ProcessLookupError, psutil.NoSuchProcess):
            continue
    return members


def mentions(needle: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["pid", "cmdline", "environ"]):
        try:
            cmdline = " ".join(proc.info["cmdline"] or [])
            environ = proc.info["environ"] or {}
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if proc.pid != os.getpid() and (needle in cmdline or environ.get("VAR_DIR") == needle):
            found.append(proc)
    return found


def test_run_command_serves_the_site_and_ctrl_c_stops_everything(tmp_path):
    port = live.free_port()
    var_dir = str(tmp_path / "var")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update({"PORT": str(port), "VAR_DIR": var_dir, "PYTHONUNBUFFERED": "1"})
    log = tmp_path / "run.log"
    with open(log, "wb") as handle:
        run = subprocess.Popen(
            ["bash", "scripts/run"], cwd=live.ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    try:
        live.wait_for_http(base + "/", timeout=60, proc=run, log=log)
        assert live.http_get(base + "/konto/rejestracja/")[0] == 200
        assert asyncio.run(ws_hello(f"ws://127.0.0.1:{port}/ws/ping/")) == {"type": "hello", "user": None}
        assert time.monotonic() - started < 60
        # The worker and beat are part of it.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (mentions("worker -Q default,clock,bots") and mentions(var_dir)):
            time.sleep(0.5)
        assert live.http_get(base + "/healthz")[0] == 200, live.tail(log)
        members_before = group_members(run.pid)
        names = " ".join(" ".join(p.cmdline()) for p in members_before)
        for part in ["redis-server", "celery -A kropki_site worker", "celery -A kropki_site beat", "daphne"]:
            assert part in names, (part, names)
    finally:
        # Ctrl-C in a terminal sends SIGINT to the whole foreground process group.
        os.killpg(run.pid, signal.SIGINT)
        try:
            run.wait(timeout=40)
        finally:
            leftovers = group_members(run.pid) + mentions(var_dir)
            for proc in leftovers:  # never leave them running, even when the test fails
                try:
                    proc.kill()
                except psutil.NoSuchProcess:
                    pass
    assert leftovers == [], [p.info for p in leftovers]
    assert run.returncode in (130, 0), live.tail(log)
    assert "==> stopped" in log.read_text()
