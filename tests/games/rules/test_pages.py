"""Rules pages and the home page: both languages, no untranslated text, anchors, diagrams."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games import catalogue
from games.engine.base import ERROR_CODES
from games.selectors import live_summary
from games.views.rules import draw_diagram, rule_anchor, rule_fragment, rule_url
from kropki_site.lib.refusals import Refusal

RULES_SLUGS = {spec.slug: spec.rules_slug for spec in catalogue.games()}
SECTIONS = {spec.slug: spec.sections for spec in catalogue.games()}
RULE_ANCHORS = {spec.slug: spec.rule_anchors for spec in catalogue.games()}
DIAGRAMS = {d.key: d for spec in catalogue.games() for d in spec.diagrams}

pytestmark = pytest.mark.django_db

RULE_SLUGS = [spec.rules_slug for spec in catalogue.games()]
PAGES = [reverse("home"), reverse("rules_index")] + [reverse("rules", args=[s]) for s in RULE_SLUGS]
TEMPLATES = Path(settings.BASE_DIR) / "templates"

# Words that only ever appear in one of the two languages' running text.
POLISH_ONLY = {
    "się",
    "jest",
    "nie",
    "oraz",
    "gdy",
    "albo",
    "tylko",
    "twoja",
    "twój",
    "kropka",
    "ruch",
    "zasady",
    "gra",
    "graj",
    "plansza",
    "przeciwnik",
    "przeciwnika",
    "może",
    "każdy",
    "partia",
    "wygrywa",
    "remis",
    "zegar",
    "źródła",
    "pomyłki",
    "kwadrat",
    "odcinek",
    "ciąg",
    "państwo",
    "teraz",
}
ENGLISH_ONLY = {
    "the",
    "and",
    "you",
    "your",
    "is",
    "are",
    "with",
    "move",
    "rules",
    "play",
    "game",
    "board",
    "dots",
    "opponent",
    "draw",
    "wins",
    "sources",
    "clock",
    "playing",
    "watching",
    "now",
    "read",
}


class VisibleText(HTMLParser):
    """Collect the text a reader sees, skipping <script>/<style>, SVG internals
    (checked separately) and anything marked with a different ``lang``."""

    def __init__(self, lang: str):
        super().__init__()
        self.lang = lang
        self.skip_stack: list[str] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.skip_stack:
            if tag not in ("br", "img", "input", "meta", "link", "hr", "circle", "rect", "line", "path", "polygon"):
                self.skip_stack.append(tag)
            return
        foreign = attrs.get("lang") and attrs["lang"] != self.lang and tag != "html"
        if tag in ("script", "style", "svg") or foreign:
            self.skip_stack.append(tag)

    def handle_endtag(self, tag):
        if self.skip_stack and self.skip_stack[-1] == tag:
            self.skip_stack.pop()

    def handle_data(self, data):
        if not self.skip_stack:
            self.parts.append(data)

    def words(self) -> set[str]:
        return {w.lower() for w in re.findall(r"[^\W\d_]+", " ".join(self.parts))}


def get(client, url: str, lang: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Language"] == lang
    return response.content.decode()


@pytest.mark.parametrize("lang", ["pl", "en"])
@pytest.mark.parametrize("url", PAGES)
def test_page_renders_in_both_languages(client, url, lang):
    html = get(client, url, lang)
    assert f'<html lang="{lang}">' in html


@pytest.mark.parametrize("url", PAGES)
def test_no_untranslated_words(client, url):
    for lang, foreign in (("pl", ENGLISH_ONLY), ("en", POLISH_ONLY)):
        parser = VisibleText(lang)
        parser.feed(get(client, url, lang))
        leaked = parser.words() & foreign
        assert not leaked, f"{url} [{lang}] shows words of the other language: {sorted(leaked)}"


def _template_msgids() -> set[str]:
    ids = set()
    for path in [
        TEMPLATES / "games/home.html",
        TEMPLATES / "games/rules_index.html",
        TEMPLATES / "games/rules/page.html",
    ]:
        ids.update(re.findall(r'{%\s*translate\s+"([^"]+)"', path.read_text(encoding="utf-8")))
    return ids


def _unquote(text: str) -> str:
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text)).replace('\\"', '"')


def _po_entries(path: Path) -> dict[str, tuple[str, bool]]:
    entries = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fuzzy = "#, fuzzy" in block
        m_id = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        m_str = re.search(r'^msgstr ((?:".*"\n?)+)', block, re.M)
        if not m_id or not m_str:
            continue
        entries[_unquote(m_id.group(1))] = (_unquote(m_str.group(1)), fuzzy)
    return entries


def test_every_template_msgid_has_a_polish_translation():
    entries = _po_entries(Path(settings.BASE_DIR) / "locale/pl/LC_MESSAGES/django.po")
    for msgid in _template_msgids():
        assert msgid in entries, f"{msgid!r} is missing from locale/pl (run scripts/messages)"
        text, fuzzy = entries[msgid]
        assert text and not fuzzy, f"{msgid!r} has no Polish translation"


@pytest.mark.parametrize("slug", RULE_SLUGS)
def test_each_language_has_its_own_rules_template(slug):
    pl = (TEMPLATES / f"games/rules/{slug}.pl.html").read_text(encoding="utf-8")
    en = (TEMPLATES / f"games/rules/{slug}.en.html").read_text(encoding="utf-8")
    for text in (pl, en):
        assert "TODO" not in text and "{% translate" not in text
    # The same sections and the same diagrams in both languages.
    assert re.findall(r'id="([a-z-]+)"', pl) == re.findall(r'id="([a-z-]+)"', en)
    assert re.findall(r"diagram=d\.(\w+)", pl) == re.findall(r"diagram=d\.(\w+)", en)


@pytest.mark.parametrize("slug", RULE_SLUGS)
def test_rules_page_has_every_anchor_errors_link_to(client, slug):
    engine = {v: k for k, v in RULES_SLUGS.items()}[slug]
    for lang in ("pl", "en"):
        html = get(client, reverse("rules", args=[slug]), lang)
        ids = set(re.findall(r'\sid="([^"]+)"', html))
        for section in SECTIONS[engine]:
            assert section in ids, f"{slug} [{lang}] lacks #{section}"
        for anchor in RULE_ANCHORS[engine].values():
            assert anchor in ids


@pytest.mark.parametrize("slug", RULE_SLUGS)
def test_rules_page_shows_every_diagram_of_its_game(client, slug):
    engine = {v: k for k, v in RULES_SLUGS.items()}[slug]
    keys = [k for k, d in DIAGRAMS.items() if d.slug == engine]
    for lang in ("pl", "en"):
        html = get(client, reverse("rules", args=[slug]), lang)
        for key in keys:
            assert f'id="diagram-{key}"' in html, f"{key} is not shown on {slug} [{lang}]"
            with translation.override(lang):
                caption = translation.gettext(DIAGRAMS[key].caption)
            assert caption in html.replace("&#x27;", "'").replace("&quot;", '"')
        assert html.count("<svg") >= len(keys)


def test_rules_pages_cite_their_sources(client):
    kropki = get(client, reverse("rules", args=["kropki"]), "pl")
    assert "zagram.org" in kropki and "Dots_(game)" in kropki and "pointsgame/oppai-rs" in kropki
    c4 = get(client, reverse("rules", args=["cztery-w-rzedzie"]), "pl")
    assert "Hasbro" in c4 and "znakiem towarowym" in c4
    c4_en = get(client, reverse("rules", args=["cztery-w-rzedzie"]), "en")
    assert "trademark" in c4_en


def test_service_rules_are_marked_as_such(client):
    """The site's own decisions (the clock, abort, our endings) sit in the
    "Zasady tego serwisu" section, not elsewhere on the page."""
    for slug, facts in {
        "kropki": ["60 sekund", "anulowan"],
        "cztery-w-rzedzie": ["60 sekund", "przegrywa", "anulowan", "69"],
        "kropki-i-kwadraty": ["60 sekund", "przegrywa", "anulowan", "13"],
        "pilkarzyki": ["60 sekund", "anulowan"],
    }.items():
        html = get(client, reverse("rules", args=[slug]), "pl")
        service = html[html.index('id="zasady-serwisu"') : html.index('id="pomylki"')]
        for fact in facts:
            assert fact in service, (slug, fact)


def test_unknown_game_has_no_rules_page(client):
    assert client.get(reverse("rules", args=["szachy"])).status_code == 404


def test_every_engine_error_code_links_to_a_rule():
    for spec in catalogue.games():
        assert set(ERROR_CODES) <= set(spec.engine.error_codes)
        for code in spec.engine.error_codes:
            anchor = rule_anchor(spec.slug, code)
            assert anchor in SECTIONS[spec.slug], (spec.slug, code)


def test_every_engine_error_code_has_words():
    """The site words the contract's codes; a game words its own (GameSpec.error_words)."""
    for spec in catalogue.games():
        for code in spec.engine.error_codes:
            assert Refusal(code).message != code, (spec.slug, code)
    assert rule_anchor("connect4", "column_full") == "kolumny"
    assert rule_anchor("kropki", "inside_territory") == "poza-gra"
    assert rule_fragment("kropki-i-kwadraty", "segment_drawn") == ("kropki-i-kwadraty", "odcinki")
    assert rule_fragment("szachy", "occupied") is None


