"""``{% site_config user as config %}``: what static/js/site.js needs (the site socket's path,
the user's notification switches, the words it shows), given to the page as JSON
(``|json_script``: the CSP allows no inline script)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games import catalogue

register = template.Library()


@register.simple_tag
def site_config(user: Any) -> dict[str, Any]:
    if not user.is_authenticated or getattr(user, "is_guest", False):
        # A watcher's socket (issue 38): it follows the lobby's list or an arena's standings only.
        return {
            "ws_path": "/ws/site/",
            "watcher": True,
            "me": "",
            "profile_prefix": reverse("profile", args=["_"])[:-2],
            "variants": {key: str(catalogue.variant_name(key)) for key in catalogue.variant_keys()},
            "t": {
                "offline": _("No connection to the server. Try again in a moment."),
                "close": _("Close"),
                "no_live": _("No live matches at the moment. Start one!"),
            },
        }
    return {
        "ws_path": "/ws/site/",
        "me": user.username,
        "sound": bool(user.notify_sound),
        "title_flash": bool(user.notify_title),
        "profile_prefix": reverse("profile", args=["_"])[:-2],
        "seconds": settings.DIRECT_CHALLENGE_SECONDS,
        "variants": {key: str(catalogue.variant_name(key)) for key in catalogue.variant_keys()},
        "t": {
            "incoming": _("%(name)s challenges you"),
            "waiting": _("Waiting for %(name)s to answer…"),
            "seconds_left": _("%(n)s s left"),
            "rated": _("rated"),
            "casual": _("casual"),
            "you_pink": _("you play pink"),
            "you_blue": _("you play blue"),
            "colour_random": _("colours drawn at random"),
            # a correspondence challenge's pace (days: 1, 2, 3, 5, 7, 14)
            "corr_day": _("correspondence, 1 day a move"),
            "corr_days": _("correspondence, %(n)s days a move"),
            "accept": _("Accept"),
            "decline": _("Decline"),
            "cancel": _("Withdraw"),
            "close": _("Close"),
            "declined": _("Your challenge was declined."),
            "cancelled": _("The challenge was withdrawn."),
            "expired": _("The challenge expired without an answer."),
            "accepted": _("The challenge was accepted: the match begins."),
            "open_match": _("Open the match"),
            "title_flash": _("Challenge!"),
            "offline": _("No connection to the server. Try again in a moment."),
            "in_match": _("in a match"),
            "challenge": _("Send a challenge"),
            "challenge_name": _("Challenge %(name)s"),
            "nobody": _("Nobody else is online right now."),
            "you": _("(you)"),
            "tournament_paired": _("Your next game in the tournament %(name)s is starting."),
            "no_live": _("No live matches at the moment. Start one!"),
        },
    }
