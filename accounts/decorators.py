"""View guards for what needs a real account (ranked play, challenges)."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect
from django.utils.translation import gettext as _


def account_required(view):
    """Anonymous visitors go to the login page; guests (who only play the
    computer) are sent to sign up, which keeps their matches."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if getattr(request.user, "is_guest", False):
            messages.info(request, _("Ranked play and challenges need an account. Sign up: your games so far stay yours."))
            return redirect("signup")
        return view(request, *args, **kwargs)

    return wrapper
