"""Fill locale/pl/LC_MESSAGES/django.po from the PL table below (run after makemessages).

The tables are the source: an entry there replaces the msgstr in the .po (so
a corrected translation reaches the catalogue), and msgmerge's fuzzy guesses
are never kept. Prints msgids still untranslated.
Usage: .venv/bin/python scripts/fill_po.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

PL = {
    "Accounts": "Konta",
    "E-mail": "E-mail",
    "This username is already taken.": "Ta nazwa użytkownika jest już zajęta.",
    "Incorrect username or password. Note that both fields may be case-sensitive.": "Niepoprawna nazwa użytkownika lub hasło.",
    "Polish": "polski",
    "English": "angielski",
    "e-mail address": "adres e-mail",
    "language": "język",
    "user": "użytkownik",
    "users": "użytkownicy",
    "Welcome, %(name)s! Your account is ready.": "Witaj, %(name)s! Twoje konto jest gotowe.",
    "Settings saved.": "Ustawienia zapisane.",
    "Games": "Gry",
    "Kropki": "Kropki",
    "Kropki i kwadraty": "Kropki i kwadraty",
    "Cztery w rzędzie": "Cztery w rzędzie",
    "Play": "Graj",
    "Play the computer": "Graj z komputerem",
    "Ratings": "Rankingi",
    "Ranking": "Ranking",
    "Too many failed attempts": "Zbyt wiele nieudanych prób",
    "Logging in to this account from your address is blocked for %(minutes)s minutes after repeated failed attempts. Try again later or reset your password.": "Po wielu nieudanych próbach logowanie na to konto z Twojego adresu jest zablokowane na %(minutes)s minut. Spróbuj ponownie później albo ustaw nowe hasło.",
    "Reset your password": "Ustaw nowe hasło",
    "Log in": "Zaloguj się",
    "Forgot your password?": "Nie pamiętasz hasła?",
    "No account yet?": "Nie masz jeszcze konta?",
    "Sign up": "Załóż konto",
    "Change password": "Zmień hasło",
    "Password changed": "Hasło zmienione",
    "Your password has been changed.": "Twoje hasło zostało zmienione.",
    "Reset password": "Nowe hasło",
    "Enter the e-mail address of your account and we will send you a link to set a new password.": "Podaj adres e-mail swojego konta, a wyślemy link do ustawienia nowego hasła.",
    "Send the link": "Wyślij link",
    "Password set": "Hasło ustawione",
    "Your new password is set. You can log in now.": "Nowe hasło jest ustawione. Możesz się teraz zalogować.",
    "Set a new password": "Ustaw nowe hasło",
    "Set password": "Ustaw hasło",
    "This link is invalid or has already been used. Ask for a new one.": "Ten link jest nieważny albo został już użyty. Poproś o nowy.",
    "Check your e-mail": "Sprawdź pocztę",
    "If an account uses this address, we have sent it a link to set a new password. It may take a few minutes to arrive.": "Jeśli jakieś konto używa tego adresu, wysłaliśmy na niego link do ustawienia nowego hasła. Wiadomość może dotrzeć po kilku minutach.",
    "Someone asked to set a new password for your Kropki account.": "Ktoś poprosił o ustawienie nowego hasła do Twojego konta w Kropkach.",
    "Your username:": "Twoja nazwa użytkownika:",
    "Open this link to choose a new password:": "Otwórz ten link, aby wybrać nowe hasło:",
    "If it was not you, ignore this message.": "Jeśli to nie Ty, zignoruj tę wiadomość.",
    "Kropki: set a new password": "Kropki: ustaw nowe hasło",
    "Settings": "Ustawienia",
    "Save": "Zapisz",
    "Create account": "Załóż konto",
    "Already have an account?": "Masz już konto?",
    "Kropki — board games online": "Kropki — gry planszowe online",
    "Skip to content": "Przejdź do treści",
    "Main menu": "Menu główne",
    "Rules": "Zasady",
    "Account": "Konto",
    "Log out": "Wyloguj się",
    "Kropki — Polish board games online.": "Kropki — polskie gry planszowe online.",
    "Coming soon.": "Już wkrótce.",
    "Board games online": "Gry planszowe online",
    "Play Kropki, Kropki i kwadraty and Cztery w rzędzie live against people or the computer.": "Graj w Kropki, Kropki i kwadraty oraz Cztery w rzędzie na żywo z ludźmi albo z komputerem.",
    "Create an account": "Załóż konto",
    "Username": "Nazwa użytkownika",
    "Password": "Hasło",
    "Language": "Język",
}


def unquote(lines: list[str]) -> str:
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', " ".join(lines))).replace('\\"', '"').replace("\\n", "\n")


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _unfuzzy(line: str) -> str:
    """A "#, fuzzy, python-format" flags line without "fuzzy"."""
    if not line.startswith("#,"):
        return line
    flags = [f.strip() for f in line[2:].split(",") if f.strip() and f.strip() != "fuzzy"]
    return "#, " + ", ".join(flags) if flags else "#,"


def fill(path: Path, table: dict[str, str]) -> list[str]:
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    missing = []
    out = []
    for block in blocks:
        lines = block.split("\n")
        try:
            i_id = next(i for i, line in enumerate(lines) if line.startswith("msgid "))
            i_str = next(i for i, line in enumerate(lines) if line.startswith("msgstr "))
        except StopIteration:
            out.append(block)
            continue
        msgid = unquote(lines[i_id:i_str])
        msgstr = unquote(lines[i_str:])
        # msgmerge's guess from a similar msgid ("#, fuzzy, python-format"): never trust it
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines[:i_id])
        if msgid and msgid in table:
            head = [_unfuzzy(line) for line in lines[:i_id] if not line.startswith("#|")]
            head = [line for line in head if line != "#,"]
            lines = head + lines[i_id:i_str] + [f"msgstr {quote(table[msgid])}"]
        elif msgid and (not msgstr or fuzzy):
            missing.append(msgid)
        out.append("\n".join(lines))
    path.write_text("\n\n".join(out), encoding="utf-8")
    return missing


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    # Each area may keep its own table as locale/pl-tables/<area>.json.
    for table in sorted((root / "locale" / "pl-tables").glob("*.json")):
        PL.update(json.loads(table.read_text(encoding="utf-8")))
    missing = fill(root / "locale/pl/LC_MESSAGES/django.po", PL)
    for msgid in missing:
        print("untranslated:", msgid)
    sys.exit(0)
