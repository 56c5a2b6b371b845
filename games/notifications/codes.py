"""Notifications' refusal codes (kropki_site/lib/refusals.py). Registered when imported, by
feature.register()."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

register(
    "notifications",
    {
        "unsubscribe_bad_link": (_("This link does not work. Change your e-mails in your notification settings."), 400),
        "push_bad_subscription": (_("This browser's notifications could not be turned on."), 400),
        "push_too_many": (
            _("Notifications are on in as many browsers as an account may have. Turn one off first."),
            400,
        ),
    },
)
