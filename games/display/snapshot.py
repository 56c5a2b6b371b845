"""The pictures of a match as data: ``match_snapshot`` (the whole of it, for
first paints and ``state`` frames) and ``match_header`` (what changes with a
move or an offer, carried by every live frame), so pages and frames agree.

No queries: the rows come from the selectors (``games.selectors.match.snapshot_rows``)."""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games import catalogue
from games.engine import Game, State
from games.models import BLUE, PINK, Match, Move

from .boards import render_board


@dataclass(frozen=True)
class SnapshotRows:
    """What a match's snapshot is drawn from besides the match row (read by
    games.selectors.match.snapshot_rows)."""

    state: State
    ends: dict[int, int]  # Kropki: ply -> the side whose clock played "end" (clock_ends)
    deltas: dict[str, dict[str, Any]] | None  # both players' rating changes, once a rated match is over
    movers: list[int]  # who made each stored move, in order


def result_words(status: str, winner: int | None, reason: str) -> str:
    """The result and why, in words ("remis za zgodą", "wygrana na punkty"...),
    in the active language; "" while the match is on."""
    if status == Match.Status.ACTIVE:
        return ""
    R = Match.EndReason
    if reason == R.ABORTED:
        return _("Match aborted: a first move did not come in time. No result and no rating change.")
    if reason == R.IMPORTED:
        return _("An imported game, not played to its end here.")
    if winner is None:
        draws: dict[str, Any] = {R.AGREEMENT: _("Draw by agreement."), **catalogue.draw_words()}
        return str(draws.get(reason, _("Draw.")))
    colour = _("Pink wins") if winner == PINK else _("Blue wins")
    sentence = catalogue.win_sentences().get(reason)
    if sentence is not None:  # not "Blue wins: win on score."
        return str(sentence) % {"wins": colour}
    wins: dict[str, str] = {
        R.TIMEOUT: _("the opponent ran out of time"),
        R.RESIGN: _("the opponent resigned"),
    }
    why = wins.get(reason) or catalogue.reason_words().get(reason)
    # An ending no game words for a win (a draw's reason, say: never stored with a winner,
    # but the live pages' table words every pair) says who won, never a raw code.
    return f"{colour}: {why}." if why else f"{colour}."


def _end_action(match: Match) -> int | None:
    return match.game().end_action if match.params else _variant_end_action(match.variant)


@functools.cache
def _variant_end_action(variant: str) -> int | None:
    return catalogue.variant(variant).game().end_action


def clock_may_have_ended(match: Match) -> bool:
    """Kropki: whether the history holds an "end", which the clock may have played
    (docs/rules.md, "The clock"); only then are the ends worth reading."""
    end = _end_action(match)
    return end is not None and end in match.history


def clock_ends_of(match: Match, moves: list[Move]) -> dict[int, int]:
    """The clock's ends (ply -> side) from the match's Move rows the caller read."""
    return {m.ply: m.player for m in moves if m.by_timeout} if clock_may_have_ended(match) else {}


def ran_out_words(match: Match, ends: dict[int, int]) -> str:
    """The sentence "<name> ran out of time." for each player the clock ended."""
    return " ".join(_("%(name)s ran out of time.") % {"name": player_name(match, ends[ply])} for ply in sorted(ends))


def move_words(game: Game, history: list[int], ends: dict[int, int]) -> list[str]:
    """The move list in the active language: the engine's notation (in the
    game's own words where it has them: Piłkarzyki's directions), except
    Kropki's end ("end") and an end the clock played ("time ran out")."""
    end = game.end_action
    named = catalogue.game_spec(game.slug).notation_words
    words = named(get_language() or settings.LANGUAGE_CODE) if named else {}
    out = []
    for ply, action in enumerate(history, start=1):
        if action == end:
            out.append(_("time ran out") if ply in ends else pgettext("move list", "end"))
            continue
        notation = game.action_to_string(action)
        out.append(words.get(notation, notation))
    return out


def movers(stored: list[int], game: Game, history: list[int]) -> list[int]:
    """Who made each move (1 pink, 2 blue), in order: the players need not
    alternate (a bounce, a closed box, a player who ended in Kropki). The
    stored moves say it (``stored``: games.selectors.match.stored_movers); a
    history without them is replayed."""
    if len(stored) == len(history):
        return stored
    state = game.new_initial_state()
    out = []
    for action in history:
        player = state.current_player()
        out.append(player or 0)
        state.apply_action(action)
    return out


def reason_text(match: Match, ends: dict[int, int]) -> str:
    """The result in words, and whose clock ran out in Kropki (``ends``: games.selectors.match.clock_ends)."""
    text = result_words(match.status, match.winner, match.end_reason)
    if text and match.status == Match.Status.FINISHED and ends:
        text = f"{text} {ran_out_words(match, ends)}"
    return text


def result_table() -> dict[str, str]:
    """Every ending's words keyed ``"<status>:<winner or 0>:<reason>"``: live
    frames carry codes, and each page words them in its own language."""
    table = {}
    for status in (Match.Status.FINISHED, Match.Status.ABORTED):
        for winner in (None, PINK, BLUE):
            for reason in [*Match.EndReason.values, *catalogue.end_reasons()]:
                table[f"{status}:{winner or 0}:{reason}"] = result_words(status, winner, reason)
    return table


