"""/healthz: 200 only when the database, Redis (channel layer) and the Celery broker answer."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from kombu import Connection

TIMEOUT_SECONDS = 2


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_redis() -> None:
    """Ping every Redis host of the channel layer."""
    for host in settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]:
        address = host["address"] if isinstance(host, dict) else host
        client = redis.Redis.from_url(
            address, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
        )
        try:
            client.ping()
        finally:
            client.close()


def check_broker() -> None:
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=TIMEOUT_SECONDS) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
        # Open a channel too: a TCP connect alone does not prove the broker speaks.
        conn.default_channel.client.ping()


CHECKS = {"database": check_database, "redis": check_redis, "broker": check_broker}


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
    status = 503 if failing else 200
    return JsonResponse({"status": "ok" if not failing else "fail", "failing": failing, "checks": results}, status=status)
