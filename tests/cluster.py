"""The site spread over machines, on one machine (issue 30): network namespaces as hosts.

``Cluster`` builds, as root:

- a bridge ``kc<id>br`` with 10.77.N.1/24 on the host side, and one network namespace
  per host, each with a veth into that bridge: "db" (10.77.N.2) runs its own PostgreSQL
  (the machine's binaries, initdb into a data directory of its own) and its own Redis;
  "w1", "w2", ... (10.77.N.11, .12, ...) each run ``scripts/supervisord.conf`` unchanged
  (supervisord in the foreground, as ``scripts/run`` does) with the environment of
  docs/deploy.md, in a UTS namespace of their own so that each has its own host name
  (Celery's ``%h``, the leader that /healthz names);
- nginx on the host side with the configuration of docs/deploy.md, read from the doc's
  ```nginx block and changed only where a deployment must: the upstream's servers (the
  web hosts), the address it listens on (``127.77.N.1``, a loopback address of its own,
  on 443 and 80) and the certificate (self-signed, made here), so the site is
  ``https://127.77.N.1/`` with its default port, as in production.

Nothing listens outside those namespaces and loopback. ``kill_host`` SIGKILLs every
process of a host's namespace at once (a machine lost); ``start_web`` starts a web host
again. ``down`` tears everything down (also what a crashed run left: ``clean``).

``scripts/cluster up`` runs one until Ctrl-C; tests/faults/test_cluster.py and
bench/cluster.py use this module.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests import live

ROOT = live.ROOT
PREFIX = "kc"  # namespaces kc<id>-db, kc<id>-w1, ...; the bridge kc<id>br
# The machine's PostgreSQL (the newest of Debian's), its binaries run on data of our own.
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), default=Path("/usr/lib/postgresql/missing/bin"))
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HEALTHZ_TOKEN = secrets.token_urlsafe(16)


def ip(*args: str, ns: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
    cmd = ["ip", *(["-n", ns] if ns else []), *args]
    return subprocess.run(cmd, check=check, capture_output=True, text=True)


def unavailable() -> str | None:
    """Why a cluster cannot be built here (None when it can)."""
    if os.geteuid() != 0:
        return "building network namespaces needs root"
    if not (PG_BIN / "postgres").exists():
        return "PostgreSQL's binaries (/usr/lib/postgresql/*/bin) are missing"
    for tool in ("redis-server", "openssl", "unshare"):
        if shutil.which(tool) is None:
            return f"{tool} is missing"
    if not Path(NGINX).exists():
        return "nginx is missing (apt-get install nginx-light)"
    probe = f"{PREFIX}probe{secrets.token_hex(2)}"
    result = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if result.returncode != 0:
        return f"network namespaces are not allowed here: {result.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def nginx_block() -> str:
    """docs/deploy.md's nginx configuration, as the doc prints it."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    match = re.search(r"^```nginx\n(.*?)^```$", text, re.S | re.M)
    assert match, "docs/deploy.md has no ```nginx block"
    return match.group(1)


def nginx_site(block: str, servers: list[str], listen: str, cert: Path, key: Path) -> str:
    """The doc's block with this deployment's servers, listening address and certificate."""
    upstream = re.search(r"upstream kropki \{\n(.*?)\}", block, re.S)
    assert upstream
    lines = [line for line in upstream.group(1).splitlines() if not line.strip().startswith("server ")]
    body = "\n".join(lines + [f"    server {server};" for server in servers]) + "\n"
    site = block.replace(upstream.group(1), body)
    for old, new in (
        ("listen 443 ssl http2;", f"listen {listen}:443 ssl http2;"),
        ("listen 80;", f"listen {listen}:80;"),
        ("# ssl_certificate …", f"ssl_certificate {cert}; ssl_certificate_key {key};"),
    ):
        assert old in site, f"docs/deploy.md's nginx block no longer has {old!r}"
        site = site.replace(old, new)
    return site


@dataclass
class Host:
    name: str
    ns: str
    address: str
    procs: list[subprocess.Popen] = field(default_factory=list)


