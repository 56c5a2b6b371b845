"""The chat panel of the match page and reports (docs/social.md "Chat").

The chat itself travels on the match socket (docs/protocol.md "Chat"); this
module only words the panel for the page and takes reports, which are stored
for staff by ``games.play.chat.report_create`` (Django admin).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import Match
from games.play import chat
from kropki_site.lib.refusals import Refusal


def quick_phrases() -> list[str]:
    """The phrases a player sends with one button, in the page's language."""
    return [_("Good luck!"), _("Good game!"), _("Thank you!"), _("Rematch?")]


def chat_panel(request: HttpRequest, match: Match, you: int | None) -> dict[str, Any]:
    """What templates/games/_chat.html and static/js/chat.js need: the room this
    visitor reads (players: the players', anyone else: the spectators'), whether
    they may write, and the words."""
    user = request.user
    user_id = user.pk if user.is_authenticated else None
    room = chat.chat_room_of(match, user_id)
    refusal = ""
    if user_id is None:
        refusal = str(chat.LOGIN_REQUIRED)
    elif getattr(user, "is_guest", False):
        refusal = str(chat.GUEST)
    elif not match.is_active and not chat.chat_open_after_end(match.finished_at):
        refusal = str(chat.CLOSED)
    players = [
        (p.pk, p.username) for p in (match.pink, match.blue) if p is not None and p.pk != user_id and not p.is_deleted
    ]  # nobody to report in a deleted account
    return {
        # No chat in a game against the computer (games/play/chat.py): nobody writes there.
        "show": match.bot_side is None,
        "room": room,
        "can_write": not refusal,
        "refusal": refusal,
        "phrases": quick_phrases() if room == chat.PLAYERS else [],
        "report_players": [{"id": pk, "name": name} for pk, name in players] if user_id is not None else [],
        "config": {
            "match": match.pk,
            "room": room,
            "me": user_id,
            "canReport": user_id is not None,
            # names by id, for the report dialog (never in an attribute of the markup)
            "names": {str(pk): name for pk, name in players},
            "max": chat.MAX_CHARS,
            "strings": {
                "report": _("Report"),
                "reportMessage": _("Report this message from %(name)s"),
                "reportWhat": _("You are reporting this message from %(name)s: “%(text)s”"),
                "reportPlayer": _("You are reporting the player %(name)s."),
                "sending": _("Sending…"),
                "failed": _("The report could not be sent. Try again."),
                "newLine": _("%(name)s: %(text)s"),
                "counter": _("%(n)s of %(max)s characters"),
                "offline": _("Not connected: the message was not sent."),
            },
        },
        "report_url": reverse("chat_report", args=[match.pk]),
        "counter": _("%(n)s of %(max)s characters") % {"n": 0, "max": chat.MAX_CHARS},
    }


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


@require_POST
def chat_report(request: HttpRequest, match_id: int) -> JsonResponse:
    """Report one chat line (``message``: its id) or a player of the match
    (``player``: the user id), with an optional ``reason``. Answers JSON
    ``{"ok", "message"}`` in the visitor's language."""
    if not request.user.is_authenticated:
        return JsonResponse({"ok": False, "code": "login_required", "message": _("Log in to report.")}, status=403)
    message_id = _int_or_none(request.POST.get("message"))
    player_id = _int_or_none(request.POST.get("player"))
    if message_id is None and player_id is None:
        return JsonResponse({"ok": False, "code": "bad_request", "message": _("Choose what to report.")}, status=400)
    try:
        chat.report_create(
            reporter_id=request.user.pk,
            match_id=match_id,
            message_id=message_id,
            reported_id=None if message_id is not None else player_id,
            reason=request.POST.get("reason", "")[:2000],
        )
    except Refusal as exc:
        return JsonResponse({"ok": False, "code": exc.code, "message": exc.message}, status=exc.status)
    return JsonResponse({"ok": True, "message": _("Thank you. The report was sent to the moderators.")})
