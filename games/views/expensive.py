"""The expensive GETs (issue 24 item 11): a board at a ply, a record's replay frame and the
exports each replay a match and draw it. 8 threads fetching distinct plies of a 367-ply
match (47 req/s) raised two players' move round trip from 10 ms to 117 ms. So:

- finished matches' answers come from the shared cache (Redis, ``kropki_site/cache.py``):
  drawn once for every process;
- a client IP makes at most EXPENSIVE_GETS_PER_MINUTE of these a minute (a Redis counter,
  ``kropki_site/lib/limits.py``), then 429 with ``Retry-After`` (JSON where the page expects
  JSON); nginx's ``limit_req`` stands in front (docs/deploy.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from accounts.ip import client_ip
from kropki_site.lib import limits

WINDOW_SECONDS = 60


def history_digest(history: list[int]) -> str:
    return hashlib.blake2b(json.dumps(history).encode(), digest_size=16).hexdigest()


def rate_limited(*, json_answer: bool = False) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view of an expensive GET: counted per client IP, 429 over EXPENSIVE_GETS_PER_MINUTE."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not limits.hit(
                "expensive-get", client_ip(request), limit=settings.EXPENSIVE_GETS_PER_MINUTE, window=WINDOW_SECONDS
            ):
                message = _("Too many requests for boards at once. Wait a minute and try again.")
                response: HttpResponse
                if json_answer:
                    response = JsonResponse({"code": "rate_limited", "message": message}, status=429)
                else:
                    response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
                response["Retry-After"] = str(WINDOW_SECONDS)
                return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
