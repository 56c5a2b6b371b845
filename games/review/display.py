"""The computer's review on the record page: its section, the evaluation curve (SVG), the words
for each move, the replay's frame of the better move.

The curve is drawn by the server like the rating chart (ratings/charts.py): pink's expected
result after each move, from 0 % (blue wins) to 100 % (pink wins), the moves classified
as inaccuracy, mistake or blunder marked on it; the page adds the same figures as a table
for screen readers. Styling comes from classes (static/css/ranked.css).
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games import catalogue
from games.display.boards import render_board
from games.display.snapshot import move_words
from games.models import Match

from .models import Analysis

WIDTH, HEIGHT = 640, 200
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 28
FLAGGED = ("inaccuracy", "mistake", "blunder")


def class_words() -> dict[str, str]:
    return {
        "best": pgettext("analysis", "best move"),
        "good": pgettext("analysis", "good move"),
        "inaccuracy": pgettext("analysis", "inaccuracy"),
        "mistake": pgettext("analysis", "mistake"),
        "blunder": pgettext("analysis", "blunder"),
    }


def percent(value: float) -> int:
    return round(100 * value)


def curve_svg(result: dict[str, Any], *, chart_id: str = "eval") -> str:
    """The evaluation curve of an analysis ``result`` (games.bots.review.analyse)."""
    positions = result["positions"]
    moves = result["moves"]
    n = len(positions)
    cid = escape(chart_id, quote=True)
    title = _("Evaluation after each move")
    flagged = sum(1 for m in moves if m["class"] in FLAGGED)
    desc = _(
        "Pink's chances from 0 %% (blue wins) to 100 %% (pink wins) over %(moves)s moves;"
        " %(flagged)s moves marked as inaccuracies, mistakes or blunders."
    ) % {"moves": n - 1, "flagged": flagged}
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - v)

    parts = [
        f'<svg class="review-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{cid}-title {cid}-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{cid}-title">{escape(title)}</title><desc id="{cid}-desc">{escape(desc)}</desc>',
        '<g class="chart-grid">',
    ]
    for tick in (0.0, 0.5, 1.0):
        ty = y(tick)
        parts.append(f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}"/>')
        parts.append(
            f'<text class="chart-label" x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{percent(tick)} %</text>'
        )
    parts.append("</g>")
    parts.append(
        f'<text class="chart-label" x="{LEFT}" y="{HEIGHT - 8}" text-anchor="start">0</text>'
        f'<text class="chart-label" x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">{n - 1}</text>'
    )
    coords = " ".join(f"{x(i):.1f},{y(p['pink']):.1f}" for i, p in enumerate(positions))
    area = f"{x(0):.1f},{y(0.5):.1f} {coords} {x(n - 1):.1f},{y(0.5):.1f}"
    parts.append(f'<polygon class="review-area" points="{area}"/>')
    parts.append(f'<polyline class="chart-line review-line" points="{coords}" fill="none"/>')
    for move in moves:
        if move["class"] in FLAGGED:
            ply = move["ply"]
            parts.append(
                f'<circle class="review-mark review-{move["class"]}" data-ply="{ply}" '
                f'cx="{x(ply):.1f}" cy="{y(positions[ply]["pink"]):.1f}" r="4"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def value_words(position: dict[str, Any]) -> str:
    """What the reviewer said of a position in the game's terms (the table's last column)."""
    detail = position.get("detail") or {}
    if "win_in" in detail:
        return _("win in %(n)s moves") % {"n": detail["win_in"]}
    if "loss_in" in detail:
        return _("loss in %(n)s moves") % {"n": detail["loss_in"]}
    # Piłkarzyki's turns ahead, both sides' counted: 0 is the turn being played
    if "win_in_turns" in detail:
        n = detail["win_in_turns"]
        return _("a win within this turn") if n == 0 else _("a goal in %(n)s turns") % {"n": n}
    if "loss_in_turns" in detail:
        n = detail["loss_in_turns"]
        return _("a loss within this turn") if n == 0 else _("a goal conceded in %(n)s turns") % {"n": n}
    if detail.get("draw"):
        return _("draw")
    if "lead" in detail:
        return _("expected lead %(lead)s") % {"lead": detail["lead"]}
    if "margin" in detail:
        return _("expected margin %(margin)s") % {"margin": detail["margin"]}
    return ""


def analysis_context(match: Match, result: dict[str, Any]) -> dict[str, Any]:
    """The template's figures of a finished review (its ``result``): rows per move, accuracy, the curve."""
    game = match.game()
    words = class_words()
    notation = move_words(game, list(match.history), {})
    best_words = [move_words(game, [m["best"]], {})[0] if m["best"] is not None else "" for m in result["moves"]]
    words_of = catalogue.variant(match.variant).game_spec.mistake_words
    rows = []
    for move, best in zip(result["moves"], best_words, strict=True):
        ply = move["ply"]
        rows.append(
            {
                "ply": ply,
                "player": move["player"],
                "move": notation[ply - 1],
                "class": move["class"],
                "class_words": words[move["class"]],
                "drop": percent(move["drop"]),
                "pink": percent(result["positions"][ply]["pink"]),
                "value": value_words(result["positions"][ply]),
                "better": best if move["class"] in FLAGGED else "",
                "why": (words_of(game, move["why"]) or "") if words_of and move.get("why") else "",
            }
        )
    script = {
        "classes": [m["class"] for m in result["moves"]],
        "words": words,
        "better": [row["better"] for row in rows],
        "why": [row["why"] for row in rows],
        "drops": [row["drop"] for row in rows],
        "pink": [percent(p["pink"]) for p in result["positions"]],
        "betterText": _("Better: %(move)s"),
        "dropText": _("%(class)s (−%(drop)s %% for the mover)"),
        "showBetter": _("Show the better move"),
        "showPlayed": _("Show the move played"),
        "noMore": _("No inaccuracies, mistakes or blunders in this game."),
    }
    return {
        "rows": rows,
        "accuracy": result["accuracy"],
        "counts": result["counts"],
        "svg": curve_svg(result),
        "script": script,
    }


