"""The Swiss tournaments' refusal codes (kropki_site/lib/refusals.py). Registered when imported,
by the arenas' feature.register()."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

register(
    "swiss",
    {
        "swiss_closed": (_("Joining is closed: a Swiss tournament takes new players until its second round."), 400),
        "swiss_full": (_("This tournament is full."), 400),
    },
)
