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
    # Its owner opened the link sent to it (accounts/verification.py): only then does the site
    # mail it anything but a password reset (issue 40).
    email_verified = models.BooleanField(_("e-mail address verified"), default=False)
    language = models.CharField(_("language"), max_length=8, choices=Language.choices, default=Language.POLISH)
    # A visitor playing the computer without an account; signing up turns this
    # same row into a real account, so the guest's matches stay theirs.
    is_guest = models.BooleanField(_("guest"), default=False)
    # The SHA-256 of the username's confusable skeleton (accounts/usernames.py):
    # "аnia" with a Cyrillic "а" and "ANIA" have the skeleton of "ania". Unique:  # noqa: RUF003 - the look-alike is the example
    # no look-alike of a taken name. Set on every save; NULL only for an older
    # look-alike found by migration 0003.
    username_skeleton = models.CharField(max_length=64, null=True, blank=True, editable=False)  # noqa: DJ001 - NULL, not "", is the unique no-skeleton
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
        _("low-time warning (seconds)"),
        default=LOW_TIME_DEFAULT,
        validators=[MaxValueValidator(59)],
    )

    class TapConfirm(models.TextChoices):
        AUTO = "auto", _("on a touch screen or a narrow window")
        ON = "on", _("always")
        OFF = "off", _("never")

    # Small targets (Kropki): a tap selects a point, a second tap on it plays (docs in settings).
    tap_confirm = models.CharField(
        _("tap to select, tap again to play"), max_length=4, choices=TapConfirm.choices, default=TapConfirm.AUTO
    )
    # Direct challenges only from players this one has finished a match with (docs/social.md).
    challenges_from_played_only = models.BooleanField(_("challenges only from players I have played"), default=False)
    # A bot account (docs/api.md "Bot accounts"): an engine plays it through the API. Set once, on an
    # account without games, and never cleared; marked "BOT" wherever its name is shown.
    is_bot = models.BooleanField(_("bot"), default=False)

    class FairPlayMark(models.TextChoices):
        # Staff's decision (games/fairplay, docs/fairplay.md): a marked account leaves the
        # leaderboards and standings and cannot play rated; its profile says so.
        NONE = "", _("none")
        ENGINE = "engine", _("engine use")
        BOOSTER = "booster", _("rating manipulation")

    fair_play_mark = models.CharField(
        _("fair-play mark"), max_length=16, choices=FairPlayMark.choices, blank=True, default=""
    )

    objects: ClassVar[UserManager] = UserManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.UniqueConstraint(fields=["username_skeleton"], name="accounts_user_username_skeleton_unique"),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_folded = username_fold(self.username)
        changed = {"username_folded"}
        skeleton = username_skeleton_key(self.username)
        # An older account whose name became a look-alike of another's under a later rule
        # (migrations 0003 and 0008 keep the oldest account's key) keeps its old key, or none,
        # rather than failing every save; new names are checked first (services.username_clean).
        if skeleton != self.username_skeleton and not (
            self.pk is not None and type(self).objects.filter(username_skeleton=skeleton).exclude(pk=self.pk).exists()
        ):
            self.username_skeleton = skeleton
            changed.add("username_skeleton")
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, *changed}
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.username

    @property
    def display_name(self) -> str:
        """The name as pages show it: "BOT name" for a bot account."""
        return f"BOT {self.username}" if self.is_bot else self.username


class ApiToken(models.Model):
    """A personal access token of the API (docs/api.md "Tokens"): shown once when made,
    only its SHA-256 kept. ``scopes`` is a space-separated subset of ``SCOPES``."""

    SCOPES = ("bot:play", "challenge:write", "board:read")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True, editable=False)  # sha256 hex of the secret
    prefix = models.CharField(max_length=12, editable=False)  # the secret's first characters, to tell tokens apart
    scopes = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering: ClassVar[list[str]] = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.name}"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()

    def has_scope(self, scope: str) -> bool:
        return scope in self.scope_list


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no challenge from them, no chat with them,
    and for BLOCK_QUEUE_HOURS no pairing in the ranked queue (docs/social.md)."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once")
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class PairFlag(models.Model):
    """Two accounts staff may want to look at (issue 24 item 9: rating farming): they
    logged in from one address and played a rated game. A hint, it changes nothing."""

    class Reason(models.TextChoices):
        SHARED_ADDRESS = "shared_address", _("rated games from a shared address")
        SHARED_BROWSER = "shared_browser", _("rated games from a shared browser")

    user_a = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")  # the lower id
    user_b = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=32, choices=Reason.choices)
    last_match_id = models.BigIntegerField(null=True, blank=True)  # games' Match (accounts imports nothing of games)
    games = models.PositiveIntegerField(default=0)
    first_at = models.DateTimeField(auto_now_add=True)
    last_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("flagged pair")
        verbose_name_plural = _("flagged pairs")
        ordering: ClassVar[list[str]] = ["-last_at"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user_a", "user_b", "reason"], name="pair_flag_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_a_id} & {self.user_b_id}: {self.reason}"

    @classmethod
    def note(cls, a_id: int, b_id: int, *, reason: str, match_id: int | None) -> None:
        """Count one more game of the pair under ``reason`` (the row made at the first)."""
        low, high = sorted((a_id, b_id))
        flag, _created = cls.objects.get_or_create(user_a_id=low, user_b_id=high, reason=reason)
        cls.objects.filter(pk=flag.pk).update(games=models.F("games") + 1, last_match_id=match_id)
