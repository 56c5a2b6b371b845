"""Web Push (issue 40): a browser's subscription kept by the site, and a notification pushed to
it, signed with the site's VAPID key and encrypted (aes128gcm, RFC 8291) so that only the
subscription's keys open it. The push service is outside: a local HTTP endpoint stands in for
it, and the test decrypts what it received with the private key the "browser" made (as a
browser does; Chromium itself subscribes only through Google's service, which a test cannot
reach). The service worker's part is a browser test (tests/browser/test_app_browser.py)."""

from __future__ import annotations

import base64
import json
import os
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.notifications import push, services
from games.notifications.models import Notification, PushSubscription
from games.notifications.selectors import account_part
from games.play.challenges import challenge_direct_create
from games.play.privacy import account_delete

pytestmark = pytest.mark.django_db


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class PushService:
    """A push service's endpoint on 127.0.0.1: keeps every POST (headers, body); answers ``status``."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture
def service(settings, tmp_path):
    settings.PUSH_SERVICE_HOSTS = ("127.0.0.1",)
    settings.PUSH_SERVICE_HOSTS_HTTP = ("127.0.0.1",)
    settings.VAR_DIR = tmp_path  # a VAPID key of this test's own
    push._vapid = None
    running = PushService()
    yield running
    running.close()
    push._vapid = None


class Browser:
    """What a browser makes when it subscribes: an ECDH key pair and an auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def open(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def test_a_subscription_is_kept_only_for_a_push_service(client, bob, service):
    client.force_login(bob)
    browser = Browser(service.url)
    answer = client.post("/powiadomienia/push/", browser.subscription, content_type="application/json")
    assert answer.status_code == 200 and PushSubscription.objects.get(user=bob).endpoint == service.url
    for bad in (
        {**browser.subscription, "endpoint": "http://10.0.0.1/steal/"},  # not a push service: no SSRF
        {**browser.subscription, "endpoint": "https://evil.example/push"},
        {"endpoint": service.url},
        "junk",
    ):
        refused = client.post("/powiadomienia/push/", bad, content_type="application/json")
        assert refused.status_code == 400 and refused.json()["code"] == "push_bad_subscription"
    assert PushSubscription.objects.count() == 1
    page = client.get("/powiadomienia/ustawienia/").content.decode()
    assert f'data-key="{push.public_key()}"' in page and 'name="push-challenge"' in page


def test_a_challenge_is_pushed_signed_and_encrypted_for_the_browser_alone(client, alice, bob, service):
    browser = Browser(service.url)
    push.subscribe(user=bob, data=browser.subscription)
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant="kropki-10", rated=False)
    services.deliver_pending()
    row = Notification.objects.get(user=bob, kind="challenge")
    assert row.push == Notification.Mail.PENDING
    assert push.push_pending() == {"sent": 1}
    [(headers, body)] = service.received
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid" and f"k={push.public_key()}" in params  # signed with the site's key
    message = browser.open(body)
    assert message["body"] == "alice wyzywa Cię na partię (Kropki 10×10, szybka)."
    assert message["url"] == "/gracz/alice/"
    with pytest.raises(http_ece.ECEException):  # another browser's keys open nothing
        Browser(service.url).open(body)
    row.refresh_from_db()
    assert row.push == Notification.Mail.SENT


def test_a_push_sweep_writes_twice_whatever_its_batch(bob, service, settings):
    """As the e-mails: a batch is taken in one write and settled in one more, not two writes a
    push; rows a dead sweep took go again once its claim runs out."""
    browser = Browser(service.url)
    push.subscribe(user=bob, data=browser.subscription)
    queries = []
    for n in (2, 6):
        for i in range(n):
            services.notify([bob.pk], "challenge", {"name": "alice", "variant": "kropki-10", "challenge": i})
        services.deliver_pending()
        with CaptureQueriesContext(connection) as sweep:
            assert push.push_pending(batch=n) == {"sent": n}
        writes = [
            q["sql"] for q in sweep.captured_queries if q["sql"].lstrip()[:6].upper() in ("UPDATE", "INSERT", "DELETE")
        ]
        assert len(writes) == 2, writes
        queries.append(len(sweep.captured_queries))
    assert queries[0] == queries[1] and len(service.received) == 8
    assert not Notification.objects.exclude(push=Notification.Mail.SENT).exists()
    services.notify([bob.pk], "challenge", {"name": "alice", "variant": "kropki-10", "challenge": 9})
    services.deliver_pending()
    claim = timedelta(seconds=settings.NOTIFY_CLAIM_SECONDS)
    assert len(Notification.take("push", 10, stale=claim)) == 1  # a sweep took it, then died
    assert push.push_pending() == {}
    with time_machine.travel(timezone.now() + claim + timedelta(seconds=1)):
        assert push.push_pending() == {"sent": 1}
    assert len(service.received) == 9


def test_a_subscription_the_service_calls_gone_is_dropped(alice, bob, service):
    push.subscribe(user=bob, data=Browser(service.url).subscription)
    service.status = 410
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant="kropki-10", rated=False)
    services.deliver_pending()
    assert push.push_pending() == {"gone": 1, "unsent": 1}
    assert not PushSubscription.objects.exists()


def test_the_settings_turn_push_off_and_privacy_covers_subscriptions(client, alice, bob, service):
    push.subscribe(user=bob, data=Browser(service.url).subscription)
    client.force_login(bob)
    client.post("/powiadomienia/ustawienia/", {"form": "notifications", "site-challenge": "on"})
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant="kropki-10", rated=False)
    services.deliver_pending()
    assert Notification.objects.get(user=bob, kind="challenge").push == Notification.Mail.NONE
    assert account_part(bob)["push_subscriptions"][0]["endpoint"] == service.url
    account_delete(user_id=bob.pk)
    assert not PushSubscription.objects.exists()
