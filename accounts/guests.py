"""Guests: a visitor who plays the computer gets a real (flagged) User row for
the browser session; signing up later turns that row into an account.

Bounded (issue 12, docs/bots.md "Limits"): GUESTS_PER_IP new guests per IP per
GUEST_WINDOW_SECONDS, then GuestLimitReached (the view answers 429); the guests
of an IP are remembered in Redis for a day (their computer matches share a cap);
``games/play/guests.py`` (beat, hourly) removes guests with no match for
GUEST_STALE_DAYS days, keeping any guest with a finished match."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpRequest
from django.utils import translation

from kropki_site.lib import limits

from .ip import client_ip
from .models import User
from .usernames import GUEST_PREFIX

# Redis set: the guests made from one IP (the per-IP computer-match cap counts their matches).
GUESTS_OF_IP = "guests-of-ip"
GUESTS_OF_IP_TTL = 24 * 3600


class GuestLimitReached(Exception):
    """Too many new guests from this IP in the window (settings.GUESTS_PER_IP)."""


def guest_create(language: str | None = None) -> User:
    """A new guest account; ``language``: the pages it reads (the visitor's, default Polish)."""
    while True:
        username = f"{GUEST_PREFIX}{secrets.token_hex(4)}"
        if not User.objects.filter(username__iexact=username).exists():
            break
    user = User(username=username, is_guest=True)
    if language in dict(User.Language.choices):
        user.language = language
    user.set_unusable_password()
    user.save()
    return user


def guest_for_request(request: HttpRequest) -> User:
    """The visitor's user: the logged-in one, or a new guest logged in now.

    Raises GuestLimitReached when this IP made GUESTS_PER_IP guests within
    GUEST_WINDOW_SECONDS (a visitor keeps its guest through the session cookie,
    so only cookie-less floods reach it)."""
    if request.user.is_authenticated:
        return request.user
    ip = client_ip(request)
    if not limits.hit("guest-new", ip, limit=settings.GUESTS_PER_IP, window=settings.GUEST_WINDOW_SECONDS):
        raise GuestLimitReached(ip)
    # the language the visitor has been reading in (a browser in English stays in English)
    user = guest_create(translation.get_language())
    limits.remember(GUESTS_OF_IP, ip, user.pk, ttl=GUESTS_OF_IP_TTL)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def guest_ids_of_ip(ip: str) -> set[int]:
    """The guests made from ``ip`` within the last day (as far as Redis remembers)
    that are still guests (one that signed up counts as an account from then on)."""
    ids = {int(value) for value in limits.members(GUESTS_OF_IP, ip) if value.isdigit()}
    return set(User.objects.filter(pk__in=ids, is_guest=True).values_list("pk", flat=True)) if ids else set()


def guest_convert(*, guest: User, username: str, email: str, password: str, language: str) -> User:
    """Turn the guest row into a full account (keeps its id, so its matches)."""
    guest.username = username
    guest.email = email
    guest.language = language
    guest.is_guest = False
    guest.set_password(password)
    guest.save(update_fields=["username", "email", "language", "is_guest", "password"])
    return guest