def review_section(
    user: Any,
    match: Match,
    players: list[dict[str, Any]],
    analysis: Analysis | None,
    queue: int,
    *,
    held: bool = False,
) -> dict[str, Any]:
    """The record page's analysis section for ``user``: whether the game has a reviewer, who
    may ask (an account; a visitor or a guest too for an imported game, within the visitors'
    allowance, whose figure the page says), the stored review's state (queued with its place,
    running with its progress, failed, done: its figures, and each of ``players``' accuracy and
    counts). ``analysis``
    and ``queue``: selectors.analysis_for and queue_position. ``held`` (selectors.held): a
    position of the game stands in an active rated match, so a finished review shows no
    figures at all, only why (docs/fairplay.md)."""
    spec = catalogue.variant(match.variant).game_spec
    if spec.review is None:
        return {"available": False}
    guest = getattr(user, "is_guest", False)
    # The visitors' allowance (docs/analysis.md): an imported game's review, without an account too.
    visitor = bool(match.imported) and (guest or not user.is_authenticated)
    review: dict[str, Any] = {
        "available": True,
        "analysis": analysis,
        "may_ask": visitor or (user.is_authenticated and not guest),
        "visitor_allowance": settings.VISITOR_ANALYSES_PER_DAY if visitor else 0,
        "guest": guest,
        "note": spec.review_note,
    }
    if analysis is not None:
        review["queue"] = queue
        review["percent"] = round(100 * analysis.done / analysis.total) if analysis.total else 0
        if analysis.status == analysis.Status.DONE and held:
            review["held"] = True
        elif analysis.status == analysis.Status.DONE and analysis.result:
            review.update(analysis_context(match, analysis.result))
            accuracy, counts = review["accuracy"], review["counts"]
            review["summary"] = [
                {
                    "colour": p["colour"],
                    "name": p["name"],
                    "accuracy": accuracy[str(p["side"])],
                    **counts[str(p["side"])],
                }
                for p in players
            ]
    return review


def better_frame(match: Match, ply: int, analysis: Analysis | None, *, held: bool = False) -> dict[str, Any] | None:
    """The replay's frame of move ``ply``'s better move (``?lepszy=1``): the position before the
    move with the reviewer's move marked; None when the stored review (``analysis``:
    selectors.analysis_for) names none, or is ``held`` (selectors.held: the live-position guard)."""
    done = analysis is not None and analysis.status == analysis.Status.DONE and not held
    result = analysis.result if done and analysis is not None else None
    best = result["moves"][ply - 1]["best"] if result and 0 < ply <= len(result["moves"]) else None
    if best is None:
        return None
    game = match.game()
    spec = catalogue.variant(match.variant).game_spec
    state = game.state_from_history(match.history[: ply - 1])
    pink, blue = state.scores()
    return {
        "ply": ply,
        "svg": render_board(state.view(), game.slug, lang=get_language(), highlight=spec.board.marks(game, [best])),
        "move": game.action_to_string(best),
        "scores": [pink, blue],
        "better": True,
    }
