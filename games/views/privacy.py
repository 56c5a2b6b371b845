"""Your data (docs/privacy.md): the privacy page, "Download my data" (one JSON file)
and "Delete my account" (asks the password; games.play.privacy does the deleting)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.decorators import AuthenticatedHttpRequest, account_required
from accounts.forms import DeleteAccountForm
from games.display.export import account_json
from games.play.privacy import account_delete
from games.selectors.account import account_rows


@require_GET
def privacy(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/privacy.html",
        {
            "contact_email": settings.PRIVACY_CONTACT_EMAIL,
            "guest_days": settings.GUEST_STALE_DAYS,
            "session_days": settings.SESSION_COOKIE_AGE // 86400,
            "cooloff_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
            "address_days": settings.ADDRESS_MEMORY_DAYS,
        },
    )


@account_required
@require_GET
def account_download(request: AuthenticatedHttpRequest) -> HttpResponse:
    data = account_json(account_rows(request.user))
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    stamp = timezone.now().strftime("%Y-%m-%d")
    response["Content-Disposition"] = f'attachment; filename="kropki-konto-{request.user.pk}-{stamp}.json"'
    response["Cache-Control"] = "no-store"  # a person's whole data: no browser or proxy keeps a copy
    return response


@account_required
def account_delete_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = DeleteAccountForm(request.POST, user=request.user)
        if form.is_valid():
            account_delete(user_id=request.user.pk)
            logout(request)
            messages.success(request, _("Your account has been deleted. Your games stay, under “deleted account”."))
            return redirect("home")
    else:
        form = DeleteAccountForm(user=request.user)
    return render(request, "accounts/delete_account.html", {"form": form})
