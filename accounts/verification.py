"""Verifying an account's e-mail address (issue 40): no mail but the password reset goes to an
address its owner has not confirmed. The link carries a signed token of the account and the
address (``django.core.signing``: no table); it lasts ``EMAIL_VERIFY_DAYS`` and stops working if
the address changes. A player asks for at most ``EMAIL_VERIFY_PER_HOUR`` links an hour."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

from .models import User

_SALT = "kropki.email-verify"


def email_verify_token(user: User) -> str:
    return signing.dumps({"u": user.pk, "e": user.email.lower()}, salt=_SALT)


def email_verify_send(*, user: User, site_url: str) -> None:
    """Send ``user`` the link that confirms their address (in their language). Refusal:
    ``email_verified`` (nothing to do), ``email_verify_too_often``."""
    if user.email_verified:
        raise Refusal("email_verified")
    if not limits.hit("email-verify", str(user.pk), limit=settings.EMAIL_VERIFY_PER_HOUR, window=3600):
        raise Refusal("email_verify_too_often")
    link = site_url.rstrip("/") + reverse("email_verify", args=[email_verify_token(user)])
    with translation.override(user.language):
        subject = render_to_string("accounts/email_verify_subject.txt").strip()
        body = render_to_string(
            "accounts/email_verify.txt", {"user": user, "link": link, "days": settings.EMAIL_VERIFY_DAYS}
        )
    send_mail(subject, body, None, [user.email])


def email_verify(token: str) -> User:
    """Mark the address of the token's account verified. Refusal ``email_verify_bad_link`` for a
    token that is forged, expired, or for an address the account no longer has."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=settings.EMAIL_VERIFY_DAYS * 86400)
    except signing.BadSignature:
        raise Refusal("email_verify_bad_link") from None
    user = User.objects.filter(pk=data.get("u"), is_active=True, is_deleted=False).first()
    if user is None or user.email.lower() != data.get("e"):
        raise Refusal("email_verify_bad_link")
    if not user.email_verified:
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return user