def test_home_page_has_the_games_and_the_buttons(client):
    html = get(client, reverse("home"), "pl")
    for slug in RULE_SLUGS:
        assert reverse("rules", args=[slug]) in html
    assert html.count('class="board ') >= len(RULE_SLUGS)
    for name in ("lobby", "play_computer", "rules_index"):
        assert f'href="{reverse(name)}"' in html
    assert 'data-testid="playing-count"' in html and 'data-testid="watching-count"' in html


def test_live_summary_counts_active_matches(alice, bob, charlie):
    from games.models import Match

    assert live_summary()["playing"] == 0
    Match.objects.create(variant="kropki-10", pink=alice, blue=bob)
    Match.objects.create(variant="cztery-w-rzedzie", pink=charlie, bot_level="latwy")
    Match.objects.create(variant="kropki-10", pink=bob, blue=charlie, status=Match.Status.FINISHED)
    summary = live_summary()
    assert summary["playing"] == 2  # the computer game is neither counted nor listed
    assert [(m["pink"], m["blue"]) for m in summary["matches"]] == [("alice", "bob")]
    assert summary["matches"][0]["url"]


@pytest.mark.parametrize("key", sorted(DIAGRAMS))
def test_diagram_pictures_speak_the_page_language(key):
    for lang, foreign in (("pl", ENGLISH_ONLY), ("en", POLISH_ONLY)):
        drawn = draw_diagram(catalogue.game_spec(DIAGRAMS[key].slug), DIAGRAMS[key], lang)
        text = " ".join(re.findall(r"<(?:title|desc)>([^<]*)<", drawn["before"] + drawn["after"]))
        text += " " + " ".join(re.findall(r'aria-label="([^"]*)"', drawn["before"] + drawn["after"]))
        text += " " + drawn["caption"]
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
        assert not words & foreign, (key, lang, sorted(words & foreign))


