"""Changes to accounts that more than one page makes."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError

from .models import User
from .usernames import (
    MSG_CONFUSABLE,
    MSG_TAKEN,
    username_check_reserved,
    username_normalize,
    username_skeleton_key,
)


def user_set_language(*, user: User, language: str) -> User:
    if language not in User.Language.values:
        raise ValueError(f"unknown language {language!r}")
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return user


def user_set_social(*, user: User, invisible: bool, notify_sound: bool, notify_title: bool) -> User:
    """The presence and notification switches of the settings page (docs/social.md)."""
    user.invisible, user.notify_sound, user.notify_title = invisible, notify_sound, notify_title
    user.save(update_fields=["invisible", "notify_sound", "notify_title"])
    return user


def user_set_play(*, user: User, low_time_seconds: int, tap_confirm: str) -> User:
    """The match page's switches of the settings page: the low-time warning and tap to confirm."""
    if not 0 <= low_time_seconds <= 59:
        raise ValueError(f"low-time warning out of range: {low_time_seconds!r}")
    if tap_confirm not in User.TapConfirm.values:
        raise ValueError(f"unknown tap-confirm choice {tap_confirm!r}")
    user.low_time_seconds, user.tap_confirm = low_time_seconds, tap_confirm
    user.save(update_fields=["low_time_seconds", "tap_confirm"])
    return user


def user_mark_seen(*, user_id: int, at: datetime) -> None:
    """The user's last site socket closed at ``at`` (their profile's "last seen")."""
    User.objects.filter(pk=user_id).update(last_seen=at)


def username_clean(username: str, *, exclude_pk: int | None = None) -> str:
    """The NFKC form of a new (or renamed) account's username; ValidationError
    when it is reserved, taken in any letter case, or looks like a taken one."""
    username = username_normalize(username)
    username_check_reserved(username)
    others = User.objects.exclude(pk=exclude_pk) if exclude_pk is not None else User.objects.all()
    if others.filter(username__iexact=username).exists():
        raise ValidationError(MSG_TAKEN, code="username_taken")
    if others.filter(username_skeleton=username_skeleton_key(username)).exists():
        raise ValidationError(MSG_CONFUSABLE, code="username_confusable")
    return username
