"""The API's help page: docs/api.md, the one description of the API, rendered as a page
(markdown-it-py, raw HTML off), linked from the settings page's tokens (issue 41)."""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString
from markdown_it import MarkdownIt


@cache
def _api_html() -> SafeString:
    text = (settings.BASE_DIR / "docs" / "api.md").read_text(encoding="utf-8")
    # "commonmark" with tables; html=False: any HTML in the file is shown as text, never run
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    html: str = md.render(text)
    return SafeString(html)  # markdown-it escapes the text itself (html=False)


def api_help(request: HttpRequest) -> HttpResponse:
    return render(request, "games/api_help.html", {"doc": _api_html()})
