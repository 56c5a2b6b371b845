"""Which addresses and browsers an account logged in from, as far as Redis remembers
(issue 24 item 9, issue 36 item 4): two accounts that share one are flagged for staff when
a rated game between them finishes (``games.play.trust``; ``PairFlag`` in the admin).

A browser is known by a long-lived random cookie (``BROWSER_COOKIE``, signed, set by
``accounts.middleware.BrowserIdMiddleware`` on any response to a browser that lacks it).
Only a keyed hash of the address or of the cookie's value is kept (``ADDRESS_MEMORY_DAYS``),
never the address or the value itself. A school or a family shares an address or a computer
honestly: a flag is a hint for staff, it changes nothing by itself.
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
BROWSERS_OF_USER = "browsers-of-user"
BROWSER_COOKIE = "kropki_browser"
BROWSER_COOKIE_SALT = "accounts.browser"


def address_digest(ip: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), ip.encode(), hashlib.sha256).hexdigest()[:32]


def _remember(name: str, user_id: int, value: str) -> None:
    limits.remember(name, str(user_id), address_digest(value), ttl=settings.ADDRESS_MEMORY_DAYS * 86400)


def _shared(name: str, a_id: int, b_id: int) -> bool:
    return bool(limits.members(name, str(a_id)) & limits.members(name, str(b_id)))


def remember_address(user_id: int, ip: str) -> None:
    _remember(ADDRESSES_OF_USER, user_id, ip)


def shared_address(a_id: int, b_id: int) -> bool:
    """Whether the two accounts logged in from one address within ADDRESS_MEMORY_DAYS."""
    return _shared(ADDRESSES_OF_USER, a_id, b_id)


def remember_browser(user_id: int, browser_id: str) -> None:
    _remember(BROWSERS_OF_USER, user_id, f"browser:{browser_id}")


def shared_browser(a_id: int, b_id: int) -> bool:
    """Whether the two accounts logged in from one browser within ADDRESS_MEMORY_DAYS."""
    return _shared(BROWSERS_OF_USER, a_id, b_id)


def browser_id(request: HttpRequest) -> str | None:
    """The browser's identifier: the one the middleware gave this request, else the signed
    cookie's (None: no cookie, or a forged one)."""
    given = getattr(request, "browser_id", None)
    if given:
        return str(given)
    value = request.get_signed_cookie(BROWSER_COOKIE, default=None, salt=BROWSER_COOKIE_SALT)
    return value or None


def on_logged_in(sender: Any, request: HttpRequest | None = None, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_in`` receiver (sign-up and guests log in too)."""
    if request is not None and user is not None and user.pk is not None:
        remember_address(user.pk, client_ip(request))
        browser = browser_id(request)
        if browser:
            remember_browser(user.pk, browser)
