"""Log-in throttling that throttles attackers, not owners (django-axes).

- Failures are keyed on the canonical username (NFKC, case-folded), the way
  log-in matches it: "Ania", "ANIA" and "ania" are one name to count.
- A (client IP, username) pair is locked after ``AXES_FAILURE_LIMIT`` failures:
  guessing at a name from one address locks only that address for that name,
  so the owner on another device or network still logs in.
- A client IP that failed ``AXES_IP_FAILURE_LIMIT`` times (any names: one
  address trying many names) is *slowed*, not locked (issue 24: 30 made-up
  names used to lock every owner behind a school's or a café's address out):
  it may make one log-in attempt per ``AXES_IP_SLOW_SECONDS`` (a Redis slot,
  ``kropki_site/lib/limits.py``); that attempt is checked as usual, so a correct
  password gets through, a wrong one counts; a faster attempt gets the 429
  page ("wait N seconds") without its password being checked.
- A remembered device passes the slow lane (issue 37 item 10 a: an attacker failing
  continuously from the owner's address kept the one slot, and the owner got 429 after
  429). A successful log-in sets ``DEVICE_COOKIE`` on that browser: signed (Django's
  signed cookies: ``SECRET_KEY``), HttpOnly, for ``DEVICE_DAYS``, naming the canonical
  usernames (at most ``DEVICE_NAMES``) that logged in there. An attempt for one of those
  names, carrying the cookie, is checked at once however slowed its address is; the
  (address, name) pair's hard lock still applies, and its failures still count. An
  attacker gets a cookie only for a name whose password they know.
- The client IP is ``accounts.ip.client_ip`` (the proxy's header only when
  ``BEHIND_PROXY``).

axes compares one number with one limit: ``get_failures`` reports the pair's
failures (the hard lock), and ``is_locked`` adds the address's slow lane.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.core import signing
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse

from kropki_site.lib import limits

from .ip import client_ip

# axes' AccessAttempt.username is a varchar(255).
_MAX = 255

DEVICE_COOKIE = "kropki_device"
DEVICE_SALT = "accounts.throttle.device"
DEVICE_DAYS = 365
DEVICE_NAMES = 4  # names remembered per browser, the latest first


def canonical_username(username: str | None) -> str | None:
    """The form log-in attempts are counted under (and the one log-in matches)."""
    if username is None:
        return None
    return unicodedata.normalize("NFKC", str(username)).casefold()[:_MAX]


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the posted (or authenticated) name, canonical."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        username = credentials.get(field)
    else:
        data = getattr(request, "data", None) or getattr(request, "POST", {})
        username = data.get(field)
    return canonical_username(username)


def device_names(request: HttpRequest) -> list[str]:
    """The canonical names that logged in on this browser (its valid ``DEVICE_COOKIE``), or []."""
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return []
    try:
        names = signing.loads(value, salt=DEVICE_SALT, max_age=DEVICE_DAYS * 86400)
    except signing.BadSignature:  # forged, another key's, or expired
        return []
    return [name for name in names if isinstance(name, str)][:DEVICE_NAMES] if isinstance(names, list) else []


def device_remember(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a successful log-in as ``username``: remember this browser for that name."""
    name = canonical_username(username) or ""
    names = [name, *(other for other in device_names(request) if other != name)][:DEVICE_NAMES]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps(names, salt=DEVICE_SALT, compress=True),  # base64: any name fits in a cookie
        max_age=DEVICE_DAYS * 86400,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def _remembered(request: HttpRequest, credentials: dict[str, Any] | None) -> bool:
    name = axes_username(request, credentials)
    return name is not None and name in device_names(request)


class LoginThrottleHandler(AxesDatabaseHandler):  # type: ignore[misc]  # django-axes ships no type hints
    """axes' database handler with two limits (see the module's docstring).

    ``AXES_LOCKOUT_PARAMETERS`` must be ``[["ip_address", "username"], "ip_address"]``:
    the first query set is the pair's, the second the address's.
    """

    def _counts(self, request: HttpRequest, credentials: dict[str, Any] | None) -> tuple[int, int]:
        """(the pair's failures, the address's failures)."""
        counts: list[int] = [
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        ]
        return (counts[0] if counts else 0), (counts[1] if len(counts) > 1 else 0)

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """The pair's failures: what locks hard (and marks a failure as the locking one)."""
        return self._counts(request, credentials)[0]

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        """The pair over its limit: locked. The address over its limit: one attempt per
        AXES_IP_SLOW_SECONDS gets through (to be checked), the others are locked, except a
        remembered device's attempt for its own name (checked at once)."""
        pair, per_ip = self._counts(request, credentials)
        if pair >= get_failure_limit(request, credentials):
            return True
        if per_ip < max(1, settings.AXES_IP_FAILURE_LIMIT) or _remembered(request, credentials):
            return False
        seconds = max(1, settings.AXES_IP_SLOW_SECONDS)
        if limits.lock_acquire("login-slow", client_ip(request), ttl=seconds) is not None:
            return False
        request.kropki_login_slowed = seconds  # type: ignore[attr-defined]  # read by accounts.views.locked_out
        return True

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        """An attempt refused by the slow lane was not checked: it shows the 429 page and is
        not counted (an owner retrying too soon must not lock their own name)."""
        if request is not None and getattr(request, "kropki_login_slowed", None):
            request.axes_locked_out = True  # type: ignore[attr-defined]  # axes' flag: the middleware's 429
            request.axes_credentials = credentials  # type: ignore[attr-defined]
            return
        super().user_login_failed(sender, credentials, request, **kwargs)

    def reset_user_attempts(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """A successful log-in clears its own (address, name) pair only: an
        attacker with an account of their own must not wipe their address's
        count by logging in to it."""
        attempts_list = self.filter_user_attempts(request, credentials)
        if not attempts_list:
            return 0
        count: int
        count, _ = attempts_list[0].delete()
        return count
