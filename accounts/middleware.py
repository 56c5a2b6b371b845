from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import translation


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
