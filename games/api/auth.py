"""Who calls the API: ``Authorization: Bearer <token>``, the token's scopes and its rate.

Every refusal is JSON, ``{"error": code, "message": words}``, with the HTTP status of
``STATUS`` (400 unless named): never a page, never a redirect to the login form.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils import translation

from accounts.models import ApiToken
from accounts.tokens import token_lookup
from games.errors import MatchError
from kropki_site.lib import limits

STATUS = {
    "token_missing": 401,
    "token_invalid": 401,
    "token_scope": 403,
    "not_a_bot": 403,
    "not_a_player": 403,
    "bot_account": 403,
    "blocked": 403,
    "not_found": 404,
    "unknown_endpoint": 404,
    "challenge_not_open": 404,
    "method_not_allowed": 405,
    "rate_limited": 429,
    "too_many_streams": 429,
    "challenges_too_often": 429,
    "too_many_pending": 429,
    "target_busy": 429,
    "target_challenged_often": 429,
    "server_unavailable": 503,
}


def error(exc: MatchError, language: str | None = None) -> JsonResponse:
    """The one error answer: the code, its words (the token's account's language, else the request's)."""
    with translation.override(language or translation.get_language()):
        message = exc.message
    response = JsonResponse({"error": exc.code, "message": message}, status=STATUS.get(exc.code, 400))
    if exc.code in ("token_missing", "token_invalid"):
        response["WWW-Authenticate"] = 'Bearer realm="kropki"'
    return response


def bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _space, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        return None
    return secret.strip()


def authenticate(request: HttpRequest, *scopes: str, stream: bool = False) -> ApiToken:
    """The live token of the request having one of ``scopes`` (any, when none are named),
    within its rate (API_REQUESTS_PER_MINUTE; a stream's opening also API_STREAMS_PER_MINUTE).
    MatchError: token_missing, token_invalid, token_scope, rate_limited. Database: one query."""
    secret = bearer(request)
    if secret is None:
        raise MatchError("token_missing")
    token = token_lookup(secret)
    if token is None:
        raise MatchError("token_invalid")
    if scopes and not any(token.has_scope(scope) for scope in scopes):
        raise MatchError("token_scope")
    if not limits.hit("api", str(token.pk), limit=settings.API_REQUESTS_PER_MINUTE, window=60):
        raise MatchError("rate_limited")
    if stream and not limits.hit("api-stream", str(token.pk), limit=settings.API_STREAMS_PER_MINUTE, window=60):
        raise MatchError("rate_limited")
    return token


def require_bot(token: ApiToken) -> None:
    if not token.user.is_bot:
        raise MatchError("not_a_bot")


def body(request: HttpRequest) -> dict[str, Any]:
    """The request's parameters: a JSON object body, or a form (``curl -d``), or the query string."""
    if request.content_type == "application/json" and request.body:
        try:
            value = json.loads(request.body)
        except ValueError:
            raise MatchError("bad_json") from None
        if not isinstance(value, dict):
            raise MatchError("bad_frame")
        return value
    data: dict[str, Any] = request.GET.dict()
    data.update(request.POST.dict())
    return data
