"""Every URL pattern of the site, read from the resolver, so that tests which
iterate over it cover pages added later without being edited."""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

from django.urls import URLPattern, URLResolver, get_resolver

SKIP_PREFIXES = ("admin/",)  # Django's own admin: not our forms


@dataclass(frozen=True)
class Route:
    name: str
    route: str  # e.g. "partia/<int:match_id>/"
    kwargs: tuple[tuple[str, str], ...]  # (name, converter class name)

    def __str__(self) -> str:
        return self.name


def routes() -> list[Route]:
    def walk(patterns, prefix: str = ""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                converters = tuple((name, type(conv).__name__) for name, conv in pattern.pattern.converters.items())
                yield Route(pattern.name or prefix + str(pattern.pattern), prefix + str(pattern.pattern), converters)

    found = [r for r in walk(get_resolver().url_patterns) if not r.route.startswith(SKIP_PREFIXES)]
    return sorted({r.name: r for r in found}.values(), key=lambda r: r.name)


class FormScanner(HTMLParser):
    """The forms of a page: method, action, field names and the values offered (options, radios, hidden)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"method": (a.get("method") or "get").lower(), "action": a.get("action"), "fields": {}})
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag in ("input", "select", "textarea", "button") and self.forms and a.get("name"):
            values = self.forms[-1]["fields"].setdefault(a["name"], [])
            if a.get("value") is not None:
                values.append(a["value"])
            self._select = a["name"] if tag == "select" else None
        elif tag == "option" and self.forms and getattr(self, "_select", None) and a.get("value") is not None:
            self.forms[-1]["fields"][self._select].append(a["value"])


def scan(html: str) -> FormScanner:
    scanner = FormScanner()
    scanner.feed(html)
    return scanner
