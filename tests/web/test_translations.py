"""The Polish catalogue: every msgid translated, nothing fuzzy, in step with the
sources, and no verb forms that fit only men."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PO = ROOT / "locale" / "pl" / "LC_MESSAGES" / "django.po"


def _unquote(lines: list[str]) -> str:
    text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', " ".join(lines)))
    return text.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file (not the header, not obsolete "#~" ones):
    ``msgctxt``, ``msgid``, ``msgstr`` and ``flags``."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.strip().split("\n") if line and not line.startswith("#~")]
        fields: dict[str, list[str]] = {}
        flags: set[str] = set()
        key: str | None = None
        for line in lines:
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                assert key is not None, line
                fields[key].append(line)
            else:
                key, _, rest = line.partition(" ")
                fields[key] = [rest]
        if "msgid" not in fields or not _unquote(fields["msgid"]):
            continue
        entries.append(
            {
                "msgctxt": _unquote(fields["msgctxt"]) if "msgctxt" in fields else None,
                "msgid": _unquote(fields["msgid"]),
                "msgstr": [_unquote(v) for k, v in fields.items() if k.startswith("msgstr")],
                "flags": flags,
            }
        )
    return entries


def test_every_msgid_has_a_polish_translation_and_none_is_fuzzy():
    entries = read_po(PO)
    assert len(entries) > 200
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"])]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert not untranslated, f"no Polish (write it into locale/pl/LC_MESSAGES/django.po): {untranslated}"
    assert not fuzzy, f"fuzzy (a guess from another msgid): {fuzzy}"


def _makemessages_args() -> list[str]:
    """The arguments scripts/messages gives makemessages (so both read the same files)."""
    script = (ROOT / "scripts" / "messages").read_text().replace("\\\n", " ")
    line = next(line for line in script.splitlines() if " makemessages " in line)
    args = shlex.split(line)
    return args[args.index("makemessages") + 1 :]


def test_the_catalogue_is_in_step_with_the_sources(tmp_path):
    """makemessages over a copy of the tree finds exactly the msgids of the
    committed catalogue: none missing (shown in English), none left over."""
    copy = tmp_path / "tree"
    skip = shutil.ignore_patterns(".git", ".venv", "node_modules", "staticfiles", "var", "tests", "__pycache__", "*.mo")
    shutil.copytree(ROOT, copy, ignore=skip)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kropki_site.settings"}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", *_makemessages_args()],
        cwd=copy,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    key = lambda e: (e["msgctxt"], e["msgid"])  # noqa: E731
    wanted = {key(e) for e in read_po(copy / "locale" / "pl" / "LC_MESSAGES" / "django.po")}
    have = {key(e) for e in read_po(PO)}
    assert len(wanted) > 200
    assert not wanted - have, f"in the sources, not in the catalogue (run ./scripts/messages): {wanted - have}"
    assert not have - wanted, f"in the catalogue, no longer in the sources (run ./scripts/messages): {have - wanted}"


# Past tense in the first or second person ("zakończyłeś", "zamknąłem", and the
# feminine "-łaś", "-łam"), conditionals ("jakbyś zakończył"), and a named player
# or the opponent in the masculine past ("%(name)s zakończył", "przeciwnik się poddał").
GENDERED = re.compile(
    r"\w+ł(?:eś|em|aś|am|byś|bym)\b"
    r"|\b(?:gdybyś|jakbyś|żebyś|abyś)\s+\w+ł\b"
    r"|(?:%\(name\)s|przeciwnik|rywal)\s+(?:się\s+|już\s+)?\w+ł\b",
    re.IGNORECASE,
)


# A word for one person that fits only a man (or only a woman): a name with a masculine
# noun before it ("Zagraj z graczem %(name)s", "Zgłoś gracza %(name)s"), "tego gracza" for
# someone in particular, a masculine label beside a name ("zwycięzca") or for the reader
# ("Niewidoczny", "ostatnio widziany"), "grać dalej sam" (issue 25 item 12). Generic roles
# ("gracze", "przeciwnik może grać dalej") are fine.
GENDERED_WORDS = re.compile(
    r"\b(?:gracz|graczem|gracza|graczowi|przeciwnik|przeciwnikiem|przeciwnika|użytkownik|użytkownika|użytkownikiem)"
    r"\s+%\(name\)s"
    r"|\b(?:tego|temu|tym|ten)\s+(?:gracza|graczowi|graczem|gracz|przeciwnika|przeciwnikiem|użytkownika)\b"
    r"|\b(?:zwycięzca|zwycięzcą|przegrany|przegranym|niewidoczny|niewidoczna|widziany|widziana|zalogowany"
    r"|zalogowana|wylogowany|wylogowana|gotowy|gotowa|pewien|pewna)\b"
    r"|\b(?:dalej|gra|grać|zostaje)\s+(?:sam|sama)\b",
    re.IGNORECASE,
)


def _polish_texts() -> list[tuple[str, str]]:
    """Every Polish sentence a visitor may read: the catalogue, the Polish templates,
    and Polish written into code (the board's words, the rules' pictures)."""
    texts = [("django.po", s) for e in read_po(PO) for s in e["msgstr"]]
    for pattern in ("templates/**/*.html", "games/**/*.py", "accounts/*.py", "ratings/*.py", "static/js/*.js"):
        for path in sorted(ROOT.glob(pattern)):
            texts.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return texts


def test_polish_fits_every_player_whatever_their_gender():
    texts = _polish_texts()
    assert len(texts) > 200
    found = [
        (where, m.group(0))
        for where, text in texts
        for pattern in (GENDERED, GENDERED_WORDS)
        for m in pattern.finditer(text)
    ]
    assert not found, f"masculine-only (or feminine-only) forms: {found}"


def test_the_gender_check_catches_what_it_is_for():
    for text in [
        "Zakończyłeś grę.",
        "Zamknąłeś kwadrat.",
        "%(name)s zakończył grę.",
        "Zamknąłem pustą pętlę.",
        "przeciwnik się poddał",
        "jakbyś zakończył grę",
        "Zakończyłaś grę.",
    ]:
        assert GENDERED.search(text), text
    for text in [
        "Łucja_Kowalska zwycięzca",
        "Zagraj z graczem %(name)s",
        "Zgłoś gracza %(name)s",
        "Niewidoczny",
        "ostatnio widziany",
        "Nie możesz pisać do tego gracza.",
        "przeciwnik może grać dalej sam.",
    ]:
        assert GENDERED_WORDS.search(text), text
    for text in [
        "Zagraj: %(name)s",
        "Zgłoś: %(name)s",
        "Tryb niewidoczności",
        "gracze online",
        "przeciwnik może grać dalej samodzielnie",
        "ten sam kolor",
        "Twoje konto jest gotowe",
    ]:
        assert not GENDERED_WORDS.search(text), text
    for text in [
        "Gra zakończona przez Ciebie.",
        "%(name)s: koniec gry.",
        "Kwadrat zamknięty: grasz jeszcze raz.",
        "druga strona się poddała",
        "Czas na ruch minął.",
        "przeciwnikowi skończył się czas",
    ]:
        assert not GENDERED.search(text), text


# Polish that read wrong once (issue 25 item 13): every Polish text a visitor may read is
# checked for them, so none comes back. Each with what reads right instead.
BAD_POLISH = {
    "martwych jest wszystkie": "martwe są wszystkie 69 linii",
    "parzyście wiele": "liczba … była parzysta",
    "nie liczą się mi": "nie dają mi punktów",
    "obszar to najciaśniejsza pętla": "obszar to wnętrze najciaśniejszej pętli",
    "sprawdzone przez silnik": "z obrazkami planszy",
    "Nasz silnik zgadza się": "Nasze zasady dają … ten sam wynik",
    "wygrana na punkty": "Wygrywają niebieskie na punkty.",
    "Wymagana. 150 lub mniej znaków": "our own help text (accounts/forms.py)",
    "do twoich innych danych": "our own help text",
    "GM[40]": "Plik SGF dla programów do gry w kropki",
}


def test_polish_reads_right():
    # the catalogue's Polish and the templates (not code, whose comments may quote the old words)
    texts = [(where, text) for where, text in _polish_texts() if where == "django.po" or where.endswith(".html")]
    found = [(where, bad, BAD_POLISH[bad]) for where, text in texts for bad in BAD_POLISH if bad in text]
    assert not found, f"wording fixed before (where, wrong, right): {found}"


def test_every_ending_is_words_in_both_languages_never_a_code():
    """The live pages' table words every (status, winner, reason), also pairs no game stores:
    none may show a raw code ("full_board", "no_line_possible") or say "wins: win"."""
    import django
    from django.utils import translation

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")
    django.setup()
    from games import catalogue
    from games.display.snapshot import result_table
    from games.models import Match

    codes = {code for code in [*Match.EndReason.values, *catalogue.end_reasons()] if "_" in code}
    assert {"full_board", "no_line_possible", "boxes_majority"} <= codes
    for lang, wins in (("pl", "Wygrywają niebieskie na punkty."), ("en", "Blue wins on score.")):
        with translation.override(lang):
            table = result_table()
        assert table["finished:2:score"] == wins
        for key, words in table.items():
            assert "_" not in words and not any(code in words for code in codes), (lang, key, words)
            assert ": win" not in words and ": wygrana" not in words, (lang, key, words)