def player_id(match: Match, side: int) -> int | None:
    """The account id a page, frame, export or API line gives for ``side``: None for the computer
    and for a deleted account (docs/privacy.md: its games are not linked to it any more)."""
    user = match.pink if side == PINK else match.blue
    return None if user is None or user.is_deleted else user.pk


def player_name(match: Match, side: int) -> str:
    if match.imported:  # a game from elsewhere: the names its file gives
        return str(match.imported.get("pink" if side == PINK else "blue") or (_("pink") if side == PINK else _("blue")))
    user = match.pink if side == PINK else match.blue
    if user is None:
        return _("Computer (%(level)s)") % {"level": match.get_bot_level_display()}
    if user.is_deleted:  # docs/privacy.md: the row stays, the name does not
        return _("deleted account")
    return user.display_name  # "BOT name" for a bot account


# The board's SVG of a match at one ply (Kropki 10x10: ~2 ms to draw, 16 kB):
# drawn for first paints and for pages that fetch the board after a gap
# (games/views/match.match_board), never per move. Keyed like the engine-state
# cache and checked against the full history, so a reused id never gets
# another game's board.
_SVG_CACHE: dict[tuple[int, str, int, bool, str], tuple[list[int], str]] = {}
_SVG_CACHE_MAX = 256


def board_svg(match: Match, state: State, active: bool, lang: str | None = None) -> str:
    lang = lang or get_language() or settings.LANGUAGE_CODE
    key = (match.pk, match.variant, len(state.history), active, lang)
    hit = _SVG_CACHE.get(key) if match.pk else None
    if hit is not None and hit[0] == state.history:
        return hit[1]
    svg = render_board(state.view(), state.game.slug, interactive=active, lang=lang)
    if match.pk:
        if len(_SVG_CACHE) >= _SVG_CACHE_MAX:
            with contextlib.suppress(
                StopIteration, RuntimeError
            ):  # called from a thread pool: another thread may evict first
                _SVG_CACHE.pop(next(iter(_SVG_CACHE)), None)
        _SVG_CACHE[key] = (list(state.history), svg)
    return svg


VERSION_FIELDS = ("ply", "status", "draw_offer", "rematch_offer", "rematch_id", "turn_deadline", "takeback_offer")


def match_version(match: Match) -> str:
    """A short text that changes whenever anything a client draws changes:
    every committed change a frame announces touches one of VERSION_FIELDS.
    Clients send it with their heartbeat ``sync``; an unchanged one gets a
    tiny ``pong`` instead of the whole state."""
    deadline = int(match.turn_deadline.timestamp() * 1000) if match.turn_deadline else 0
    return (
        f"{match.ply}.{match.status}.{match.draw_offer or 0}.{match.rematch_offer or 0}.{match.rematch_id or 0}"
        f".{deadline}.{match.takeback_offer or 0}"
    )


def match_header(match: Match) -> dict[str, Any]:
    """What every frame says of the match as committed: small, the same for
    every viewer and in no language (live frames carry it as ``match``)."""
    return {
        "version": match_version(match),
        "status": match.status,
        "to_move": match.to_move,
        "deadline": match.turn_deadline.isoformat() if match.turn_deadline else None,
        "server_now": timezone.now().isoformat(),
        "scores": [match.pink_score, match.blue_score],
        "winner": match.winner,
        "end_reason": match.end_reason or None,
        "draw_offer": match.draw_offer,
        "rematch_offer": match.rematch_offer,
        "rematch_id": match.rematch_id,
        "takeback_offer": match.takeback_offer,  # who asks for a takeback now (games/play/takeback.py)
        "takebacks": [match.pink_takebacks, match.blue_takebacks],  # asks made so far, each side
        "takebacks_done": match.takebacks_done,  # grants so far: a state frame of a lower ply is newer then
        "counts": match.counts,  # False: over before two moves each, it counts for nothing
    }


def match_snapshot(match: Match, rows: SnapshotRows) -> dict[str, Any]:
    """The whole picture of ``match`` as data (no SVG): first paints and
    ``state`` frames. Words (names, the result) are in the active language.
    ``rows``: games.selectors.match.snapshot_rows (the match's players are read with it)."""
    state = rows.state
    variant = catalogue.variant(match.variant)
    game = state.game
    active = match.is_active
    ends = rows.ends
    return {
        **match_header(match),
        "id": match.pk,
        "variant": match.variant,
        "variant_name": str(variant.name),
        "game": game.slug,
        "rules_url": reverse("rules", args=[variant.rules_slug]),
        "ply": match.ply,
        "grace_seconds": settings.MOVE_GRACE_SECONDS,
        "rated": match.rated,
        "bot_level": match.bot_level or None,
        "bot_side": match.bot_side,
        "players": {
            str(side): {"name": player_name(match, side), "user_id": player_id(match, side)} for side in (PINK, BLUE)
        },
        "result_text": reason_text(match, ends),
        "rating_deltas": rows.deltas,
        "moves": move_words(game, state.history, ends),
        "movers": movers(rows.movers, game, state.history),
        "clock_ends": [ends[ply] for ply in sorted(ends)],  # Kropki: whose time ran out, in order
        "legal": state.legal_actions() if active else [],
        "view": state.view(),
    }
