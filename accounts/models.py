from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .usernames import username_fold, username_skeleton_key


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        # Log-in is case-insensitive, like the uniqueness of usernames, and folds
        # in Python (username_fold), so "łucja" finds "Łucja" on SQLite as well.
        matches = list(self.filter(username_folded=username_fold(username or ""))[:2])
        if len(matches) == 1:
            return matches[0]
        if matches:  # two old rows fold alike (made before the skeleton check): the exact name only
            return self.get(username=username)
        raise self.model.DoesNotExist


class User(AbstractUser):
    """The site's user. Usernames are unique regardless of letter case."""

    class Language(models.TextChoices):
        POLISH = "pl", _("Polish")
        ENGLISH = "en", _("English")

    email = models.EmailField(_("e-mail address"))
    language = models.CharField(_("language"), max_length=8, choices=Language.choices, default=Language.POLISH)
    # A visitor playing the computer without an account; signing up turns this
    # same row into a real account, so the guest's matches stay theirs.
    is_guest = models.BooleanField(_("guest"), default=False)
    # The SHA-256 of the username's confusable skeleton (accounts/usernames.py):
    # "аnia" with a Cyrillic "а" and "ANIA" have the skeleton of "ania". Unique:
    # no look-alike of a taken name. Set on every save; NULL only for an older
    # look-alike found by migration 0003.
    username_skeleton = models.CharField(max_length=64, null=True, blank=True, editable=False)
    # username_fold(username): what log-in looks the name up by (Python's Unicode
    # case folding, the same on every database). Set on every save.
    username_folded = models.CharField(max_length=600, default="", db_index=True, editable=False)
    # Presence (games/live/presence): "invisible" hides the player from the online
    # list and their profile's "online"; last_seen is when their last site socket closed.
    invisible = models.BooleanField(_("invisible"), default=False)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    # How a live notification (a direct challenge) announces itself on any page.
    notify_sound = models.BooleanField(_("sound for challenges"), default=True)
    notify_title = models.BooleanField(_("flash the page title for challenges"), default=True)
    # The player deleted the account (docs/privacy.md): the row stays, anonymised, so that
    # the matches keep both players and the opponents' ratings stay as they are; pages
    # show "deleted account" for it (games/display/snapshot.player_name).
    is_deleted = models.BooleanField(_("deleted"), default=False, db_index=True)

    # The match page (static/js/match.js): at this many seconds left on your own move the
    # clock is announced to screen readers and a short sound plays (if notify_sound); 0: never.
    LOW_TIME_DEFAULT = 10
    low_time_seconds = models.PositiveSmallIntegerField(
        _("low-time warning (seconds)"), default=LOW_TIME_DEFAULT,
        validators=[MaxValueValidator(59)],
    )

    class TapConfirm(models.TextChoices):
        AUTO = "auto", _("on a touch screen or a narrow window")
        ON = "on", _("always")
        OFF = "off", _("never")

    # Small targets (Kropki): a tap selects a point, a second tap on it plays (docs in settings).
    tap_confirm = models.CharField(_("tap to select, tap again to play"), max_length=4,
                                   choices=TapConfirm.choices, default=TapConfirm.AUTO)

    objects: ClassVar[UserManager] = UserManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.UniqueConstraint(fields=["username_skeleton"], name="accounts_user_username_skeleton_unique"),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        derived = {"username_skeleton": username_skeleton_key(self.username), "username_folded": username_fold(self.username)}
        changed = {name for name, value in derived.items() if getattr(self, name) != value}
        for name in changed:
            setattr(self, name, derived[name])
        update_fields = kwargs.get("update_fields")
        if changed and update_fields is not None:
            kwargs["update_fields"] = {*update_fields, *changed}
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.username


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no challenge from them, no chat with them,
    and for BLOCK_QUEUE_HOURS no pairing in the ranked queue (docs/social.md)."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
