"""The refusal codes (kropki_site/lib/refusals.py): every code a service can raise is in
one part's table, worded in Polish and in English, with an HTTP status; no code twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise

from games import catalogue
from kropki_site.lib import refusals
from kropki_site.lib.refusals import Refusal

STATUSES = {400, 401, 403, 404, 405, 429, 503}
# Refusal("code"...) in the site's code: a code written out where it is raised.
RAISED = re.compile(r'Refusal\(\s*"([a-z0-9_]+)"')


def _site_tables() -> set[str]:
    """The tables of the site's parts and of its own games (not a test's game)."""
    tables = {entry.table for entry in refusals.registered().values() if not entry.table.startswith("game ")}
    for spec in catalogue.games():
        if type(spec.engine).__module__.startswith("games."):
            tables.add(f"game {spec.slug}")
    return tables


def test_every_code_a_service_raises_is_registered():
    root = Path(settings.BASE_DIR)
    raised: dict[str, str] = {}
    for folder in ("games", "accounts", "kropki_site"):
        for path in (root / folder).rglob("*.py"):
            for code in RAISED.findall(path.read_text()):
                raised.setdefault(code, str(path.relative_to(root)))
    assert len(raised) > 60
    unknown = {code: where for code, where in raised.items() if code not in refusals.registered()}
    assert not unknown, f"raised but in no table: {unknown}"


def test_every_code_has_words_in_both_languages_and_a_status():
    tables = _site_tables()
    codes = [entry for entry in refusals.registered().values() if entry.table in tables]
    assert {"match", "chat", "challenges", "frames", "api", "tournaments", "review", "tokens"} <= tables
    assert len(codes) >= 88
    for entry in codes:
        assert isinstance(entry.words, Promise), entry  # worded where it is read, in that language
        assert entry.status in STATUSES, entry
        with translation.override("en"):
            english = Refusal(entry.code).message
        with translation.override("pl"):
            polish = Refusal(entry.code).message
        assert english and english != entry.code, entry
        assert polish and polish != english, (entry, "no Polish in locale/pl/LC_MESSAGES/django.po")


def test_a_code_registered_twice_is_refused():
    refusals.register("test once", {"test_refusal_once": ("Once.", 400)})
    try:
        with pytest.raises(ValueError, match="test_refusal_once"):
            refusals.register("test twice", {"test_refusal_new": ("New.", 400), "test_refusal_once": ("Again.", 409)})
        assert "test_refusal_new" not in refusals.registered()  # nothing of the refused table was added
        with pytest.raises(ValueError, match="not_found"):
            refusals.register("test a site code", {"not_found": ("Mine.", 404)})
        with pytest.raises(ValueError, match="already registered"):
            refusals.register("test once", {"test_refusal_other": ("Other.", 400)})
        assert refusals.status("test_refusal_once") == 400 and Refusal("test_refusal_once").message == "Once."
    finally:
        refusals.forget("test once")
    assert "test_refusal_once" not in refusals.registered()
    assert refusals.registered()["not_found"].table == "match"


def test_the_status_and_words_come_from_the_codes_table():
    assert Refusal("token_missing").status == 401
    assert Refusal("too_many_streams").status == 429
    assert Refusal("server_unavailable").status == 503
    assert Refusal("chat_empty").status == 400
    assert Refusal("nobody_words_this").status == 400 and Refusal("nobody_words_this").message == "nobody_words_this"
    with translation.override("en"):
        assert Refusal("chat_empty", "Own words.").message == "Own words."
        assert Refusal("column_full").message == "This column is full."  # a game's own (GameSpec.error_words)
