"""Who calls the API: ``Authorization: Bearer <token>``, the token's scopes and its rate.

Every refusal is JSON, ``{"error": code, "message": words}``, with the HTTP status its code's
table names (kropki_site/lib/refusals.py; the API's own codes in codes.py): never a page, never
a redirect to the login form.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils import translation

from accounts.ip import client_ip
from accounts.models import ApiToken
from accounts.tokens import token_lookup
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal


def error(exc: Refusal, language: str | None = None) -> JsonResponse:
    """The one error answer: the code, its words (the token's account's language, else the request's)."""
    with translation.override(language or translation.get_language()):
        message = exc.message
    response = JsonResponse({"error": exc.code, "message": message}, status=exc.status)
    if exc.code in ("token_missing", "token_invalid"):
        response["WWW-Authenticate"] = 'Bearer realm="kropki"'
    if exc.status == 429:  # a minute's window, or a stream to close first
        response["Retry-After"] = "60" if exc.code == "rate_limited" else str(RETRY_STREAM_SECONDS)
    return response


RETRY_STREAM_SECONDS = 5


def bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _space, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        return None
    return secret.strip()


def authenticate(request: HttpRequest, *scopes: str, stream: bool = False) -> ApiToken:
    """The live token of the request having one of ``scopes`` (any, when none are named),
    within the budgets of its address (API_ADDRESS_REQUESTS_PER_MINUTE; a stream's opening also
    API_ADDRESS_STREAMS_PER_MINUTE), counted before the token is read, and of its account, all
    its tokens together (API_REQUESTS_PER_MINUTE, API_STREAMS_PER_MINUTE).
    Refusal: token_missing, token_invalid, token_scope, rate_limited. Database: one query."""
    address = client_ip(request)
    if not limits.hit("api-addr", address, limit=settings.API_ADDRESS_REQUESTS_PER_MINUTE, window=60):
        raise Refusal("rate_limited")
    if stream and not limits.hit("api-addr-stream", address, limit=settings.API_ADDRESS_STREAMS_PER_MINUTE, window=60):
        raise Refusal("rate_limited")
    secret = bearer(request)
    if secret is None:
        raise Refusal("token_missing")
    token = token_lookup(secret)
    if token is None:
        raise Refusal("token_invalid")
    if scopes and not any(token.has_scope(scope) for scope in scopes):
        raise Refusal("token_scope")
    account = str(token.user_id)
    if not limits.hit("api-account", account, limit=settings.API_REQUESTS_PER_MINUTE, window=60):
        raise Refusal("rate_limited")
    if stream and not limits.hit("api-account-stream", account, limit=settings.API_STREAMS_PER_MINUTE, window=60):
        raise Refusal("rate_limited")
    return token


def require_bot(token: ApiToken) -> None:
    if not token.user.is_bot:
        raise Refusal("not_a_bot")


def body(request: HttpRequest) -> dict[str, Any]:
    """The request's parameters: a JSON object body, or a form (``curl -d``), or the query string."""
    if request.content_type == "application/json" and request.body:
        try:
            value = json.loads(request.body)
        except ValueError:
            raise Refusal("bad_json") from None
        if not isinstance(value, dict):
            raise Refusal("bad_frame")
        return value
    data: dict[str, Any] = request.GET.dict()
    data.update(request.POST.dict())
    return data
