"""Log-in throttling that throttles attackers, not owners (django-axes).

- Failures are keyed on the canonical username (NFKC, case-folded), the way
  log-in matches it: "Ania", "ANIA" and "ania" are one name to count.
- A (client IP, username) pair is locked after ``AXES_FAILURE_LIMIT`` failures:
  guessing at a name from one address locks only that address for that name,
  so the owner on another device or network still logs in.
- A client IP is locked for every name after ``AXES_IP_FAILURE_LIMIT``
  failures (one address trying many names).
- The client IP is ``accounts.ip.client_ip`` (the proxy's header only when
  ``BEHIND_PROXY``).

axes compares one number with one limit, so ``get_failures`` reports the
pair's failures or the address's failures scaled to that limit, whichever is
larger.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest

# axes' AccessAttempt.username is a varchar(255).
_MAX = 255


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


class LoginThrottleHandler(AxesDatabaseHandler):  # type: ignore[misc]  # django-axes ships no type hints
    """axes' database handler with two limits (see the module's docstring).

    ``AXES_LOCKOUT_PARAMETERS`` must be ``[["ip_address", "username"], "ip_address"]``:
    the first query set is the pair's, the second the address's.
    """

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        counts: list[int] = [
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        ]
        pair = counts[0] if counts else 0
        per_ip = counts[1] if len(counts) > 1 else 0
        limit: int = get_failure_limit(request, credentials)
        ip_limit = max(1, settings.AXES_IP_FAILURE_LIMIT)
        # per_ip * limit // ip_limit >= limit exactly when per_ip >= ip_limit.
        return max(pair, per_ip * limit // ip_limit)

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
