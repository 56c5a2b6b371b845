"""What a site socket (``ws/site/``) may ask of the site: each command one
service call, each read one selector. ``games/routing.py`` hands a ``SiteDesk``
to the consumer (``games/live/site_consumer.py``), which is transport only.

Every method is synchronous and runs in the consumer's database thread.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, ClassVar

import redis
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from accounts.services import session_still_valid, user_mark_seen
from games import selectors
from games.live import transport
from games.notifications import selectors as notification_reads
from games.play import challenges
from games.review.selectors import progress_frame_of
from games.tournaments.selectors import current_games_frames, my_game_frame, tournament_frame_for
from games.tournaments.services import tournament_berserk
from games.tournaments.swiss import selectors as swiss_selectors
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

# A command returns the id of a direct challenge it created (the consumer times its expiry), else None.
Command = Callable[[int, dict[str, Any]], "int | None"]


def _bool(content: dict[str, Any], key: str, default: bool | None = None) -> bool:
    value = content.get(key, default)
    if not isinstance(value, bool):
        raise Refusal("bad_frame")
    return value


def _id(content: dict[str, Any], key: str) -> int:
    """Field ``key``, an integer id (not a boolean: JSON's true is no match 1), else ``bad_frame``."""
    value = content.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refusal("bad_frame")
    return value


def _text(content: dict[str, Any], key: str, default: str | None = None) -> str | None:
    """Field ``key``, a string when present, else ``bad_frame`` (a missing one is the service's to refuse)."""
    value = content.get(key, default)
    if value is not None and not isinstance(value, str):
        raise Refusal("bad_frame")
    return value


def _challenge(user_id: int, content: dict[str, Any]) -> int:
    challenge = challenges.challenge_direct_create(
        user_id=user_id,
        target_name=_text(content, "to"),
        variant=_text(content, "variant"),
        rated=_bool(content, "rated", False),
        colour=_text(content, "colour", "random"),
        options=_options(content),
        days=_days(content),
    )
    return challenge.pk


def _days(content: dict[str, Any]) -> int | None:
    """Field ``days``: a correspondence game's days a move (an integer), absent or null for live."""
    value = content.get("days")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise Refusal("bad_frame")
    return value


def _options(content: dict[str, Any]) -> dict[str, str] | None:
    """Field ``options``: a game's own settings as {"<game>-<option>": value}, else ``bad_frame``."""
    value = content.get("options")
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) > 20 or not all(isinstance(v, str) for v in value.values()):
        raise Refusal("bad_frame")
    return value


def _answer(user_id: int, content: dict[str, Any]) -> None:
    challenges.challenge_direct_answer(
        challenge_id=_id(content, "id"), user_id=user_id, accept=_bool(content, "accept")
    )


def _cancel(user_id: int, content: dict[str, Any]) -> None:
    challenges.challenge_direct_cancel(challenge_id=_id(content, "id"), user_id=user_id)


def _berserk(user_id: int, content: dict[str, Any]) -> None:
    match_id = _id(content, "match")
    user = User.objects.filter(pk=user_id).first()
    tournament_berserk(match_id=match_id, user=user)


def _push_if_changed(name: str, frame: dict[str, Any], send: Callable[[dict[str, Any]], None]) -> None:
    """``send(frame)`` unless the last frame pushed under ``name`` (any daphne) was the same."""
    digest = hashlib.sha256(json.dumps(frame, sort_keys=True, default=str).encode()).hexdigest()
    try:
        last = limits.client().set(limits.key(name), digest, ex=3600, get=True)
    except redis.RedisError:
        last = None  # unknown: push
    if not isinstance(last, bytes) or last.decode() != digest:
        send(frame)


