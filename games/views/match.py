"""Pages of live play: the match page and challenges by link.

Views stay thin: they read, or call one service and redirect. Every change of
a match itself goes through the WebSocket (games/live/match_consumer.py) and
the services of games/play/.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.models import User
from games import catalogue
from games.display.boards import board_words
from games.display.snapshot import board_svg, match_snapshot, result_table
from games.models import PINK, Match
from games.play.core import has_moved
from games.selectors import match as match_reads
from games.tournaments.swiss.selectors import game_return
from games.views.chat import chat_panel
from games.views.expensive import history_digest, rate_limited
from games.views.rules import rule_url


def _rule_links(slug: str) -> dict[str, str]:
    """Error code -> the rules section behind it, for every code a move can get."""
    links = {}
    for code in catalogue.game_spec(slug).rule_anchors:
        url = rule_url(slug, code)
        if url is not None:
            links[code] = url
    return links


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_reads.match_for_page(match_id)
    if match is None:
        raise Http404
    rows = match_reads.snapshot_rows(match)
    state = rows.state
    snapshot = match_snapshot(match, rows)
    user_id = request.user.pk if request.user.is_authenticated else None
    you = match.side_of(user_id)
    lang = get_language()
    spec = catalogue.game_spec(snapshot["game"])
    variant_game = state.game
    user = request.user if request.user.is_authenticated else None
    page = {
        "you": you,
        "lang": lang,
        "ws_path": f"/ws/match/{match.pk}/",
        "board_url": reverse("match_board", args=[match.pk, 0]),
        "rule_links": _rule_links(snapshot["game"]),
        "words": board_words(lang),
        # what differs by game (games/catalogue): a score to show, tap-to-confirm on small targets
        "scored": spec.scored,
        "tap_confirm": spec.tap_confirm,
        # a move that ends the player's own game (Kropki's "end"): its button and notices
        "has_end_action": variant_game.end_action is not None,
        # the player's settings (accounts.User); a guest's tap choice is kept in the browser
        "settings": _player_settings(user),
        "vs_computer": bool(match.bot_level),
        # takeback (games/play/takeback.py): casual games and the computer, never rated or a tournament's
        "takeback": not match.rated and match.tournament_id is None,
        "takebacks_per_player": settings.TAKEBACKS_PER_PLAYER,
    }
    strings = {**_strings(), **_game_strings(spec)}
    return render(
        request,
        "games/match.html",
        {
            "match": match,
            "snapshot": snapshot,
            "options": catalogue.options_words(match.variant, match.params),
            "page": page,
            "you": you,
            "is_player": you is not None,
            "board_svg": board_svg(match, state, match.is_active, lang),
            "strings": {**strings, "results": result_table()},  # the words, and every ending's words by code
            "winner_line": _winner_line(snapshot, strings),
            "rating_lines": _rating_lines(snapshot, strings),
            "next_game": _next_game(match, you),
            "scored": spec.scored,
            "board_script": spec.board_script,
            "player_note": str(spec.player_note(snapshot["view"], you)) if spec.player_note and you else "",
            "move_rows": [
                {
                    "notation": notation,
                    "colour": "pink" if side == PINK else "blue",
                    "colour_name": strings["pink"] if side == PINK else strings["blue"],
                }
                for notation, side in zip(snapshot["moves"], snapshot["movers"], strict=False)
            ],
            "chat": chat_panel(request, match, you),
            "arena": _arena(match, you),
            "swiss": _swiss(match, you),
        },
    )


def _arena(match: Match, you: int | None) -> dict[str, Any] | None:
    """An arena's game: the way back to it, and whether the player may still go berserk."""
    if match.tournament_id is None:
        return None
    tournament = match.tournament
    assert tournament is not None
    url = reverse("tournament", args=[tournament.pk])
    if not tournament.public:
        url += f"?klucz={tournament.token}"
    berserk = you is not None and match.is_active and not match.berserk_of(you) and not has_moved(match, you)
    return {
        "name": tournament.name,
        "url": url,
        "berserk": berserk,
        "move_seconds": match.move_seconds or settings.MOVE_SECONDS,
        "half_seconds": round((match.move_seconds or settings.MOVE_SECONDS) / 2),
        "berserk_pink": match.pink_berserk,
        "berserk_blue": match.blue_berserk,
        "live": {
            "id": tournament.pk,
            "url": url,
            "player": you is not None,
            "words": {"going_back": _("The game is over: back to the tournament in a moment…")},
        },
    }


