"""The record ("zapis") of a finished match, its replay frames and its exports.

The page shows the final position and the move list; the replay fetches one
board per step from ``record_frame`` (a 400-move Kropki 20×20 game would be
about 8 MB of SVG if every frame were embedded; one frame is about 50 KB and
a few milliseconds to compute) and keeps the frames it has seen. Frames of a
finished match never change, so they are cacheable.

Queries: the page reads the match with both players and its rating changes
(two queries; the changes are cached, as they never change once the match is
finished) whatever the length of the game, and the last RECORD_CHAT_LINES lines of each
chat room (``?czat=2`` the ones before; cached once the chat has closed, CHAT_CLOSE_MINUTES
after the end: games/play/chat.py). The rest of the page (the
final board, the move list) depends only on the variant, the moves and the
language: it is computed once and kept in the cache under a digest of those
(``_replay``; the template caches the list's markup under the same key), so
a 400-move record costs about what a 7-move one does.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, TypedDict

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import catalogue
from games.display import export
from games.display.boards import render_board
from games.display.snapshot import move_words, player_name, reason_text
from games.models import BLUE, PINK, Match
from games.play.chat import chat_record_page
from games.review import selectors as review_reads
from games.review.display import better_frame, review_section
from games.selectors import match as match_reads
from games.selectors import record as record_reads
from games.views.expensive import history_digest, rate_limited
from ratings.selectors import changes_for_match

FRAME_MAX_AGE = 24 * 3600
RECORD_CACHE_SECONDS = record_reads.RECORD_CACHE_SECONDS


def _finished_match(match_id: int) -> Match:
    match = record_reads.match_for_record(match_id)
    if match is None:
        raise Http404
    return match


def record_key(
    variant: str,
    history: list[int],
    lang: str,
    ends: dict[int, int] | None = None,
    params: dict[str, Any] | None = None,
) -> str:
    """The cache key of a record's board and move list: what they are drawn from, and nothing else
    (so a key can never show another match's moves, whatever the ids). ``ends``: Kropki's
    ends played by the clock (games.selectors.match.clock_ends), which the move list words apart;
    ``params``: the game's own settings (Match.params)."""
    drawn_from = [history, sorted(ends or {})] + ([params] if params else [])
    digest = hashlib.blake2b(json.dumps(drawn_from, sort_keys=True).encode(), digest_size=16).hexdigest()
    return f"record:{variant}:{len(history)}:{digest}:{lang}"


class RecordMove(TypedDict):
    ply: int
    player: int | None
    colour: str
    notation: str


class Replay(TypedDict):
    board_svg: str
    moves: list[RecordMove]


def _replay(match: Match, key: str, ends: dict[int, int]) -> Replay:
    """The final board and who played what at each ply, from the cache or by replaying once."""
    data: Replay | None = cache.get(key)
    if data is not None:
        return data
    game = match.game()
    # Who played each ply (Kropki: one player may play on alone; Dots and Boxes: extra moves).
    state = game.new_initial_state()
    moves: list[RecordMove] = []
    colours: dict[int | None, str] = {PINK: _("pink"), BLUE: _("blue")}
    words = move_words(game, match.history, ends)
    for ply, action in enumerate(match.history, start=1):
        player = state.current_player()
        moves.append({"ply": ply, "player": player, "colour": colours.get(player, ""), "notation": words[ply - 1]})
        state.apply_action(action)
    data = {"board_svg": render_board(state.view(), game.slug, lang=get_language()), "moves": moves}
    cache.set(key, data, RECORD_CACHE_SECONDS)
    return data


def _chat_page(value: str | None) -> int:
    """``?czat=N``: the chat's page (1: the latest lines); anything else is page 1."""
    try:
        page = int(value or 1)
    except ValueError:
        return 1
    return page if 1 <= page <= 10_000 else 1


@require_GET
def record(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _finished_match(match_id)
    if match.is_active:
        return redirect("match", match_id=match.pk)
    ends = match_reads.clock_ends(match)
    key = record_key(match.variant, match.history, get_language(), ends, match.params)
    replay = _replay(match, key, ends)
    moves = replay["moves"]
    changes = record_reads.record_changes(match)
    players = []
    for side in (PINK, BLUE):
        user = match.pink if side == PINK else match.blue
        players.append(
            {
                "side": side,
                "colour": "pink" if side == PINK else "blue",
                "name": player_name(match, side),
                "user": user if user is not None and not user.is_deleted else None,  # no profile link
                "change": changes.get(side),
                "score": match.pink_score if side == PINK else match.blue_score,
                "winner": match.winner == side,
            }
        )
    total = len(match.history)
    chat_page = _chat_page(request.GET.get("czat"))
    analysis = review_reads.analysis_for(match)
    queue = review_reads.queue_position(analysis) if analysis is not None else 0
    review = review_section(request.user, match, players, analysis, queue, held=review_reads.held(match, analysis))
    return render(
        request,
        "games/record.html",
        {
            "match": match,
            "variant_name": catalogue.variant_name(match.variant),
            "options": catalogue.options_words(match.variant, match.params),
            "scored": catalogue.variant(match.variant).game_spec.scored,  # no column of zeros (Cztery w rzędzie)
            "result_text": reason_text(match, ends),
            "players": players,
            "board_svg": replay["board_svg"],
            "moves": moves,
            "moves_key": key,
            "total": total,
            "has_sgf": export.has_sgf(match.variant),
            "chat": chat_record_page(match_id=match.pk, finished_at=match.finished_at, page=chat_page),
            "chat_page": chat_page,
            "review": review,
            "replay_config": {
                "total": total,
                "frameUrl": reverse("record_frame", args=[match.pk, 0]),
                "moves": [m["notation"] for m in moves],
                "players": [m["player"] for m in moves],
                "position": _("Move %(ply)s of %(total)s"),
                "moveText": _("%(colour)s: %(move)s"),
                "colours": {"1": _("pink"), "2": _("blue")},
                "error": _("Could not load this position. Try again."),
                "matchId": match.pk,
            },
        },
    )


def _frame(match: Match, ply: int) -> dict[str, object]:
    """The board after ``ply`` moves. A move the game explains (Kropki's captures) says what it took."""
    game = match.game()
    spec = game_spec_of(match)
    lang = get_language()
    state = game.state_from_history(match.history[: ply - 1] if ply else [])
    explained = None
    if ply:
        effect = state.apply_action(match.history[ply - 1])
        explained = spec.explain_move(effect) if spec.explain_move is not None else None
    pink, blue = state.scores()
    data: dict[str, object] = {
        "ply": ply,
        "svg": render_board(state.view(), game.slug, lang=lang, highlight=explained["highlight"] if explained else ()),
        "move": game.action_to_string(match.history[ply - 1]) if ply else None,
        "scores": [pink, blue],
    }
    if explained:
        data["explain"] = explained["text"]
    return data


def game_spec_of(match: Match) -> catalogue.GameSpec:
    return catalogue.variant(match.variant).game_spec


@require_GET
@rate_limited(json_answer=True)
def record_frame(request: HttpRequest, match_id: int, ply: int) -> JsonResponse:
    """The board after ``ply`` moves of a finished match (one query; a replay and a render the
    first time any process is asked, then the shared cache's copy)."""
    match = record_reads.match_for_frame(match_id)
    if match is None or match.is_active:
        raise Http404  # frames of a live match would leak nothing, but they would change under the cache
    if not 0 <= ply <= len(match.history):
        raise Http404
    better = request.GET.get("lepszy") == "1"
    if better and not 0 < ply <= len(match.history):
        raise Http404
    if better:  # depends on the stored review (its version): not cached
        analysis = review_reads.analysis_for(match)
        frame = better_frame(match, ply, analysis, held=review_reads.held(match, analysis))
        if frame is None:
            raise Http404
        response = JsonResponse(frame)
        response["Cache-Control"] = "private, no-cache"
        return response
    key = f"record-frame:{match.variant}:{ply}:{history_digest(match.history[:ply])}:{get_language()}"
    data: dict[str, object] | None = cache.get(key)
    if data is None:
        data = _frame(match, ply)
        cache.set(key, data, RECORD_CACHE_SECONDS)
    response = JsonResponse(data)
    response["Cache-Control"] = f"public, max-age={FRAME_MAX_AGE}"
    return response


@require_GET
@rate_limited()
def export_json(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _finished_match(match_id)
    moves = match_reads.match_moves(match)
    data = export.match_json(match, moves, changes_for_match(match.pk))
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{export.download_name(match, "json")}"'
    return response


@require_GET
@rate_limited()
def export_sgf(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _finished_match(match_id)
    if not export.has_sgf(match.variant):
        raise Http404
    response = HttpResponse(
        export.match_sgf(match, match_reads.clock_ends(match)), content_type="application/x-go-sgf; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{export.download_name(match, "sgf")}"'
    return response
