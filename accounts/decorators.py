"""View guards for what needs a real account (ranked play, challenges)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, cast

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose user is logged in (``account_required``, ``login_required``):
    for annotations only, so a view may read ``request.user`` as a ``User``."""

    user: User


def account_required[**P](
    view: Callable[Concatenate[AuthenticatedHttpRequest, P], HttpResponseBase],
) -> Callable[Concatenate[HttpRequest, P], HttpResponseBase]:
    """Anonymous visitors go to the login page; guests (who only play the
    computer) are sent to sign up, which keeps their matches."""

    @wraps(view)
    def wrapper(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if getattr(request.user, "is_guest", False):
            messages.info(
                request, _("Ranked play and challenges need an account. Sign up: your games so far stay yours.")
            )
            return redirect("signup")
        # Checked just above: the user is logged in (the type of request.user cannot narrow request).
        return view(cast(AuthenticatedHttpRequest, request), *args, **kwargs)

    return wrapper