@dataclass
class Cluster:
    webs: int = 2
    extra_env: dict[str, str] = field(default_factory=dict)
    cpus: list[int] | None = None  # with it, web host i is pinned (taskset) to cpus[i % len]
    id: str = field(default_factory=lambda: secrets.token_hex(2))
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="kropki-cluster-")))
    hosts: dict[str, Host] = field(default_factory=dict)
    nginx: subprocess.Popen | None = None
    redis: subprocess.Popen | None = None  # the db host's redis-server
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.net = int(self.id, 16) % 200 + 20  # 10.77.<net>.0/24, 127.77.<net>.1
        self.bridge = f"{PREFIX}{self.id}br"
        self.listen = f"127.77.{self.net}.1"
        self.url = f"https://{self.listen}"
        self.db_address = f"10.77.{self.net}.2"
        os.chmod(self.workdir, 0o755)  # PostgreSQL runs as postgres

    # -- building ---------------------------------------------------------------------------

    def up(self) -> Cluster:
        try:
            self._network()
            self._db()
            self.env = self._web_env()
            self.site = live.LiveSite(env=self.env, workdir=self.workdir)
            self.site.manage("migrate", "--noinput")
            for i in range(1, self.webs + 1):
                self.start_web(f"w{i}")
                if i == 1:  # the first host takes the leases: the others stand by
                    self.wait_leader("w1")
            self._nginx()
            self.wait_ready()
        except BaseException:
            self.down()
            raise
        return self

    def _add_host(self, name: str, octet: int) -> Host:
        host = Host(name, f"{PREFIX}{self.id}-{name}", f"10.77.{self.net}.{octet}")
        veth = f"{PREFIX}{self.id}{name}"
        subprocess.run(["ip", "netns", "add", host.ns], check=True, capture_output=True)
        ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", host.ns)
        ip("link", "set", veth, "master", self.bridge, "up")
        ip("addr", "add", f"{host.address}/24", "dev", "eth0", ns=host.ns)
        ip("link", "set", "eth0", "up", ns=host.ns)
        ip("link", "set", "lo", "up", ns=host.ns)
        self.hosts[name] = host
        return host

    def _network(self) -> None:
        ip("link", "add", self.bridge, "type", "bridge")
        ip("addr", "add", f"10.77.{self.net}.1/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")
        self._add_host("db", 2)
        for i in range(1, self.webs + 1):
            self._add_host(f"w{i}", 10 + i)

    def _in(self, host: Host, args: list[str], log: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        with open(self.workdir / log, "ab") as handle:
            popen = subprocess.Popen(
                ["ip", "netns", "exec", host.ns, *args],
                cwd=ROOT,
                env=env or os.environ.copy(),
                stdout=handle,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        host.procs.append(popen)
        return popen

    def _db(self) -> None:
        db = self.hosts["db"]
        data = self.workdir / "pg"
        data.mkdir()
        shutil.chown(data, "postgres", "postgres")
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres",
             "--auth=trust", "--no-sync"],
            check=True, capture_output=True,
        )  # fmt: skip
        with open(data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all 10.77.{self.net}.0/24 trust\n")
        self.start_postgres()
        self.start_redis()
        subprocess.run(
            [str(PG_BIN / "createdb"), "-h", db.address, "-U", "postgres", "kropki"], check=True, capture_output=True
        )

    def start_postgres(self) -> None:
        """The db host's PostgreSQL (fsync off: safe while the machine itself does not crash)."""
        db, data = self.hosts["db"], self.workdir / "pg"
        pg = [
            "runuser", "-u", "postgres", "--", str(PG_BIN / "postgres"), "-D", str(data),
            "-c", f"listen_addresses={db.address}", "-c", f"unix_socket_directories={data}",
            "-c", "fsync=off", "-c", "max_connections=300",
        ]  # fmt: skip
        self._in(db, pg, "postgres.log")
        deadline = time.monotonic() + 60
        while subprocess.run([str(PG_BIN / "pg_isready"), "-h", db.address, "-q"]).returncode != 0:
            if time.monotonic() > deadline:
                raise TimeoutError(
                    "the db host's PostgreSQL did not start\n" + live.tail(self.workdir / "postgres.log")
                )
            time.sleep(0.2)

    def stop_postgres(self) -> None:
        """A fast shutdown (SIGINT to the postmaster: every session ends, nothing committed is lost)."""
        pid = int((self.workdir / "pg" / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGINT)
        while (self.workdir / "pg" / "postmaster.pid").exists():
            time.sleep(0.1)

    def start_redis(self) -> None:
        """The db host's Redis (no persistence: it starts empty, as after a crash)."""
        db = self.hosts["db"]
        redis = ["redis-server", "--bind", db.address, "--port", "6379", "--save", "", "--appendonly", "no",
                 "--protected-mode", "no", "--dir", str(self.workdir)]  # fmt: skip
        self.redis = self._in(db, redis, "redis.log")
        deadline = time.monotonic() + 30
        while subprocess.run(["redis-cli", "-h", db.address, "ping"], capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                raise TimeoutError("the db host's Redis did not start\n" + live.tail(self.workdir / "redis.log"))
            time.sleep(0.1)

    def kill_redis(self) -> None:
        """SIGKILL the db host's Redis."""
        assert self.redis is not None
        live.stop_group(self.redis, sig=signal.SIGKILL)

    def _web_env(self) -> dict[str, str]:
        env = live.live_env(
            self.workdir,
            f"redis://{self.db_address}:6379/0",
            database_url=f"postgres://postgres@{self.db_address}:5432/kropki",
        )
        env.update(
            # docs/deploy.md's environment: production flags behind nginx over https.
            ALLOWED_HOSTS=self.listen,
            CSRF_TRUSTED_ORIGINS=self.url,
            BEHIND_PROXY="1",
            SECURE_SSL_REDIRECT="1",
            SESSION_COOKIE_SECURE="1",
            CSRF_COOKIE_SECURE="1",
            HEALTHZ_TOKEN=HEALTHZ_TOKEN,
            PORT="8001",
            WEB_PROCESSES="1",
            KROPKI_EMBEDDED_REDIS="false",
        )
        env.pop("SECURE_HSTS_SECONDS", None)
        env.update(self.extra_env)
        return env

    def start_web(self, name: str) -> Host:
        """Start supervisord with scripts/supervisord.conf on web host ``name`` (again, after a kill)."""
        host = self.hosts[name]
        var = self.workdir / name / "var"
        (var / "log").mkdir(parents=True, exist_ok=True)
        env = {**self.env, "VAR_DIR": str(var), "HOST": host.address}
        supervisord = [str(live.VENV_BIN / "supervisord"), "-c", str(ROOT / "scripts" / "supervisord.conf")]
        if self.cpus:
            cpu = self.cpus[(int(name[1:]) - 1) % len(self.cpus)]
            supervisord = ["taskset", "-c", str(cpu), *supervisord]
        # A host name of its own (UTS namespace): Celery's %h and the lease's holder.
        self._in(host, ["unshare", "--uts", "sh", "-c", f'hostname {name} && exec "$@"', "sh", *supervisord],
                 f"{name}-supervisord.log", env)  # fmt: skip
        self.wait_web(name)
        return host

    def wait_web(self, name: str, timeout: float = 90) -> None:
        """Until web host ``name``'s daphne answers /healthz 200 (straight, as nginx would reach it)."""
        url = f"http://{self.hosts[name].address}:8001/healthz"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https", "Host": self.listen})
                with urllib.request.urlopen(request, timeout=2) as response:
                    if response.status == 200:
                        return
            time.sleep(0.3)
        raise TimeoutError(f"web host {name} did not answer\n" + self.logs(name))

    def _nginx(self) -> None:
        cert, key = self.workdir / "cert.pem", self.workdir / "key.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={self.listen}",
             "-addext", f"subjectAltName=IP:{self.listen}", "-keyout", str(key), "-out", str(cert)],
            check=True, capture_output=True,
        )  # fmt: skip
        self.cert = cert
        servers = [f"{h.address}:8001" for name, h in sorted(self.hosts.items()) if name != "db"]
        site = nginx_site(nginx_block(), servers, self.listen, cert, key)
        (self.workdir / "kropki-nginx.conf").write_text(site)
        tmp = self.workdir / "nginx-tmp"
        tmp.mkdir()
        main = f"""
user root;
worker_processes 1;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/nginx-error.log warn;
daemon off;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {self.workdir}/kropki-nginx.conf;
}}
"""
        (self.workdir / "nginx.conf").write_text(main)
        with open(self.workdir / "nginx.log", "ab") as handle:
            self.nginx = subprocess.Popen(
                [NGINX, "-c", str(self.workdir / "nginx.conf")],
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError):
                if self.healthz()["status"] in ("ok", "degraded"):
                    return
            time.sleep(0.3)
        raise TimeoutError("nginx did not answer\n" + live.tail(self.workdir / "nginx-error.log"))

    # -- using ------------------------------------------------------------------------------

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    def healthz(self) -> dict:
        """/healthz through nginx, with the details (the token)."""
        request = urllib.request.Request(self.url + "/healthz", headers={"X-Healthz-Token": HEALTHZ_TOKEN})
        try:
            with urllib.request.urlopen(request, timeout=5, context=self.ssl_context()) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return json.loads(exc.read())

    def leaders(self) -> tuple[str | None, str | None]:
        """(beat's host, the sweeper's host) as /healthz says."""
        parts = self.healthz().get("parts", {})
        return parts.get("beat", {}).get("host"), parts.get("sweeper", {}).get("host")

    def wait_leader(self, name: str, timeout: float = 30) -> float:
        """Seconds until both leases are held on host ``name`` (read from the database)."""
        started = time.monotonic()
        sql = (
            "SELECT count(*) FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid"
            f" WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'kropki-lease:%@{name}'"
        )
        while time.monotonic() - started < timeout:
            out = subprocess.run(
                [str(PG_BIN / "psql"), "-h", self.db_address, "-U", "postgres", "-d", "kropki", "-tAc", sql],
                capture_output=True,
                text=True,
            )
            if out.stdout.strip() == "2":
                return time.monotonic() - started
            time.sleep(0.1)
        raise TimeoutError(f"{name} did not take both leases within {timeout} s\n{self.logs(name)}")

    def kill_host(self, name: str) -> None:
        """SIGKILL every process of host ``name``'s namespace at once: the machine is lost."""
        host = self.hosts[name]
        for pid in self.pids(name):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for popen in host.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(timeout=10)
        host.procs.clear()

    def pids(self, name: str) -> list[int]:
        """Every process in host ``name``'s network namespace."""
        out = subprocess.run(["ip", "netns", "pids", self.hosts[name].ns], capture_output=True, text=True).stdout
        return [int(pid) for pid in out.split()]

    def logs(self, name: str, lines: int = 15) -> str:
        out = [f"--- {name}-supervisord.log\n" + live.tail(self.workdir / f"{name}-supervisord.log", lines)]
        for log in sorted((self.workdir / name / "var" / "log").glob("*.log")):
            out.append(f"--- {name}/{log.name}\n" + live.tail(log, lines))
        return "\n".join(out)

    # -- tearing down -----------------------------------------------------------------------

    def down(self) -> None:
        if self.nginx is not None:
            live.stop_group(self.nginx, timeout=5)
            self.nginx = None
        for name in list(self.hosts):
            self.kill_host(name)
            subprocess.run(["ip", "netns", "del", self.hosts[name].ns], capture_output=True)
        self.hosts.clear()
        ip("link", "del", self.bridge, check=False)
        if not os.environ.get("KROPKI_KEEP_LIVE_DIRS"):
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self.up()

    def __exit__(self, *exc: object) -> None:
        self.down()


def clean() -> list[str]:
    """Remove the namespaces and bridges a crashed run left (their processes SIGKILLed)."""
    removed = []
    for line in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.splitlines():
        ns = line.split()[0] if line.split() else ""
        if re.fullmatch(rf"{PREFIX}[0-9a-f]{{4}}-(db|w\d+)|{PREFIX}probe[0-9a-f]{{4}}", ns):
            for pid in subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
            removed.append(ns)
    for line in ip("-o", "link", "show", "type", "bridge").stdout.splitlines():
        name = line.split(":")[1].strip()
        if re.fullmatch(rf"{PREFIX}[0-9a-f]{{4}}br", name):
            ip("link", "del", name, check=False)
            removed.append(name)
    return removed


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="scripts/cluster", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("up", help="build a cluster and keep it until Ctrl-C, then tear it down")
    up.add_argument("--webs", type=int, default=2, help="web hosts (default 2)")
    sub.add_parser("clean", help="remove what a crashed run left")
    args = parser.parse_args(argv)
    if args.command == "clean":
        print("removed:", " ".join(clean()) or "nothing")
        return 0
    why = unavailable()
    if why:
        print(f"cannot build a cluster here: {why}", file=sys.stderr)
        return 1
    cluster = Cluster(webs=args.webs)
    print(f"==> building cluster {cluster.id} in {cluster.workdir}", flush=True)
    cluster.up()
    try:
        print(f"==> Kropki at {cluster.url}/ (self-signed: {cluster.cert})")
        print(
            "==> hosts: "
            + ", ".join(f"{h.name} {h.address} (ip netns exec {h.ns} ...)" for h in cluster.hosts.values())
        )
        print(f"==> leaders (beat, sweeper): {cluster.leaders()}; Ctrl-C tears it all down", flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 130
    finally:
        print("==> tearing down", flush=True)
        cluster.down()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
