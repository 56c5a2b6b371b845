"""The transport's refusal codes (kropki_site/lib/refusals.py): frames a socket cannot read.
Registered when imported: games/apps.py imports it at start-up."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

# a frame the socket cannot read (socket.py, the consumers; the API reads its bodies with them)
register(
    "frames",
    {
        "bad_json": (_("The message is not valid JSON."), 400),
        "bad_frame": (_("The message has the wrong shape."), 400),
        "unknown_type": (_("Unknown message type."), 400),
        "frame_too_large": (_("The message is too long."), 400),
        "rate_limited": (_("Too many messages at once. Slow down a little."), 429),
    },
)
