"""Fair play's data as staff read it: a flag's evidence as lines with links to the games (no queries)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _


def evidence_lines(evidence: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line a game of the evidence (games/fairplay/models.py, ``FairPlayFlag.evidence``):
    its record's address and what it holds."""
    return [
        {
            "match": item["match"],
            "url": reverse("record", args=[item["match"]]),
            "positions": item.get("positions", 0),
            "best": item.get("best", 0),
            "plies": ", ".join(str(p) for p in item.get("plies", [])),
            "think_s": ", ".join(f"{t:g}" for t in item.get("think_s", [])),
        }
        for item in evidence
        if "match" in item
    ]


def evidence_html(evidence: list[dict[str, Any]]) -> SafeString:
    """The evidence as a list of links to the games' records (the flag's page in the admin)."""
    lines = evidence_lines(evidence)
    if not lines:
        return format_html("{}", "—")
    items = format_html_join(
        "",
        '<li><a href="{}">{}</a>: {}</li>',
        (
            (
                line["url"],
                _("game %(match)s") % {"match": line["match"]},
                _(
                    "the computer's best in %(best)s of %(positions)s positions that matter "
                    "(plies %(plies)s); think times %(times)s s"
                )
                % {
                    "best": line["best"],
                    "positions": line["positions"],
                    "plies": line["plies"] or "—",
                    "times": line["think_s"] or "—",
                },
            )
            for line in lines
        ),
    )
    return format_html("<ul>{}</ul>", items)
