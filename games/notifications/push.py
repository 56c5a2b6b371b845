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
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from accounts.models import User
from kropki_site.lib.refusals import Refusal

from . import kinds
from .models import Notification, PushSubscription

log = logging.getLogger(__name__)

_lock = threading.Lock()
_vapid: Vapid02 | None = None


def vapid() -> Vapid02:
    """The site's VAPID key pair (made and kept in VAR_DIR/vapid.pem when the settings have none)."""
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
    """Send the pushes waiting, oldest first, each row taken by one sweep only, to every
    subscription of its player; a subscription its push service calls gone (404, 410) is
    deleted. Counts of sent (rows), gone (subscriptions) and failed."""
    done: Counter[str] = Counter()
    ids = list(
        Notification.objects.filter(push=Notification.Mail.PENDING)
        .order_by("id")
        .values_list("pk", flat=True)[: batch or settings.NOTIFY_MAIL_BATCH]
    )
    claims_sub = settings.VAPID_SUBJECT
    for row in Notification.objects.filter(pk__in=ids).select_related("user").order_by("id"):
        if not Notification.claim(row.pk, "push"):
            continue  # another sweep took it
        with translation.override(row.user.language):
            text, url = kinds.words(row.kind, row.data)
        payload = json.dumps({"title": "Kropki", "body": text, "url": url, "tag": f"{row.kind}:{row.pk}"})
        sent = False
        for subscription in PushSubscription.objects.filter(user_id=row.user_id):
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
                    subscription.delete()
                    done["gone"] += 1
                else:
                    log.warning("push to %s failed: %s", subscription.endpoint[:60], exc)
                    done["failed"] += 1
            except Exception:  # the push service is unreachable: this row is not retried (a push is fleeting)
                log.exception("push to %s failed", subscription.endpoint[:60])
                done["failed"] += 1
        state = Notification.Mail.SENT if sent else Notification.Mail.FAILED
        Notification.objects.filter(pk=row.pk).update(push=state)
        done["sent" if sent else "unsent"] += 1
    return done
