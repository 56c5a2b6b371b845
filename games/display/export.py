"""Exports of a match record: JSON for every game, SGF (``GM[40]``) for Kropki;
and ``account_json``, everything the site keeps about one account (docs/privacy.md).

The JSON carries ``game``, ``params`` and ``moves`` in the form
``python -m games.engine replay`` reads (Kropki ``[x, y]`` / ``["end"]``,
Cztery w rzędzie columns 1..7, Kropki i kwadraty segment ids), so a record can
be checked against the rules offline, plus the site's own fields.

SGF for Kropki follows what Kropki programs write (KataGo dots, Kropla,
eidokropki): ``(;GM[40]FF[4]CA[UTF-8]SZ[w:h]PB[..]PW[..]RE[..];B[xy];W[xy]...)``
with the first player (pink here) as B, coordinates ``aa`` = top-left column
then row, and only dots (ending the game is not a move in SGF; the match's
result says how it ended).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import Block, User
from games import catalogue
from games.models import BLUE, PINK, ChatMessage, Match, Move, Report
from ratings.models import Rating, RatingChange

from .snapshot import clock_ends_of, player_id, player_name, reason_text


def _slug(text: str) -> str:
    # slugify drops letters without an ASCII decomposition: Polish ł would vanish.
    return slugify(text.translate(str.maketrans("łŁ", "lL")))[:40].strip("-")


def download_name(match: Match, extension: str) -> str:
    """The file name of an export: the variant, the match id and the players,
    e.g. ``kropki-i-kwadraty-5-ania-vs-bartek.json`` (ASCII, safe in a header)."""
    parts = [
        match.variant,
        str(match.pk),
        _slug(player_name(match, PINK)) or "pink",
        "vs",
        _slug(player_name(match, BLUE)) or "blue",
    ]
    return f"{'-'.join(parts)}.{extension}"


def _engine_params(match: Match) -> dict[str, Any]:
    variant = catalogue.variant(match.variant)
    return {**(match.params or variant.params), **variant.game_spec.export_params}


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def match_json(match: Match, moves: list[Move], ratings: dict[int, Any] | None = None) -> dict[str, Any]:
    """The JSON export of ``match`` (``moves`` are its Move rows in ply order)."""
    variant = catalogue.variant(match.variant)
    game = match.game()
    ratings = ratings or {}
    players = {}
    for side, key in ((PINK, "pink"), (BLUE, "blue")):
        change = ratings.get(side)
        players[key] = {
            "name": player_name(match, side),
            "user_id": player_id(match, side),  # null for a deleted account
            "rating_before": round(change.rating_before) if change else None,
            "rating_after": round(change.rating_after) if change else None,
        }
    return {
        "game": variant.game_slug,
        "params": _engine_params(match),
        "moves": [variant.game_spec.export_move(game, a) for a in match.history],
        "site": "Kropki",
        "id": match.pk,
        "variant": match.variant,
        "rated": match.rated,
        "players": players,
        "status": match.status,
        "winner": (
            {PINK: "pink", BLUE: "blue"}.get(match.winner)
            if match.status == Match.Status.FINISHED and match.winner is not None
            else None
        ),
        "end_reason": match.end_reason or None,
        "result": reason_text(match, clock_ends_of(match, moves)),
        "scores": [match.pink_score, match.blue_score],
        "started_at": _iso(match.created_at),
        "finished_at": _iso(match.finished_at),
        "record": [
            {
                "ply": m.ply,
                "player": "pink" if m.player == PINK else "blue",
                "action": m.action,
                "notation": game.action_to_string(m.action),
                "by_timeout": m.by_timeout,
                "at": _iso(m.created_at),
            }
            for m in moves
        ],
    }


def _sgf_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _sgf_result(match: Match) -> str:
    if match.status != Match.Status.FINISHED:
        return "Void"
    if match.winner is None:
        return "0"
    colour = "B" if match.winner == PINK else "W"
    reason = match.end_reason
    if reason == Match.EndReason.RESIGN:
        return f"{colour}+R"
    if reason == Match.EndReason.TIMEOUT:
        return f"{colour}+T"
    return f"{colour}+{abs(match.pink_score - match.blue_score)}"


def has_sgf(variant_key: str) -> bool:
    return catalogue.variant(variant_key).game_spec.sgf_moves is not None


def match_sgf(match: Match, ends: dict[int, int]) -> str:
    """The SGF of a match whose game writes SGF (Kropki); ``ends``: games.selectors.match.clock_ends."""
    variant = catalogue.variant(match.variant)
    sgf_moves = variant.game_spec.sgf_moves
    if sgf_moves is None:
        raise ValueError(f"no SGF export for {variant.game_slug}")
    props, nodes = sgf_moves(match.game(), list(match.history))
    game_props = "".join(
        key + "".join(f"[{v}]" for v in ([value] if isinstance(value, str) else value))
        for key, value in props.items()
        if key != "GM"
    )
    date = (match.finished_at or match.created_at).date().isoformat()
    root = (
        f"(;GM[{props['GM']}]FF[4]CA[UTF-8]AP[Kropki]{game_props}"
        f"PB[{_sgf_text(player_name(match, PINK))}]PW[{_sgf_text(player_name(match, BLUE))}]"
        f"DT[{date}]RE[{_sgf_result(match)}]GN[{_sgf_text(f'Kropki #{match.pk}')}]"
        f"C[{_sgf_text(reason_text(match, ends))}]"
    )
    return root + "".join(nodes) + ")\n"


ACCOUNT_EXPORT_FORMAT = 1


@dataclass(frozen=True)
class AccountRows:
    """Everything kept about one account, as read by games.selectors.account.account_rows."""

    user: User
    ratings: list[Rating]  # by variant
    matches: list[tuple[Match, list[Move]]]  # every match it played, oldest first, with its moves in ply order
    changes: dict[int, dict[int, RatingChange]]  # match id -> side -> the rating change
    chat: list[ChatMessage]  # its lines, oldest first
    blocks: list[Block]  # with the blocked account, oldest first
    reports: list[Report]  # with the reported account, oldest first
    parts: dict[str, Any]  # each feature's part (games.hooks.account_export)


def account_json(rows: AccountRows) -> dict[str, Any]:
    """Everything kept about ``user`` ("Download my data", docs/privacy.md): the account
    and its settings, its ratings, every match it played (each in ``match_json``'s
    form, the one of a record's JSON export), its chat lines, its blocks, the
    reports it made, the computer analyses it asked for, and each feature's part
    (``games.hooks.account_export``: its lines in tournaments). ``rows``:
    games.selectors.account.account_rows (a few queries, whatever the number of matches)."""
    user = rows.user
    return {
        "format": ACCOUNT_EXPORT_FORMAT,
        "site": "Kropki",
        "account": {
            "id": user.pk,
            "username": user.username,
            "email": user.email,
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
            "last_seen": _iso(user.last_seen),
            "settings": {
                "language": user.language,
                "invisible": user.invisible,
                "notify_sound": user.notify_sound,
                "notify_title": user.notify_title,
            },
        },
        "ratings": [
            {"variant": r.variant, "rating": round(r.rating), "deviation": round(r.deviation), "games": r.games}
            for r in rows.ratings
        ],
        "matches": [match_json(m, moves, rows.changes.get(m.pk)) for m, moves in rows.matches],
        "chat": [{"match": c.match_id, "room": c.room, "text": c.text, "at": _iso(c.created_at)} for c in rows.chat],
        "blocks": [{"blocked": b.blocked.username, "at": _iso(b.created_at)} for b in rows.blocks],
        "reports": [
            {
                "reported": _("deleted account") if r.reported.is_deleted else r.reported.username,
                "match": r.match_id,
                "message": r.message_id,
                "reason": r.reason,
                "at": _iso(r.created_at),
            }
            for r in rows.reports
        ],
        **rows.parts,  # the features' parts ("tournaments", "analyses_asked": docs/features.md)
    }
