"""Accounts' refusal codes (kropki_site/lib/refusals.py): a personal access token that cannot be
made (tokens.py; docs/api.md "Tokens"). Registered when imported: accounts/apps.py imports it at
start-up."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from kropki_site.lib.refusals import register

register(
    "tokens",
    {
        "token_name_required": (gettext_lazy("Give the token a name."), 400),
        "token_bad_scopes": (gettext_lazy("Choose at least one scope."), 400),
        "too_many_tokens": (gettext_lazy("You have as many tokens as an account may. Revoke one first."), 400),
    },
)

register(
    "email",
    {
        "email_verified": (gettext_lazy("Your e-mail address is already verified."), 400),
        "email_verify_too_often": (
            gettext_lazy("We have sent you several links in the last hour. Check your mailbox, or try again later."),
            429,
        ),
        "email_verify_bad_link": (
            gettext_lazy("This link does not work: it has expired, or the address has changed. Ask for a new one."),
            400,
        ),
    },
)

# A guest asking for a token is refused with the core's code, account_required, in these words
# (the code's own, in games/play/codes.py, speak of ranked play and challenges).
GUEST_HAS_NO_TOKENS = gettext_lazy("A guest has no tokens: create an account first.")
