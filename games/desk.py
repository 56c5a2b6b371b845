"""What a match socket may ask of the site: each command one service call,
each read one query. ``games/routing.py`` hands a ``MatchDesk`` to the
consumer (``games/live/match_consumer.py``), which is transport only and
imports neither the services nor the displays.

Every method is synchronous and runs in the consumer's database thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.utils import translation

from accounts.models import User
from accounts.services import session_still_valid
from games import hooks, play
from games.display.chat import chat_history_frame
from games.display.frames import state_frame
from games.display.snapshot import VERSION_FIELDS, match_version
from games.models import Match
from games.play import chat
from games.selectors import match as match_reads
from games.tournaments import services as tournaments
from kropki_site.lib.refusals import Refusal


def _int(content: dict[str, Any], key: str) -> int:
    value = content.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refusal("bad_frame")
    return value


def _bool(content: dict[str, Any], key: str) -> bool:
    value = content.get(key)
    if not isinstance(value, bool):
        raise Refusal("bad_frame")
    return value


def _side_for(snapshot: dict[str, Any], user_id: int | None) -> int | None:
    if user_id is None:
        return None
    for side, player in snapshot["players"].items():
        if player["user_id"] == user_id:
            return int(side)
    return None


Command = Callable[[int, int, dict[str, Any]], "str | None"]


def _move(match_id: int, user_id: int, content: dict[str, Any]) -> str | None:
    result = play.match_play(
        match_id=match_id, user_id=user_id, ply=_int(content, "ply"), action=_int(content, "action")
    )
    return "duplicate" if result.duplicate else None


def _end(match_id: int, user_id: int, content: dict[str, Any]) -> str | None:
    result = play.match_end(match_id=match_id, user_id=user_id, ply=_int(content, "ply"))
    return "duplicate" if result.duplicate else None


def _resign(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    play.match_resign(match_id=match_id, user_id=user_id)


def _draw_offer(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    play.match_draw(match_id=match_id, user_id=user_id)  # accepts the opponent's offer if one stands


def _draw_answer(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    play.match_answer_draw(match_id=match_id, user_id=user_id, accept=_bool(content, "accept"))


def _takeback(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    play.match_takeback(match_id=match_id, user_id=user_id)  # against the computer: undone at once


def _takeback_answer(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    play.match_answer_takeback(match_id=match_id, user_id=user_id, accept=_bool(content, "accept"))


def _rematch_offer(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    play.match_offer_rematch(match_id=match_id, user_id=user_id)


def _rematch_decline(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    play.match_decline_rematch(match_id=match_id, user_id=user_id)


def _berserk(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    # An arena game's berserk (docs/tournaments.md): both players' sockets hear the clock.
    tournaments.tournament_berserk(match_id=match_id, user=User.objects.filter(pk=user_id).first())


def _claim_timeout(match_id: int, user_id: int, content: dict[str, Any]) -> None:
    if not play.match_expire_turn(match_id=match_id):
        raise Refusal("turn_not_expired")


class MatchDesk:
    """The match socket's commands and reads (docs/protocol.md)."""

    COMMANDS: ClassVar[dict[str, Command]] = {
        "move": _move,
        "end": _end,
        "resign": _resign,
        "draw_offer": _draw_offer,
        "draw_answer": _draw_answer,
        "takeback": _takeback,
        "takeback_answer": _takeback_answer,
        "rematch_offer": _rematch_offer,
        "rematch_decline": _rematch_decline,
        "claim_timeout": _claim_timeout,
        "berserk": _berserk,
    }

    def credentials_valid(self, user_id: int, session_key: str | None, auth_hash: str | None) -> bool:
        return session_still_valid(user_id=user_id, session_key=session_key, auth_hash=auth_hash)

    def knows(self, kind: str) -> bool:
        return kind in self.COMMANDS

    def command(self, kind: str, match_id: int, user_id: int, content: dict[str, Any]) -> str | None:
        """Run command ``kind``; "duplicate" when it resent a move already made.
        Raises Refusal for a refusal."""
        return self.COMMANDS[kind](match_id, user_id, content)

    def chat(self, match_id: int, user_id: int | None, content: dict[str, Any]) -> None:
        """A ``chat`` frame: write its line (``chat.chat_send``; the line reaches the
        room's sockets after commit). Raises Refusal for a refusal."""
        room, text = content.get("room"), content.get("text")
        if not isinstance(room, str) or not isinstance(text, str):
            raise Refusal("bad_frame")
        chat.chat_send(match_id=match_id, user_id=user_id, room=room, text=text)

    def chat_history(self, match_id: int, room: str) -> dict[str, Any] | None:
        """The ``chat_history`` frame of ``room``, or None while the room is empty."""
        lines = chat.chat_lines(match_id=match_id, room=room)
        return chat_history_frame(room, lines) if lines else None

    def exists(self, match_id: int) -> bool:
        return Match.objects.filter(pk=match_id).exists()

    def is_spectator(self, match_id: int, user_id: int | None) -> bool:
        match = Match.objects.filter(pk=match_id).only("pink_id", "blue_id").first()
        return match is None or match.side_of(user_id) is None

    def player_opened(self, match_id: int, user_id: int) -> None:
        """A player opened their match's socket: the features hear it (``hooks.player_opened``)."""
        hooks.run_player_opened(match_id, user_id)

    def version(self, match_id: int) -> str | None:
        match = Match.objects.filter(pk=match_id).only(*VERSION_FIELDS).first()
        return match_version(match) if match is not None else None

    def state(self, match_id: int, user_id: int | None, language: str) -> dict[str, Any] | None:
        """The ``state`` frame in ``language``, with ``you`` (the side of ``user_id``, or null)."""
        match = match_reads.committed_match(match_id)
        if match is None:
            return None
        with translation.override(language):
            frame = state_frame(match, match_reads.snapshot_rows(match))
        if frame is not None:
            frame["you"] = _side_for(frame["snapshot"], user_id)
        return frame
