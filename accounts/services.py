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


def user_set_social(*, user: User, invisible: bool, notify_sound: bool, notify_title: bool,
                    challenges_from_played_only: bool | None = None) -> User:
    """The presence, notification and challenge switches of the settings page (docs/social.md)."""
    user.invisible, user.notify_sound, user.notify_title = invisible, notify_sound, notify_title
    fields = ["invisible", "notify_sound", "notify_title"]
    if challenges_from_played_only is not None:
        user.challenges_from_played_only = challenges_from_played_only
        fields.append("challenges_from_played_only")
    user.save(update_fields=fields)
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