def _swiss(match: Match, you: int | None) -> dict[str, Any] | None:
    """A Swiss game: the way back to the tournament (static/js/swiss.js goes there when it ends)."""
    back = game_return(match.pk, you)
    if back is not None:
        back["words"] = {"going_back": _("The game is over: back to the tournament in a moment…")}
    return back


def _player_settings(user: Any) -> dict[str, Any]:
    """The settings the match page acts on: the low-time warning's second and
    its sound, and tap to confirm ("auto": on for a coarse pointer or a narrow
    screen). A guest, or no account, gets the defaults; a guest's tap choice
    is remembered by the browser (localStorage)."""
    if user is None:
        return {
            "low_time": User.LOW_TIME_DEFAULT,
            "sound": True,
            "tap_confirm": User.TapConfirm.AUTO,
            "remember_locally": True,
        }
    return {
        "low_time": user.low_time_seconds,
        "sound": bool(user.notify_sound),
        "tap_confirm": user.tap_confirm,
        "remember_locally": bool(user.is_guest),
    }


def _game_strings(spec: catalogue.GameSpec) -> dict[str, Any]:
    """The words of this game the page's JS needs (games/catalogue): its move
    names, the notice when the same player moves again, and the notices of its
    own endings."""
    again = spec.again_words
    return {
        "end_notices": {reason: str(words) for reason, words in spec.end_notices.items()},
        "notation": spec.notation_words(get_language()) if spec.notation_words else {},
        "again_you": str(again[0]) if again else "",
        "again_other": str(again[1]) if again else "",
    }


def _signed(delta: int) -> str:
    """+12, −12 (a real minus sign), ±0: as match.js writes it."""
    return f"+{delta}" if delta > 0 else f"\u2212{-delta}" if delta < 0 else "\u00b10"


def _winner_line(snapshot: dict[str, Any], strings: dict[str, str]) -> str:
    """ "Winner: Ania (pink)" once a match is won; match.js writes the same live."""
    winner = snapshot["winner"]
    if snapshot["status"] != Match.Status.FINISHED or winner is None:
        return ""
    colour = strings["pink"] if winner == 1 else strings["blue"]
    return strings["winner"] % {"name": snapshot["players"][str(winner)]["name"], "colour": colour}


def _rating_lines(snapshot: dict[str, Any], strings: dict[str, str]) -> list[str]:
    """Each player's rating change in a rated match ("Ania: +12 (rating 1512)")."""
    deltas = snapshot.get("rating_deltas") or {}
    return [
        strings["rating_change"]
        % {
            "name": snapshot["players"][side]["name"],
            "delta": _signed(d["delta"]),
            "after": f"{d['after']}{'?' if d['provisional'] else ''}",
        }
        for side, d in sorted(deltas.items())
    ]


def _next_game(match: Match, you: int | None) -> dict[str, Any] | None:
    """Where "New game" posts for a player: the computer again at the same level
    and colour, the ranked queue after a rated match, else a new challenge."""
    if you is None:
        return None
    if match.bot_level:
        colour = "pink" if you == PINK else "blue"
        return {
            "url": reverse("play_computer"),
            "fields": {"variant": match.variant, "level": match.bot_level, "colour": colour}
            | catalogue.option_values(match.variant, match.params),
        }
    if match.tournament_id is not None:  # the arena pairs the next game (the page goes back to it)
        return None
    if match.rated:
        return {"url": reverse("queue_join"), "fields": {"variant": match.variant}}
    fields = {"variant": match.variant, "mode": "casual"} | catalogue.option_values(match.variant, match.params)
    return {"url": reverse("challenge_new"), "fields": fields}


@require_GET
@rate_limited()
def match_board(request: HttpRequest, match_id: int, ply: int) -> HttpResponse:
    """The board of ``match`` after ``ply`` moves as SVG, drawn by the one
    renderer: what a live page fetches after a gap (docs/protocol.md).
    ``?live=1``: with the targets of a match in play; ``?lang=pl|en``: the
    words. A position never changes once played, so the answer is cached by
    browsers, and a finished match's in the shared cache (games/views/expensive.py)."""
    match = match_reads.match_row(match_id)
    if match is None or ply > match.ply:
        raise Http404
    lang = request.GET.get("lang")
    known = {code for code, _name in settings.LANGUAGES}
    if lang not in known:
        lang = get_language()
    live = request.GET.get("live") == "1"
    key = (
        f"board:{match.pk}:{match.status}:{match.variant}:{ply}:{history_digest(match.history[:ply])}:"
        f"{int(live)}:{lang}"
    )
    svg: str | None = cache.get(key) if not match.is_active else None
    if svg is None:
        state = match.game().state_from_history(match.history[:ply])
        svg = board_svg(match, state, live, lang)
        if not match.is_active:
            cache.set(key, svg, 24 * 3600)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    patch_cache_control(response, public=True, max_age=86400, immutable=True)
    return response


