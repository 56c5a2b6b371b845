"""A rating-history chart as a server-rendered SVG string (no JavaScript).

Axes with labelled ticks (rating on the left, dates below), the line of the
rating after each game, and a text alternative: ``<title>`` and ``<desc>``
referenced by ``aria-labelledby``. Pages add a visually hidden table of the
points next to it. Styling comes from classes (static/css/ranked.css): no
inline styles, so the page keeps a strict CSP.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime
from html import escape

# The labels' font size is set by CSS in these units (static/css/ranked.css: larger on phones,
# where the chart is drawn at about half this width): the margins leave room for it.
WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 60, 16, 14, 40
LABEL_EM = 0.6 * 21  # a digit's width at the largest label font (21 units)


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = max(span, 1.0) / ticks
    magnitude: float = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def rating_chart_svg(
    points: Sequence[tuple[datetime, float]],
    *,
    chart_id: str,
    title: str,
    description: str,
    date_format: str = "%d.%m.%Y",
    format_date: Callable[[datetime], str] | None = None,
) -> str:
    """The SVG of ``points`` (time, rating), oldest first; ``chart_id`` makes the ids unique on the page.
    ``format_date`` writes a label's date (the page's own short date format); else ``date_format``."""
    cid = escape(chart_id, quote=True)
    head = (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{cid}-title {cid}-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{cid}-title">{escape(title)}</title><desc id="{cid}-desc">{escape(description)}</desc>'
    )
    if not points:
        return head + "</svg>"
    ratings = [r for _t, r in points]
    low, high = min(ratings), max(ratings)
    step = _nice_step(high - low if high > low else 100.0)
    y_min = math.floor((low - step / 2) / step) * step
    y_max = math.ceil((high + step / 2) / step) * step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = len(points)

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(r: float) -> float:
        return TOP + plot_h * (1 - (r - y_min) / (y_max - y_min))

    parts = [head, '<g class="chart-grid">']
    tick = y_min
    while tick <= y_max + 1e-9:
        ty = y(tick)
        parts.append(f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}"/>')
        parts.append(f'<text class="chart-label" x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{tick:.0f}</text>')
        tick += step
    parts.append("</g>")
    # Axes.
    parts.append(
        f'<g class="chart-axis"><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>'
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}"/></g>'
    )
    # Date labels: first, middle, last, each a different date (games of one day share a label).
    fmt = format_date or (lambda at: at.strftime(date_format))
    texts = [fmt(at) for at, _r in points]
    label_at = [0]
    if texts[-1] != texts[0]:
        label_at.append(n - 1)
        # ... and clear of the end labels (widths guessed for the phones' large font).
        room = 1.5 * LABEL_EM * max(len(t) for t in texts) + 8
        between = [
            i
            for i in range(1, n - 1)
            if texts[i] not in (texts[0], texts[-1]) and LEFT + room <= x(i) <= WIDTH - RIGHT - room
        ]
        if between:
            label_at.insert(1, min(between, key=lambda i: abs(i - (n - 1) / 2)))
    for i in label_at:
        anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
        parts.append(
            f'<text class="chart-label" x="{x(i):.1f}" y="{HEIGHT - 10}" text-anchor="{anchor}">'
            f"{escape(texts[i])}</text>"
        )
    coords = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (_t, r) in enumerate(points))
    parts.append(f'<polyline class="chart-line" points="{coords}" fill="none"/>')
    lx, ly = x(n - 1), y(ratings[-1])
    parts.append(f'<circle class="chart-last" cx="{lx:.1f}" cy="{ly:.1f}" r="4"/>')
    parts.append("</svg>")
    return "".join(parts)
