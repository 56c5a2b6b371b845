"""Following's refusal codes (kropki_site/lib/refusals.py): words and HTTP status. Registered
when imported, by feature.register()."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

register(
    "following",
    {
        "follow_no_player": (_("There is no such player."), 404),
        "follow_self": (_("You cannot follow yourself."), 400),
        "follow_account": (_("Following players needs an account."), 400),
        "follow_blocked": (_("You cannot follow this player."), 403),
        "follow_limit": (_("You follow as many players as one can. Stop following someone first."), 400),
    },
)
