"""The kinds of notification, what each says, and where it may go. Pure data and words: the
rows' display (the list, the site socket's frame, the e-mail) reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import catalogue


@dataclass(frozen=True)
class Kind:
    label: Any  # lazy gettext: the settings page's line
    site: bool  # in the header's list by default
    mail: bool | None  # by e-mail by default; None: never by e-mail
    per_match: bool = False  # e-mails of it are spaced per game (data["match"]), not per player


# Issue 40: e-mail for what a player must not miss; the list for everything.
KINDS: dict[str, Kind] = {
    "corr_turn": Kind(_("It is my turn in a correspondence game"), site=True, mail=True, per_match=True),
    "corr_reminder": Kind(_("Little time is left for my move in a correspondence game"), site=True, mail=True),
    "challenge": Kind(_("A player challenges me"), site=True, mail=True),
    "tournament_soon": Kind(_("A tournament I joined is about to start"), site=True, mail=True),
    "review_done": Kind(_("The computer's review of my game is ready"), site=True, mail=None),
    "follower": Kind(_("A player follows me"), site=True, mail=None),
    "followed_playing": Kind(_("A player I follow starts a live game"), site=False, mail=None),
}


def wants(kind: str, channel: str, prefs: dict[str, Any] | None) -> bool:
    """Whether a player with ``prefs`` (NotificationPrefs' ``site``, ``mail`` or ``push`` dict, or
    None) hears ``kind`` on ``channel`` ("site", "mail" or "push": Web Push is offered, and on by
    default, where e-mail is)."""
    default = getattr(KINDS[kind], "mail" if channel == "push" else channel)
    if default is None:
        return False
    value = (prefs or {}).get(kind)
    return default if value is None else bool(value)


def words(kind: str, data: dict[str, Any]) -> tuple[str, str]:
    """(sentence, path) of a notification, in the active language."""
    name = str(data.get("name", ""))
    variant = str(data.get("variant", ""))
    game = catalogue.variant_name(variant) if variant in catalogue.variant_keys() else variant
    if kind == "corr_turn":
        text = gettext("Your move in %(game)s against %(name)s.") % {"game": game, "name": name}
        return text, reverse("match", args=[data.get("match", 0)])
    if kind == "corr_reminder":
        text = gettext("Little time is left for your move in %(game)s.") % {"game": game}
        return text, reverse("match", args=[data.get("match", 0)])
    if kind == "challenge":
        text = gettext("%(name)s challenged you to a game of %(game)s.") % {"name": name, "game": game}
        return text, reverse("profile", args=[name]) if name else "/"
    if kind == "tournament_soon":
        text = gettext("The tournament %(name)s starts in a few minutes.") % {"name": name}
        return text, str(data.get("url", "/"))
    if kind == "review_done":
        return gettext("The computer's review of your game is ready."), reverse("record", args=[data.get("match", 0)])
    if kind == "follower":
        return gettext("%(name)s follows you.") % {"name": name}, reverse("profile", args=[name]) if name else "/"
    if kind == "followed_playing":
        text = gettext("%(name)s started a game of %(game)s: watch it.") % {"name": name, "game": game}
        return text, reverse("match", args=[data.get("match", 0)])
    return kind, "/"
