"""The API's calls (docs/api.md): each authenticates its token, then makes one call to the
services of ``games/play`` that the WebSocket makes, and answers JSON. A refusal is the
service's own code with the HTTP status of its table (kropki_site/lib/refusals.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import DatabaseError
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

from games.models import Match
from games.play import botaccounts, challenges, moves, offers
from kropki_site.lib.refusals import Refusal

from .auth import authenticate, body, error, require_bot

View = Callable[..., HttpResponseBase]


def api_call(method: str) -> Callable[[Callable[..., dict[str, Any]]], View]:
    """A JSON call taking ``method``: the function returns the answer's body (200), or raises
    Refusal (the error answer). CSRF does not apply: a token is not a cookie a browser sends."""

    def wrap(function: Callable[..., dict[str, Any]]) -> View:
        @csrf_exempt
        @wraps(function)
        def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            try:
                if request.method != method:
                    raise Refusal("method_not_allowed")
                return JsonResponse(function(request, *args, **kwargs))
            except Refusal as exc:
                return error(exc)
            except DatabaseError:
                return error(Refusal("server_unavailable"))

        return view

    return wrap


def _played(token_user_id: int, match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).only("pk", "ply", "variant", "pink_id", "blue_id").first()
    if match is None:
        raise Refusal("not_found")
    if match.side_of(token_user_id) is None:
        raise Refusal("not_a_player")
    return match


def _ply(request: HttpRequest, user_id: int, match_id: int) -> int:
    """The position a move answers: ``?ply=``, else the current one (one more read)."""
    raw = request.GET.get("ply")
    if raw is None:
        return _played(user_id, match_id).ply
    if raw.isascii() and raw.isdigit() and len(raw) < 10:
        return int(raw)
    raise Refusal("bad_frame")


def _move(request: HttpRequest, match_id: int, action: object) -> dict[str, Any]:
    token = authenticate(request, "bot:play")
    require_bot(token)
    if isinstance(action, bool) or not isinstance(action, int):
        raise Refusal("bad_frame")
    ply = _ply(request, token.user_id, match_id)
    result = moves.match_play(match_id=match_id, user_id=token.user_id, ply=ply, action=action)
    return {"ok": True, "ply": result.match.ply, "duplicate": result.duplicate}


@api_call("POST")
def move(request: HttpRequest, match_id: int, action: str) -> dict[str, Any]:
    """POST /api/bot/game/<id>/move/<action>: the action id (docs/api.md "Actions")."""
    number: object = int(action) if action.isascii() and action.isdigit() and len(action) < 10 else action
    return _move(request, match_id, number)


@api_call("POST")
def end(request: HttpRequest, match_id: int) -> dict[str, Any]:
    """POST /api/bot/game/<id>/end: Kropki's "zakończ" (the game's end action); elsewhere unknown_action."""
    token = authenticate(request, "bot:play")
    require_bot(token)
    ply = _ply(request, token.user_id, match_id)
    result = moves.match_end(match_id=match_id, user_id=token.user_id, ply=ply)
    return {"ok": True, "ply": result.match.ply, "duplicate": result.duplicate}


@api_call("POST")
def resign(request: HttpRequest, match_id: int) -> dict[str, Any]:
    token = authenticate(request, "bot:play")
    require_bot(token)
    offers.match_resign(match_id=match_id, user_id=token.user_id)
    return {"ok": True}


@api_call("POST")
def draw(request: HttpRequest, match_id: int, answer: str) -> dict[str, Any]:
    """POST /api/bot/game/<id>/draw/yes: accept the opponent's offer, or offer one;
    ``/draw/no``: decline the opponent's offer."""
    token = authenticate(request, "bot:play")
    require_bot(token)
    if answer not in ("yes", "no"):
        raise Refusal("unknown_endpoint")
    if answer == "no":
        offers.match_answer_draw(match_id=match_id, user_id=token.user_id, accept=False)
        return {"ok": True}
    done = offers.match_draw(match_id=match_id, user_id=token.user_id)  # offer or accept: under the lock
    return {"ok": True, done: True}


@api_call("POST")
def challenge_create(request: HttpRequest, username: str) -> dict[str, Any]:
    """POST /api/challenge/<user>: ``variant``, ``rated`` (true/false), ``colour`` (random, pink,
    blue), and a casual game's own settings as ``<game>-<option>`` fields (docs/api.md)."""
    token = authenticate(request, "challenge:write", "bot:play")
    params = body(request)
    rated = params.get("rated", False)
    if isinstance(rated, str):
        rated = rated.lower() in ("1", "true", "yes", "on")
    if not isinstance(rated, bool):
        raise Refusal("bad_frame")
    challenge = challenges.challenge_direct_create(
        user_id=token.user_id,
        target_name=username,
        variant=params.get("variant", ""),
        rated=rated,
        colour=params.get("colour", "random"),
        options={k: v for k, v in params.items() if k not in ("variant", "rated", "colour", "days")},
        days=params.get("days"),
    )
    return {
        "challenge": {
            "id": challenge.pk,
            "to": username,
            "variant": challenge.variant,
            "rated": challenge.rated,
            "colour": challenge.colour,
        }
    }


def _answer(request: HttpRequest, challenge_id: int, accept: bool) -> dict[str, Any]:
    token = authenticate(request, "challenge:write", "bot:play")
    match = challenges.challenge_direct_answer(challenge_id=challenge_id, user_id=token.user_id, accept=accept)
    return {"ok": True, "game": None if match is None else {"id": match.pk}}


@api_call("POST")
def challenge_accept(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    return _answer(request, challenge_id, True)


@api_call("POST")
def challenge_decline(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    return _answer(request, challenge_id, False)


@api_call("POST")
def challenge_cancel(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    token = authenticate(request, "challenge:write", "bot:play")
    challenges.challenge_direct_cancel(challenge_id=challenge_id, user_id=token.user_id)
    return {"ok": True}


@api_call("GET")
def account(request: HttpRequest) -> dict[str, Any]:
    """GET /api/account: whose token this is (any scope)."""
    token = authenticate(request)
    user = token.user
    return {"id": user.pk, "username": user.username, "bot": user.is_bot, "scopes": token.scope_list}


@api_call("POST")
def upgrade(request: HttpRequest) -> dict[str, Any]:
    """POST /api/bot/account/upgrade: this account becomes a bot, for good (it must have no games)."""
    token = authenticate(request, "bot:play")
    user = botaccounts.user_become_bot(user_id=token.user_id)
    return {"ok": True, "bot": user.is_bot}


@csrf_exempt
def not_found(request: HttpRequest, rest: str = "") -> HttpResponseBase:
    """Any other address under /api/: JSON, not the site's 404 page."""
    return error(Refusal("unknown_endpoint"))
