"""A supervisord event listener: a part that keeps dying is stopped and reported plainly.

supervisord gives up by itself on a part that dies within seconds of each start
("gave up: web-8000 entered FATAL state, too many start retries too quickly"),
but restarts forever one that dies later (daphne takes seconds to load before it
finds its port taken). This listener stops a part that died unexpectedly
MAX_DEATHS times within WINDOW_SECONDS, and for both cases says why, from the
part's own log, and what to do.
The event protocol is supervisord's (supervisor.childutils); stdout belongs to
it, so the report goes to stderr, which scripts/supervisord.conf sends to the
terminal. Needs no Django.
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict, deque

from supervisor import childutils

TAIL_LINES = 15
MAX_DEATHS = int(os.environ.get("KROPKI_GIVE_UP_DEATHS", 5))  # tests lower it
WINDOW_SECONDS = 300.0


def last_lines(path: str, count: int = TAIL_LINES) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return [line.rstrip("\n") for line in deque(handle, maxlen=count)]
    except OSError:
        return []


def program_name(headers: dict[str, str]) -> str:
    name, group = headers["processname"], headers.get("groupname", headers["processname"])
    return name if group == name else f"{group}:{name}"


def report(headers: dict[str, str], log_dir: str, why: str) -> str:
    name = headers["processname"]
    program = program_name(headers)
    log = os.path.join(log_dir, f"{name}.log")
    lines = [f"==> {name} {why}, so it is no longer restarted. Its last lines ({log}):"]
    lines += ["    " + line for line in last_lines(log)] or ["    (nothing)"]
    lines.append(
        f"==> when it is fixed: supervisorctl -s unix://{log_dir.removesuffix('/log')}/supervisor.sock"
        f" start {program} (or Ctrl-C and start again)"
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    log_dir = os.path.join(os.environ["VAR_DIR"], "log")
    deaths: dict[str, deque[float]] = defaultdict(deque)
    while True:
        headers, payload = childutils.listener.wait(sys.stdin, sys.stdout)
        event = childutils.get_headers(payload.split("\n", 1)[0])
        message = None
        if headers["eventname"] == "PROCESS_STATE_FATAL":
            message = report(event, log_dir, "keeps dying as it starts")
        elif headers["eventname"] == "PROCESS_STATE_EXITED" and event.get("expected") == "0":
            program = program_name(event)
            now = time.monotonic()
            times = deaths[program]
            times.append(now)
            while times and now - times[0] > WINDOW_SECONDS:
                times.popleft()
            if len(times) >= MAX_DEATHS:
                times.clear()
                try:
                    childutils.getRPCInterface(os.environ).supervisor.stopProcess(program, False)
                except Exception as exc:  # reporting must go on; say what failed
                    sys.stderr.write(f"==> could not stop {program}: {exc}\n")
                message = report(event, log_dir, f"died {MAX_DEATHS} times in {WINDOW_SECONDS / 60:g} minutes")
        if message:
            sys.stderr.write(message)
            sys.stderr.flush()
        childutils.listener.ok(sys.stdout)


if __name__ == "__main__":
    main()
