"""scripts/supervisord.conf's give-up listener (kropki_site/supervisor_events.py) under a real supervisord:
a part that dies as it starts (FATAL) and one that keeps dying later are both stopped and reported
with their last log lines, instead of looping silently."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from tests import live

pytestmark = pytest.mark.slow

CONF = """
[supervisord]
nodaemon = true
logfile = {var}/log/supervisord.log
pidfile = {var}/supervisord.pid
childlogdir = {var}/log

[unix_http_server]
file = {var}/supervisor.sock

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[eventlistener:give-up]
command = {python} -m kropki_site.supervisor_events
directory = {root}
events = PROCESS_STATE_FATAL,PROCESS_STATE_EXITED
stdout_logfile = NONE
stderr_logfile = /dev/stderr
stderr_logfile_maxbytes = 0

[program:flaky]
command = bash -c "echo flaky says boom; sleep 1.5; exit 3"
startsecs = 1
autorestart = true
redirect_stderr = true
stdout_logfile = {var}/log/flaky.log

[program:broken]
command = bash -c "echo broken cannot start; exit 1"
startsecs = 1
startretries = 1
autorestart = true
redirect_stderr = true
stdout_logfile = {var}/log/broken.log
"""


def test_a_part_that_keeps_dying_is_stopped_and_reported_with_its_log(tmp_path: Path):
    var = tmp_path / "var"
    (var / "log").mkdir(parents=True)
    conf = tmp_path / "supervisord.conf"
    conf.write_text(CONF.format(var=var, python=live.VENV_BIN / "python", root=live.ROOT))
    out = tmp_path / "out.log"
    env = {**os.environ, "VAR_DIR": str(var), "KROPKI_GIVE_UP_DEATHS": "3"}
    with open(out, "ab") as handle:  # O_APPEND: supervisord reopens /dev/stderr
        sup = subprocess.Popen(
            [str(live.VENV_BIN / "supervisord"), "-c", str(conf)],
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    ctl = [str(live.VENV_BIN / "supervisorctl"), "-s", f"unix://{var}/supervisor.sock"]
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = out.read_text()
            if "==> flaky died 3 times" in text and "==> broken keeps dying as it starts" in text:
                break
            time.sleep(0.5)
        text = out.read_text()
        assert "==> broken keeps dying as it starts, so it is no longer restarted" in text, text
        assert "    broken cannot start" in text
        assert "==> flaky died 3 times in 5 minutes, so it is no longer restarted" in text, text
        assert "    flaky says boom" in text
        assert "start flaky" in text  # what to do next
        time.sleep(4)  # no restart after the give-up
        states = subprocess.run([*ctl, "status"], capture_output=True, text=True).stdout
        assert "flaky                            STOPPED" in states, states
        assert "broken                           FATAL" in states, states
        assert text.count("spawned: 'flaky'") == out.read_text().count("spawned: 'flaky'")
    finally:
        sup.terminate()
        sup.wait(timeout=30)
