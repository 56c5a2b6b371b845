"""Which addresses an account logged in from, as far as Redis remembers (issue 24
item 9): two accounts that share one are flagged for staff when a rated game
between them finishes (``games.play.trust``; ``PairFlag`` in the admin).

Only a keyed hash of the address is kept (``ADDRESS_MEMORY_DAYS``), never the
address itself. A school or a family shares an address honestly: a flag is a
hint for staff, it changes nothing by itself.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from kropki_site.lib import limits

from .ip import client_ip

ADDRESSES_OF_USER = "addresses-of-user"


def address_digest(ip: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), ip.encode(), hashlib.sha256).hexdigest()[:32]


def remember_address(user_id: int, ip: str) -> None:
    limits.remember(ADDRESSES_OF_USER, str(user_id), address_digest(ip), ttl=settings.ADDRESS_MEMORY_DAYS * 86400)


def shared_address(a_id: int, b_id: int) -> bool:
    """Whether the two accounts logged in from one address within ADDRESS_MEMORY_DAYS."""
    return bool(limits.members(ADDRESSES_OF_USER, str(a_id)) & limits.members(ADDRESSES_OF_USER, str(b_id)))


def on_logged_in(sender: Any, request: HttpRequest | None = None, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_in`` receiver (sign-up and guests log in too)."""
    if request is not None and user is not None and user.pk is not None:
        remember_address(user.pk, client_ip(request))