def _strings() -> dict[str, str]:
    """Words the page's JS shows (translated here so that JS holds no language);
    the page adds ``results`` (snapshot.result_table) to them."""
    return {
        "your_turn": _("Your move"),
        "their_turn": _("Your opponent's move"),
        "turn_of": _("Move: %(name)s"),
        "pink": _("pink"),
        "blue": _("blue"),
        "finished": _("The match is over."),
        "ended": _("%(name)s has ended the game; the other player may play on."),
        "you_ended": _("You have ended the game; your opponent may play on."),
        # Kropki: the clock ends the game of a player whose time ran out
        "clock_ended": _("%(name)s ran out of time, which ends their game; the other player may play on."),
        "you_clock_ended": _("Your time ran out, which ends your game; your opponent may play on."),
        # to the player who plays on: words from their own point of view
        "ended_you_play_on": _("%(name)s has ended the game; you may play on alone."),
        "clock_ended_you_play_on": _("%(name)s ran out of time, which ends their game; you may play on alone."),
        # against the computer: it plays on alone until it ends too
        "you_ended_computer": _("You have ended the game; the computer now plays on alone until it ends too."),
        "you_clock_ended_computer": _(
            "Your time ran out, which ends your game; the computer now plays on alone until it ends too."
        ),
        "ran_out": _("%(name)s ran out of time."),
        "move_end": pgettext("move list", "end"),
        "move_timeout": _("time ran out"),
        "draw_offered": _("%(name)s offers a draw."),
        "draw_declined": _("The draw offer was declined."),
        "takeback_offered": _("%(name)s asks to take back their last move."),
        "takeback_asked": _("Takeback asked for; waiting for the answer."),
        "takeback_declined": _("The takeback request was refused."),
        "taken_back": _("Move taken back: %(name)s to move."),
        "takebacks_left": _("Takebacks left: %(n)s"),
        "computer_thinks": _("The computer is thinking…"),
        "rematch_offered": _("%(name)s offers a rematch."),
        "rematch_declined": _("The rematch offer was declined."),
        "moved": _("%(name)s: %(move)s."),
        "confirm_resign": _("Resign this match? It counts as a loss."),
        "confirm_end": _("End the game? You will make no more moves; your opponent may play on alone."),
        "sure": _("Sure?"),
        "connected": _("live"),
        "connecting": _("connecting…"),
        "offline": _("connection lost, reconnecting…"),
        "move_queued": _("Not connected yet: your move goes as soon as the connection is back."),
        "computer_busy": _("The computer is busy: it will move as soon as it can."),
        "computer_waits": _(
            "This position stands in a rated game being played right now: the computer moves once that game"
            " has moved on."
        ),
        "computer_gave_up": _(
            "This position stood in a rated game for too long: the computer could not move, so this game ends"
            " without a result."
        ),
        "rule": _("See the rule"),
        "new_tab": _("(opens in a new tab)"),
        "not_your_turn": _("It is your opponent's turn."),
        "low_time": _("%(s)s seconds left for your move."),
        "tap_hint": _("Selected: %(target)s. Tap it again to play, or tap another point."),
        "you_label": _("you"),
        "seconds": _("%(s)s s"),
        # a correspondence game's clock (days a move)
        "days_hours": _("%(d)s d %(h)s h"),
        "hours_minutes": _("%(h)s h %(m)s min"),
        "timeout_claimed": _("Time is up."),
        "confirm_draw": _("Offer a draw? Your opponent may accept or decline it."),
        "winner": _("Winner: %(name)s"),  # the banner above names the colour
        "rating_change": _("%(name)s: %(delta)s (rating %(after)s)"),
        # an arena's game: who went berserk (the clock frame's "berserk")
        "berserk_1": _("pink went berserk (half the time)"),
        "berserk_2": _("blue went berserk (half the time)"),
        "berserk_12": _("both players went berserk (half the time)"),
    }
