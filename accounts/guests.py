"""Guests: a visitor who plays the computer gets a real (flagged) User row for
the browser session; signing up later turns that row into an account."""

from __future__ import annotations

import secrets

from django.contrib.auth import login
from django.http import HttpRequest

from .models import User

GUEST_PREFIX = "gosc-"


def guest_create() -> User:
    while True:
        username = f"{GUEST_PREFIX}{secrets.token_hex(4)}"
        if not User.objects.filter(username__iexact=username).exists():
            break
    user = User(username=username, is_guest=True)
    user.set_unusable_password()
    user.save()
    return user


def guest_for_request(request: HttpRequest) -> User:
    """The visitor's user: the logged-in one, or a new guest logged in now."""
    if request.user.is_authenticated:
        return request.user  # type: ignore[return-value]
    user = guest_create()
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def guest_convert(*, guest: User, username: str, email: str, password: str, language: str) -> User:
    """Turn the guest row into a full account (keeps its id, so its matches)."""
    guest.username = username
    guest.email = email
    guest.language = language
    guest.is_guest = False
    guest.set_password(password)
    guest.save(update_fields=["username", "email", "language", "is_guest", "password"])
    return guest
