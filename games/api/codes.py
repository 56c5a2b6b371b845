"""The API's own refusal codes (kropki_site/lib/refusals.py): a token, a stream, an address;
the services' codes come with their own status from their tables. Registered when imported:
games/apps.py imports it at start-up."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

# the API's own (auth.py, views.py, streams.py; docs/api.md)
register(
    "api",
    {
        "not_a_bot": (_("Only a bot account can do this: turn the account into a bot first (Settings)."), 403),
        "token_missing": (_("This needs a personal access token: Authorization: Bearer <token>."), 401),
        "token_invalid": (_("The token is wrong, revoked, or its account is closed."), 401),
        "token_scope": (_("The token has no scope for this."), 403),
        "too_many_streams": (_("Too many streams are open for this account. Close one first."), 429),
        "too_many_streams_address": (_("Too many API streams are open from this address. Close one first."), 429),
        "method_not_allowed": (_("This address does not take this method."), 405),
        "unknown_endpoint": (_("There is no such API address."), 404),
    },
)
