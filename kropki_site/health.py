"""/healthz: each part's state.

The HTTP status is what a load balancer needs: 200 when this web process can serve
(the database, Redis for the channel layer and the Celery broker answer), else 503.
The background parts are reported beside it from their heartbeats
(kropki_site/lib/heartbeat.py): which worker serves which queue and when each of the
workers, beat and the sweeper was last seen. A part not seen within
heartbeat.STALE_SECONDS makes the status "degraded" (still 200: daphne can serve,
and the sweeper keeps the clock while a worker or beat is down) and is named in
``missing``. Beat and the sweeper run on every machine and act on one (the holder of
their lease, kropki_site/lib/lease.py): each is reported with the host that leads it
(the database's own record of the lock's session, else the leader's heartbeat) and the
hosts standing by.

Who sees what (issue 24): the parts' details (worker host names, PIDs, queues,
which check failed) only with the ``X-Healthz-Token`` header equal to
``HEALTHZ_TOKEN`` (when set), or from the machine itself without the proxy (a
loopback peer and no ``X-Forwarded-For``: supervisor, a monitoring agent; the
nginx of docs/deploy.md adds that header to every visitor's request). Anyone
else gets the status alone, with the same HTTP status.
"""

from __future__ import annotations

import ipaddress
import secrets
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from kombu.connection import Connection

from kropki_site.lib import heartbeat, lease

TIMEOUT_SECONDS = 2


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_redis() -> None:
    """Ping every Redis host of the channel layer."""
    for host in settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]:
        address = host["address"] if isinstance(host, dict) else host
        client = redis.Redis.from_url(address, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS)
        try:
            client.ping()
        finally:
            client.close()


def check_broker() -> None:
    # kombu leaves Connection.__init__ unannotated.
    broker = Connection(settings.CELERY_BROKER_URL, connect_timeout=TIMEOUT_SECONDS)  # type: ignore[no-untyped-call]
    with broker as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
        # Open a channel too: a TCP connect alone does not prove the broker speaks.
        conn.default_channel.client.ping()


CHECKS = {"database": check_database, "redis": check_redis, "broker": check_broker}
QUEUES = ("clock", "default", "bots", "analysis", "board", "fairplay", "notify")
SINGLETONS = ("beat", "sweeper")


def background_parts() -> tuple[dict[str, Any], list[str]]:
    """(report, missing): workers with their queues, each queue's server, beat, the sweeper."""
    try:
        seen = heartbeat.seen()
    except Exception as exc:  # Redis is down: the redis check says so; nothing is known here
        return {"error": type(exc).__name__}, ["heartbeats"]
    workers = {
        name.removeprefix("worker:"): {
            "queues": value.get("queues", []),
            "pid": value.get("pid"),
            "seen_seconds_ago": value["ago"],
        }
        for name, value in seen.items()
        if name.startswith("worker:")
    }
    report: dict[str, Any] = {"workers": workers, "queues": {}}
    missing = []
    for queue in QUEUES:
        served = any(queue in worker["queues"] for worker in workers.values())
        report["queues"][queue] = "ok" if served else "no worker seen"
        if not served:
            missing.append(f"queue:{queue}")
    try:
        holders = lease.leaders()
    except Exception as exc:  # the database check says so; the heartbeats still tell
        holders = {}
        report["leases"] = {"error": type(exc).__name__}
    for part in SINGLETONS:
        standby = sorted(name.rsplit(":", 1)[1] for name in seen if name.startswith(f"standby:{part}:"))
        if part in seen:
            report[part] = {
                "state": "ok",
                "host": holders.get(part, seen[part].get("host")),
                "pid": seen[part].get("pid"),
                "seen_seconds_ago": seen[part]["ago"],
                "standby": standby,
            }
        else:
            report[part] = {"state": f"not seen in {heartbeat.STALE_SECONDS:g} s", "standby": standby}
            missing.append(part)
    return report, missing


def shows_details(request: HttpRequest) -> bool:
    """Whether ``request`` may see the parts' details (see the module's docstring)."""
    token = getattr(settings, "HEALTHZ_TOKEN", "")
    given = request.headers.get("X-Healthz-Token", "")
    if token and given and secrets.compare_digest(token.encode(), given.encode()):
        return True
    if "X-Forwarded-For" in request.headers:
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR") or "").is_loopback
    except ValueError:
        return False


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as exc:  # any failure means "not healthy"; name it
            results[name] = f"error: {type(exc).__name__}"
        else:
            results[name] = "ok"
    failing = [name for name, result in results.items() if result != "ok"]
    parts, missing = background_parts()
    status = "fail" if failing else "degraded" if missing else "ok"
    body: dict[str, Any] = {"status": status}
    if shows_details(request):
        body.update(failing=failing, checks=results, missing=missing, parts=parts)
    return JsonResponse(body, status=503 if failing else 200)
