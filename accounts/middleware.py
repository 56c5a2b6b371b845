from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import translation

from .addresses import BROWSER_COOKIE, BROWSER_COOKIE_SALT


class UserLanguageMiddleware:
    """Apply a logged-in user's stored language (after LocaleMiddleware and auth)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.known = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language in self.known:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        return self.get_response(request)


class BrowserIdMiddleware:
    """Give every browser a long-lived random identifier (a signed cookie) if it has none:
    accounts logged in from one browser are flagged when they play each other rated
    (accounts/addresses.py). The request carries it as ``request.browser_id``, so a log-in
    on a browser's first visit already remembers it. Only pages get the cookie: never a
    response a shared cache may keep (``Cache-Control: public``, e.g. a board's picture),
    which would hand one identifier to many browsers, nor the API's JSON."""

    MAX_AGE = 2 * 365 * 86400

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        value = request.get_signed_cookie(BROWSER_COOKIE, default=None, salt=BROWSER_COOKIE_SALT)
        fresh = not value
        request.browser_id = value or secrets.token_urlsafe(16)  # type: ignore[attr-defined]
        response = self.get_response(request)
        shareable = "public" in response.get("Cache-Control", "")
        if fresh and not shareable and response.get("Content-Type", "").startswith("text/html"):
            response.set_signed_cookie(
                BROWSER_COOKIE,
                request.browser_id,  # type: ignore[attr-defined]
                salt=BROWSER_COOKIE_SALT,
                max_age=self.MAX_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
