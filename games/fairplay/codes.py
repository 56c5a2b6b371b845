"""Fair play's refusal codes (kropki_site/lib/refusals.py): code -> (words, the API's HTTP status)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib import refusals

refusals.register(
    "fairplay",
    {
        "fair_play_marked": (
            _("Your account is marked for a fair-play violation: it cannot play rated games."),
            403,
        ),
    },
)
