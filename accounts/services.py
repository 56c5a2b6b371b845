"""Changes to accounts that more than one page makes."""

from __future__ import annotations

from datetime import datetime

from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from .models import Block, User
from .signals import credentials_changed
from .throttle import canonical_username
from .tokens import tokens_revoke_all
from .usernames import (
    DELETED_PREFIX,
    MSG_CONFUSABLE,
    MSG_TAKEN,
    username_check_reserved,
    username_check_script,
    username_fold,
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


def user_set_social(
    *,
    user: User,
    invisible: bool,
    notify_sound: bool,
    notify_title: bool,
    challenges_from_played_only: bool | None = None,
) -> User:
    """The presence, notification and challenge switches of the settings page (docs/social.md)."""
    user.invisible, user.notify_sound, user.notify_title = invisible, notify_sound, notify_title
    fields = ["invisible", "notify_sound", "notify_title"]
    if challenges_from_played_only is not None:
        user.challenges_from_played_only = challenges_from_played_only
        fields.append("challenges_from_played_only")
    user.save(update_fields=fields)
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


def session_still_valid(*, user_id: int, session_key: str | None, auth_hash: str | None) -> bool:
    """Does the session ``session_key`` still log ``user_id`` in: not logged out (the row is
    there and unexpired), the password not changed since (``auth_hash`` as Django stored it at
    log-in), the account active? For sockets, which outlive the page that opened them: every
    command asks, so it is one plain query by primary keys (the ORM's compiling cost more than
    the query, bench/profile_move.py)."""
    if not session_key or not auth_hash:
        return False
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT u.password, (SELECT COUNT(*) FROM {Session._meta.db_table} s"  # only table names are interpolated
            f" WHERE s.session_key = %s AND s.expire_date > %s)"
            f" FROM {User._meta.db_table} u WHERE u.id = %s AND u.is_active = %s",
            [session_key, now, user_id, True],
        )
        row = cursor.fetchone()
    if row is None or not row[1]:
        return False
    user = User(password=row[0])
    hashes = [user.get_session_auth_hash()]
    # Django's own check also accepts the hash under a fallback key during a rotation.
    hashes += [
        user._get_session_auth_hash(secret=secret)  # type: ignore[attr-defined]  # Django's, not in the stubs
        for secret in settings.SECRET_KEY_FALLBACKS
    ]
    return any(constant_time_compare(auth_hash, candidate) for candidate in hashes)


def username_clean(username: str, *, exclude_pk: int | None = None) -> str:
    """The NFKC form of a new (or renamed) account's username; ValidationError
    when it is reserved, taken in any letter case, or looks like a taken one."""
    username = username_normalize(username)
    username_check_reserved(username)
    others = User.objects.exclude(pk=exclude_pk) if exclude_pk is not None else User.objects.all()
    if others.filter(username_folded=username_fold(username)).exists():
        raise ValidationError(MSG_TAKEN, code="username_taken")
    if others.filter(username_skeleton=username_skeleton_key(username)).exists():
        raise ValidationError(MSG_CONFUSABLE, code="username_confusable")
    username_check_script(username)  # one script, ASCII digits (after the look-alike check: its words first)
    return username


def user_anonymise(*, user: User) -> User:
    """The accounts side of deleting an account (docs/privacy.md): its blocks (either way)
    go, and the row stays, emptied: no e-mail, no password, no settings, a neutral
    name ("usuniety-<id>", reserved), inactive and flagged deleted, so matches keep
    their players and nobody can log in to it. Its sockets close after commit
    (credentials_changed). The games side (chat lines, reports...) is
    ``games.play.privacy.account_delete``, which calls this."""
    Block.objects.filter(blocker=user).delete()
    Block.objects.filter(blocked=user).delete()
    # django-axes' failed log-ins under this name (kept for the cool-off; IP and browser)
    name = canonical_username(user.username)
    AccessAttempt.objects.filter(username=name).delete()
    AccessLog.objects.filter(username__in={name, user.username}).delete()
    user.username = f"{DELETED_PREFIX}{user.pk}"
    user.email = ""
    user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.is_deleted = True
    user.language = User.Language.POLISH
    user.invisible = True
    user.last_seen = None
    user.notify_sound = user.notify_title = False
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    credentials_changed.send(sender=User, user_id=user.pk)
    tokens_revoke_all(user_id=user.pk)  # and its API streams end
    return user