def test_rule_url_points_at_a_section_of_the_rules_page(client):
    url = rule_url("connect4", "column_full")
    assert url == "/zasady/cztery-w-rzedzie/#kolumny"
    page, anchor = url.split("#")
    assert f'id="{anchor}"' in get(client, page, "pl")
    assert rule_url("kropki", "inside_territory") == "/zasady/kropki/#poza-gra"
    assert rule_url("szachy", "occupied") is None


@pytest.mark.parametrize("slug", RULE_SLUGS)
def test_the_clock_is_worded_from_move_seconds(client, settings, slug):
    """The site's own rules say settings.MOVE_SECONDS, not a number written into the prose."""
    settings.MOVE_SECONDS = 45
    for lang, said, old in (("pl", "45 sekund", "60 sekund"), ("en", "45 seconds", "60 seconds")):
        html = get(client, reverse("rules", args=[slug]), lang)
        service = html[html.index('id="zasady-serwisu"') : html.index('id="pomylki"')]
        assert said in service and old not in html, (slug, lang)


@pytest.mark.parametrize(
    ("seconds", "heading", "sentence"),
    [
        (1, "1 sekunda na ruch", "masz 1 sekundę"),
        (2, "2 sekundy na ruch", "masz 2 sekundy"),
        (5, "5 sekund na ruch", "masz 5 sekund"),
        (12, "12 sekund na ruch", "masz 12 sekund"),
        (22, "22 sekundy na ruch", "masz 22 sekundy"),
        (90, "90 sekund na ruch", "masz 90 sekund"),
    ],
)
def test_the_clock_speaks_polish_with_any_number(client, settings, seconds, heading, sentence):
    settings.MOVE_SECONDS = seconds
    html = get(client, reverse("rules", args=["kropki"]), "pl")
    assert heading in html and sentence in html
    en = get(client, reverse("rules", args=["kropki"]), "en")
    assert (f"{seconds} second a move" if seconds == 1 else f"{seconds} seconds a move") in en


def test_timeout_wording_follows_the_engine_end_action(client):
    """A game with an "end" action (Kropki) plays it on a timeout; the others lose."""
    for spec in catalogue.games():
        html = get(client, reverse("rules", args=[spec.rules_slug]), "pl")
        service = html[html.index('id="zegar"') : html.index('id="pomylki"')]
        has_end = spec.variants[0].game().end_action is not None
        assert ("<strong>zakończenie gry</strong>" in service) == has_end, spec.slug
        assert ("<strong>przegrywa</strong>" in service) != has_end, spec.slug


def test_no_rules_template_writes_the_move_time_out():
    for path in (TEMPLATES / "games/rules").glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "60 sekund" not in text and "60 seconds" not in text, path.name
