"""Web Push (issue 40): a player's browsers, with their consent, get a system notification for
the kinds they chose (the settings page's "push" column). The standard's parts: the site's VAPID
key pair signs each push (settings.VAPID_PRIVATE_KEY, else one made once and kept in
VAR_DIR/vapid.pem); the browser's subscription (its push service's endpoint and the keys that
encrypt for it) is stored per browser; ``pywebpush`` encrypts (aes128gcm, RFC 8291) and posts.
The push services themselves are outside: an endpoint must be on one of PUSH_SERVICE_HOSTS
(the site's worker posts to it: no address a player makes up). docs/social.md "Notifications"."""

from __future__ import annotations

import base64
import json
import logging
import threading
import time
from collections import Counter, defaultdict
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation

from accounts.models import User
from kropki_site.lib.refusals import Refusal

from . import kinds
from .models import Notification, PushSubscription

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from py_vapid import Vapid02

# pywebpush, py_vapid and cryptography are imported where a key or a push is needed: with aiohttp,
# which pywebpush brings, they were a tenth of every process's start-up (a worker, a web process,
# a management command), and most processes never push.

_lock = threading.Lock()
_vapid: Vapid02 | None = None


def vapid() -> Vapid02:
    """The site's VAPID key pair (made and kept in VAR_DIR/vapid.pem when the settings have none)."""
    from py_vapid import Vapid02

    global _vapid
    with _lock:
        if _vapid is None:
            pem = settings.VAPID_PRIVATE_KEY
            if not pem:
                path = Path(settings.VAR_DIR) / "vapid.pem"
                if not path.exists():
                    made = Vapid02()
                    made.generate_keys()
                    path.parent.mkdir(parents=True, exist_ok=True)
                    made.save_key(str(path))
                pem = path.read_text()
            _vapid = Vapid02.from_pem(pem.encode())
        return _vapid


def public_key() -> str:
    """The applicationServerKey a browser subscribes with: the public point, base64url, unpadded."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid().public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def subscribe(*, user: User, data: Any) -> PushSubscription:
    """Keep a browser's subscription (``PushSubscription.toJSON()``: endpoint, keys.p256dh,
    keys.auth). Refusal ``push_bad_subscription`` for anything else or an endpoint off
    PUSH_SERVICE_HOSTS, ``push_too_many`` past PUSH_SUBSCRIPTIONS_PER_USER browsers."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise Refusal("push_bad_subscription")
    endpoint, keys = data.get("endpoint"), data["keys"]
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not all(isinstance(v, str) and 0 < len(v) <= 1000 for v in (endpoint, p256dh, auth)):
        raise Refusal("push_bad_subscription")
    assert isinstance(endpoint, str) and isinstance(p256dh, str) and isinstance(auth, str)
    url = urlparse(endpoint)
    host = (url.hostname or "").lower()
    allowed = any(host == h or host.endswith("." + h) for h in settings.PUSH_SERVICE_HOSTS)
    if url.scheme != "https" and not (url.scheme == "http" and host in settings.PUSH_SERVICE_HOSTS_HTTP):
        allowed = False
    if not allowed or len(p256dh) > 200 or len(auth) > 100:
        raise Refusal("push_bad_subscription")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        existing = PushSubscription.objects.filter(endpoint=endpoint).first()
        if existing is not None:  # the same browser again (or another account on it): it is this one's now
            existing.user, existing.p256dh, existing.auth = user, p256dh, auth
            existing.save(update_fields=["user", "p256dh", "auth"])
            return existing
        if PushSubscription.objects.filter(user=user).count() >= settings.PUSH_SUBSCRIPTIONS_PER_USER:
            raise Refusal("push_too_many")
        try:
            with transaction.atomic():
                return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
        except IntegrityError:
            raise Refusal("push_bad_subscription") from None


def unsubscribe(*, user: User, endpoint: object) -> bool:
    return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0] > 0


def push_pending(*, batch: int | None = None) -> Counter[str]:
    """Send the pushes waiting, oldest first, to every subscription of each row's player. As the
    e-mails (``services.mail_pending``): the batch taken in one write and settled in one more,
    each row by one sweep only, rows a dead sweep left taken sent again after
    NOTIFY_CLAIM_SECONDS (at least once), the rest left pending when the claim's half-time is
    spent. A subscription its push service calls gone (404, 410) is deleted (one DELETE at the
    end); a push service unreachable fails the row, never retried (a push is
    fleeting). Counts of sent (rows), gone (subscriptions) and failed."""
    done: Counter[str] = Counter()
    stale = timedelta(seconds=settings.NOTIFY_CLAIM_SECONDS)
    taken = Notification.take("push", batch or settings.NOTIFY_MAIL_BATCH, stale=stale)
    if not taken:
        return done
    from pywebpush import WebPushException, webpush

    deadline = time.monotonic() + stale.total_seconds() / 2
    subscriptions: dict[int, list[PushSubscription]] = defaultdict(list)
    for subscription in PushSubscription.objects.filter(user_id__in={row.user_id for row in taken}).order_by("id"):
        subscriptions[subscription.user_id].append(subscription)
    outcome: dict[str, list[int]] = {Notification.Mail.SENT: [], Notification.Mail.FAILED: []}
    gone: list[int] = []
    claims_sub = settings.VAPID_SUBJECT
    try:
        for row in taken:
            if time.monotonic() >= deadline:  # the claim runs out: the rest for the next sweep
                break
            with translation.override(row.user.language):
                text, url = kinds.words(row.kind, row.data)
            payload = json.dumps({"title": "Kropki", "body": text, "url": url, "tag": f"{row.kind}:{row.pk}"})
            sent = False
            for subscription in subscriptions[row.user_id]:
                if subscription.pk in gone:
                    continue
                info = {
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                }
                try:
                    webpush(
                        info,
                        data=payload,
                        vapid_private_key=vapid(),
                        vapid_claims={"sub": claims_sub},
                        ttl=86400,
                        timeout=10,
                    )
                    sent = True
                except WebPushException as exc:
                    status = getattr(exc.response, "status_code", None)
                    if status in (404, 410):
                        gone.append(subscription.pk)
                        done["gone"] += 1
                    else:
                        log.warning("push to %s failed: %s", subscription.endpoint[:60], exc)
                        done["failed"] += 1
                except Exception:  # the push service is unreachable: this row is not retried (a push is fleeting)
                    log.exception("push to %s failed", subscription.endpoint[:60])
                    done["failed"] += 1
            outcome[Notification.Mail.SENT if sent else Notification.Mail.FAILED].append(row.pk)
            done["sent" if sent else "unsent"] += 1
    finally:
        if gone:
            PushSubscription.objects.filter(pk__in=gone).delete()
        Notification.settle("push", outcome, taken)
    return done