class SiteDesk:
    """The site socket's commands and reads (docs/protocol.md "Site socket")."""

    COMMANDS: ClassVar[dict[str, Command]] = {
        "challenge": _challenge,
        "challenge_answer": _answer,
        "challenge_cancel": _cancel,
        "tournament_berserk": _berserk,
    }

    def credentials_valid(self, user_id: int, session_key: str | None, auth_hash: str | None) -> bool:
        return session_still_valid(user_id=user_id, session_key=session_key, auth_hash=auth_hash)

    def knows(self, kind: str) -> bool:
        return kind in self.COMMANDS

    def command(self, kind: str, user_id: int, content: dict[str, Any]) -> int | None:
        """Run command ``kind``. Raises Refusal for a refusal."""
        return self.COMMANDS[kind](user_id, content)

    def may_connect(self, user_id: int) -> bool:
        """Accounts only: not a guest, not deactivated."""
        return User.objects.filter(pk=user_id, is_guest=False, is_active=True).exists()

    def welcome(self, user_id: int) -> list[dict[str, Any]]:
        """The frames a new site socket gets: the challenges still waiting, both ways, and a
        ``tournament_paired`` (``current``) for each arena game of theirs being played, and a
        ``swiss_paired`` (``current``) for each Swiss game (issue 38), and the header's count of
        unread notifications when there are any."""
        return (
            challenges.challenges_direct_pending_for(user_id)
            + challenges.challenges_direct_sent_by(user_id)
            + current_games_frames(user_id)
            + swiss_selectors.current_games_frames(user_id)
            + notification_reads.welcome_frames(user_id)
        )

    def tournament_me(self, user_id: int, tournament_id: int) -> dict[str, Any] | None:
        """The ``tournament_me`` frame: the player's own line in the arena (their game now), or None."""
        return my_game_frame(user_id, tournament_id)

    def online(self) -> dict[str, Any]:
        """The ``online`` frame (who is online now)."""
        return selectors.online_frame()

    def home(self) -> dict[str, Any]:
        """The ``home`` frame (the home page's "Right now")."""
        return selectors.home_frame()

    def tournament(self, user_id: int | None, content: dict[str, Any]) -> dict[str, Any] | None:
        """The ``tournament`` frame of the arena ``content["id"]``, or None: no such arena, or a
        private one without its ``key`` (its token) for someone neither in it nor its maker.
        Refusal ``bad_frame``: ``id`` not an integer, ``key`` not a string."""
        return tournament_frame_for(user_id, _id(content, "id"), _text(content, "key"))

    def swiss(self, user_id: int | None, content: dict[str, Any]) -> dict[str, Any] | None:
        """The ``swiss`` frame of the Swiss tournament ``content["id"]``, or None (the arenas'
        rule: no such tournament, or an unlisted one without its ``key`` for someone neither in
        it nor its maker). Refusal ``bad_frame``: ``id`` not an integer, ``key`` not a string."""
        return swiss_selectors.swiss_frame_for(user_id, _id(content, "id"), _text(content, "key"))

    def analysis(self, content: dict[str, Any]) -> dict[str, Any] | None:
        """The ``analysis`` frame of the review of match ``content["match"]`` now, or None (none
        asked, no such match). Refusal ``bad_frame``: ``match`` not an integer."""
        return progress_frame_of(_id(content, "match"))

    def announce_online(self) -> None:
        """Push the online list to every lobby page, when it changed since the last push (over
        every daphne): an invisible player's tab coming and going changes nothing, so it
        pushes nothing either, and a push never tells who arrived unseen (issue 24, item 14).
        The home page's "Right now" likewise (issue 38): a page opened or a player gone is when a
        match has begun or ended, so it is looked at then too."""
        _push_if_changed("online-pushed", selectors.online_frame(), transport.send_online)
        _push_if_changed("home-pushed", selectors.home_frame(), transport.send_home)

    def expire(self, challenge_id: int) -> bool:
        return challenges.challenge_direct_expire(challenge_id=challenge_id)

    def expiry_seconds(self) -> float:
        return float(settings.DIRECT_CHALLENGE_SECONDS)

    def went_offline(self, user_id: int) -> None:
        """The user's last site socket closed: remember when."""
        user_mark_seen(user_id=user_id, at=timezone.now())
