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
        # staff's decisions (services.py): refused with these in the moderation page
        "fair_play_reason_required": (_("Give a reason: every fair-play decision is logged with one."), 400),
        "fair_play_bad_mark": (_("There is no such fair-play mark."), 400),
        "fair_play_not_marked": (_("This account has no fair-play mark to lift."), 400),
        "fair_play_flag_closed": (_("This flag was already decided."), 400),
    },
)
