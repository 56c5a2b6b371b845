"""Notifications' pages: the list (read when seen), the settings (what comes where, the e-mail
address's verification), and the one-click unsubscribe of an e-mail (docs/social.md
"Notifications")."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.decorators import AuthenticatedHttpRequest, account_required
from kropki_site.lib.refusals import Refusal

from . import kinds, push, selectors, services


@account_required
@require_http_methods(["GET"])
def notifications(request: AuthenticatedHttpRequest) -> HttpResponse:
    rows = selectors.latest(request.user.pk)
    lines = []
    for row in rows:
        text, url = kinds.words(row.kind, row.data)
        lines.append({"text": text, "url": url, "at": row.created_at, "unread": row.read_at is None})
    services.read_all(user_id=request.user.pk)  # seen: read (the header's count goes to 0)
    return render(request, "games/notifications.html", {"lines": lines})


@account_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST" and request.POST.get("form") != "notifications":
        # every box unticked is a real choice, so the form says it is the form (a junk POST changes nothing)
        messages.error(request, _("The form was not sent whole. Choose again."))
        return redirect("notification_settings")
    if request.method == "POST":
        services.prefs_save(
            user_id=request.user.pk,
            site={k: request.POST.get(f"site-{k}") == "on" for k in kinds.KINDS},
            mail={k: request.POST.get(f"mail-{k}") == "on" for k in kinds.KINDS},
            push={k: request.POST.get(f"push-{k}") == "on" for k in kinds.KINDS},
        )
        messages.success(request, _("Notification settings saved."))
        return redirect("notification_settings")
    return render(
        request,
        "games/notification_settings.html",
        {
            "choices": selectors.choices(request.user.pk),
            "verified": request.user.email_verified,
            "push_key": push.public_key(),
            "push_devices": selectors.push_devices(request.user.pk),
        },
    )


@account_required
@require_POST
def push_subscribe(request: AuthenticatedHttpRequest) -> JsonResponse:
    """This browser's Web Push subscription (JSON, from static/js/app.js; CSRF header)."""
    try:
        push.subscribe(user=request.user, data=_json_body(request))
    except Refusal as exc:
        return JsonResponse({"code": exc.code, "message": exc.message}, status=exc.status)
    return JsonResponse({"ok": True})


@account_required
@require_POST
def push_unsubscribe(request: AuthenticatedHttpRequest) -> JsonResponse:
    data = _json_body(request)
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    return JsonResponse({"ok": push.unsubscribe(user=request.user, endpoint=endpoint)})


def _json_body(request: HttpRequest) -> Any:
    """The request's JSON body, or None when it is not JSON (the service refuses it)."""
    try:
        return json.loads(request.body or b"null")
    except ValueError:
        return None


@csrf_exempt  # a mail program posts it without the site's cookies (RFC 8058): the token is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with one button (a link checker opening the URL changes nothing); POST: done."""
    if request.method == "GET":
        return render(request, "games/unsubscribe.html", {"token": token, "done": False})
    try:
        user, kind = services.unsubscribe(token)
    except Refusal as exc:
        return render(request, "games/unsubscribe.html", {"error": exc.message}, status=exc.status)
    if not request.user.is_authenticated:  # a mail program's POST: the player's own language
        translation.activate(user.language)
    return render(request, "games/unsubscribe.html", {"done": True, "label": kinds.KINDS[kind].label})
