"""What the API streams say, read from the database (docs/api.md "Streams"): a match as
``gameFull`` / ``gameState`` lines and an account's opening events. Synchronous: the
streams call these in a database thread."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q

from games import catalogue
from games.display.snapshot import match_header, movers
from games.models import BLUE, PINK, Match
from games.play import core
from games.play.challenges import challenges_direct_pending_for
from games.selectors.match import stored_movers
from kropki_site.lib.refusals import Refusal

# The header fields (games/display/snapshot.match_header) a gameState line carries.
HEADER_FIELDS = ("status", "to_move", "deadline", "server_now", "scores", "winner", "end_reason", "draw_offer")


def state_line(
    match_id: int, ply: int, header: dict[str, Any], last: dict[str, Any] | None, clocks: dict[str, float]
) -> dict[str, Any]:
    """A ``gameState`` line: the ply, the move that made it (``last``), the header and the clocks;
    never the move list, so a line does not grow with the game (``gameFull``'s state has it)."""
    return {
        "type": "gameState",
        "id": match_id,
        "ply": ply,
        **{name: header.get(name) for name in HEADER_FIELDS},
        "clocks": dict(clocks),
        "last": last,
    }


def _seconds(time: timedelta) -> float:
    seconds = time.total_seconds()
    return int(seconds) if seconds.is_integer() else seconds


def clocks_of(match: Match) -> dict[str, float]:
    """Each side's time for a move in ``match``: the match's own clock (an arena's game may
    have another than the site's), halved for a player who went berserk."""
    return {str(side): _seconds(core.move_time(match, side)) for side in (PINK, BLUE)}


def header_of(match: Match) -> dict[str, Any]:
    """The fields of the match's header (what every socket frame carries) that a gameState says."""
    header = match_header(match)
    return {name: header[name] for name in HEADER_FIELDS}


def _player(match: Match, side: int) -> dict[str, Any]:
    user = match.pink if side == 1 else match.blue
    if user is None:
        return {"name": None, "id": None, "bot": False, "computer": match.bot_level}
    if user.is_deleted:  # docs/privacy.md: neither the name nor the id of a deleted account
        return {"name": "", "id": None, "bot": False, "computer": None}
    return {"name": user.username, "id": user.pk, "bot": user.is_bot, "computer": None}


def game_full(match_id: int, user_id: int) -> dict[str, Any]:
    """The ``gameFull`` line of ``match_id`` as ``user_id`` sees it (Refusal not_found)."""
    match = Match.objects.select_related("pink", "blue").filter(pk=match_id).first()
    if match is None:
        raise Refusal("not_found")
    variant = catalogue.variant(match.variant)
    game = match.game()
    history = [int(a) for a in match.history]
    end_action = getattr(game, "end_action", None)
    return {
        "type": "gameFull",
        "id": match.pk,
        "variant": match.variant,
        "game": variant.game_slug,
        "params": dict(match.params or variant.params),
        "end_action": end_action,
        "rated": match.rated,
        "players": {"1": _player(match, 1), "2": _player(match, 2)},
        "you": match.side_of(user_id),
        "move_seconds": _seconds(core.move_time(match)),
        "grace_seconds": settings.MOVE_GRACE_SECONDS,
        "created_at": match.created_at.isoformat(),
        "state": {
            **state_line(match.pk, match.ply, header_of(match), None, clocks_of(match)),
            "moves": history,
            "movers": movers(stored_movers(match), game, history),
        },
    }


def opening_events(user_id: int) -> list[dict[str, Any]]:
    """What an event stream says first: a ``gameStart`` per active match of the account (a bridge
    that reconnects picks its games up again) and a ``challenge`` per challenge waiting for it."""
    active = Match.objects.filter(Q(pink_id=user_id) | Q(blue_id=user_id), status=Match.Status.ACTIVE)
    events: list[dict[str, Any]] = [
        game_start(match, user_id) for match in active.select_related("pink", "blue").order_by("pk")
    ]
    events += [challenge_event(frame) for frame in challenges_direct_pending_for(user_id)]
    return events


def game_start(match: Match, user_id: int, challenge: int | None = None) -> dict[str, Any]:
    """A ``gameStart`` line: one shape whether the stream opens on the game or hears it begin
    (``challenge``: the accepted challenge's id, None for a game already in progress)."""
    you = match.side_of(user_id)
    opponent = _player(match, 2 if you == 1 else 1)
    return {
        "type": "gameStart",
        "game": {
            "id": match.pk,
            "variant": match.variant,
            "challenge": challenge,
            "you": you,
            "colour": "pink" if you == PINK else "blue" if you == BLUE else None,
            "opponent": opponent["name"],
            "opponent_bot": opponent["bot"],
            "rated": match.rated,
        },
    }


def game_start_of(match_id: int, user_id: int, challenge: int | None) -> dict[str, Any] | None:
    """The ``gameStart`` line of a match that just began (None: no such match any more)."""
    match = Match.objects.select_related("pink", "blue").filter(pk=match_id).first()
    return game_start(match, user_id, challenge) if match is not None else None


def challenge_event(frame: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "from", "variant", "rated", "colour", "seconds")
    return {"type": "challenge", "challenge": {key: frame.get(key) for key in keys}}


def event_line(frame: dict[str, Any]) -> dict[str, Any] | None:
    """A site-socket or API frame of the account as an event line, or None (not an event)."""
    kind = frame.get("type")
    if kind == "challenge_received":
        return challenge_event(frame)
    if kind == "challenge_accepted":
        return {"type": "gameStart", "game": {"id": frame.get("match_id"), "challenge": frame.get("id")}}
    named = {
        "challenge_declined": "challengeDeclined",
        "challenge_cancelled": "challengeCanceled",
        "challenge_expired": "challengeExpired",
    }
    if kind in named:
        return {"type": named[kind], "challenge": {"id": frame.get("id")}}
    if kind == "match_finished":
        return {"type": "gameFinish", "game": {"id": frame.get("id")}}
    return None
