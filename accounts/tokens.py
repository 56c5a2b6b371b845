"""Personal access tokens of the API (docs/api.md "Tokens"): made, read back by their
secret, listed and revoked. The only code that writes ApiToken rows.

A token is ``kro_`` and 43 URL-safe characters (256 random bits). The secret is
shown once, when it is made; the database keeps its SHA-256 (a secret this long
needs no slow hash: nobody can guess it, and a stolen table gives no secret).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import Refusal

from .codes import GUEST_HAS_NO_TOKENS
from .models import ApiToken, User
from .signals import tokens_revoked

# Each scope's name and what it allows, for people (the settings page; docs/api.md "Tokens").
SCOPE_WORDS = {
    "bot:play": (
        _("Play as a bot"),
        _("Everything a bot's engine does: hear events, send and answer challenges, play moves, resign."),
    ),
    "challenge:write": (
        _("Challenges"),
        _("Send, accept, decline and cancel challenges, and hear events about them."),
    ),
    "board:read": (
        _("Watch games"),
        _("Follow any game move by move, as a spectator sees it."),
    ),
}


def scope_choices() -> list[dict[str, object]]:
    """The scopes as the settings page offers them: the code, its name and description."""
    return [{"code": code, "name": SCOPE_WORDS[code][0], "help": SCOPE_WORDS[code][1]} for code in ApiToken.SCOPES]


def scope_names(scopes: str) -> str:
    """A token's scopes (space-separated codes) by their names: "Play as a bot, Watch games"."""
    return ", ".join(str(SCOPE_WORDS[code][0]) if code in SCOPE_WORDS else code for code in scopes.split())


PREFIX = "kro_"
# last_used_at is written at most this often per token (not on every request).
LAST_USED_EVERY = timedelta(minutes=1)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_create(*, user: User, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token of ``user`` named ``name`` with ``scopes``; returns the row and the secret
    (the only time the secret exists outside its owner's hands). Guests have none. Refusal:
    account_required, token_name_required, token_bad_scopes, too_many_tokens (codes.py)."""
    name = " ".join(name.split())[:60]
    wanted = [scope for scope in ApiToken.SCOPES if scope in scopes]
    if user.is_guest:
        raise Refusal("account_required", GUEST_HAS_NO_TOKENS)
    if not name:
        raise Refusal("token_name_required")
    if not wanted or len(wanted) != len(set(scopes)):
        raise Refusal("token_bad_scopes")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()  # orders the count below
        if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= settings.API_TOKENS_PER_USER:
            raise Refusal("too_many_tokens")
        secret = PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user, name=name, digest=digest(secret), prefix=secret[: len(PREFIX) + 4], scopes=" ".join(wanted)
        )
    return token, secret


def token_lookup(secret: str) -> ApiToken | None:
    """The live token whose secret is ``secret`` (its user with it), or None: unknown, revoked,
    or its account inactive or deleted. Notes the use (at most once a minute)."""
    if not secret.startswith(PREFIX) or len(secret) > 100:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest(secret)).first()
    if token is None or token.revoked_at is not None:
        return None
    if not token.user.is_active or token.user.is_deleted:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def token_is_live(token_id: int) -> bool:
    """Whether token ``token_id`` still works: not revoked, its account active and not deleted."""
    return ApiToken.objects.filter(
        pk=token_id, revoked_at__isnull=True, user__is_active=True, user__is_deleted=False
    ).exists()


def token_revoke(*, user: User, token_id: int) -> bool:
    """Revoke ``user``'s token ``token_id`` (someone else's is not found). True if it was live;
    its open streams end after commit (``tokens_revoked``)."""
    revoked = bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())
    )
    if revoked:
        tokens_revoked.send(sender=ApiToken, user_id=user.pk, token_id=token_id)
    return revoked


def tokens_of(user: User) -> list[ApiToken]:
    """``user``'s live tokens, newest first (the settings page)."""
    return list(ApiToken.objects.filter(user=user, revoked_at__isnull=True))


def tokens_revoke_all(*, user_id: int) -> int:
    """Every live token of the account (it was deleted). How many. The account's open streams
    end after commit, whatever their token (``tokens_revoked`` with token_id None)."""
    count = ApiToken.objects.filter(user_id=user_id, revoked_at__isnull=True).update(revoked_at=timezone.now())
    tokens_revoked.send(sender=ApiToken, user_id=user_id, token_id=None)
    return count
