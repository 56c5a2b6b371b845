"""Which usernames may be taken: one look-alike per name, no reserved names.

- A username is NFKC-normalised (Django's UsernameField and ``create_user``
  already do it; ``username_clean`` does it for every path).
- Two names are the same when their *skeletons* are (Unicode TR39, "confusable
  detection"): a Cyrillic "а" in "аnia" is the "a" of "ania", "ＡＮＩＡ" is "ania".
  ``User.username_skeleton`` keeps its hash, unique in the database.
- Punctuation does not tell names apart: ``._-+@`` (and their look-alikes) are
  dropped from the skeleton, so "ania.", "ania_", "@ania" and "a.n-i_a" are "ania".
- Reserved: the guests' prefix (``GUEST_PREFIX``, with any separator or a digit after
  "gosc"), the deleted accounts' (``DELETED_PREFIX``), names of the site's staff ("admin", "moderator"...), names starting
  with ``RESERVED_PREFIXES`` ("kropki_team", "moderator2", "admin1"), and names
  without a letter or a digit (".", "..").

The skeleton: NFKC, NFD, case-folded, then every character replaced by one
representative of its confusable class. The classes come from the Unicode
confusables data shipped with ``confusable_homoglyphs`` (its data file, built
from Unicode's confusables.txt): a character and its homoglyphs are one class,
its representative the class's ASCII letter or digit when it has one. "i", "l",
"1", "I" and "|" are one class, and so are "o", "O" and "0" (they are
confusable in many fonts, and letter case is folded before the classes apply).
Combining marks are kept ("zośka" is not "zoska"); a reserved name is matched
without them ("ádmin" is "admin").

Scripts (issue 37 item 10 c): Hebrew letters and Arabic-Indic digits passed where the
confusables data has no class for them ("user\u0662" is not "user2" there). A new name's
letters all come from one script, and one of ``SCRIPTS`` (Latin with the Polish letters,
Cyrillic, Greek: ``confusable_homoglyphs.categories``, Unicode's Scripts.txt); its digits are
ASCII 0-9, no other number (Arabic-Indic, Eastern Arabic, Devanagari, superscripts...);
combining marks go with their letter ("zośka" written with U+0301). A name breaking this is
refused at sign-up and on every rename: ``MSG_CONFUSABLE`` when it looks like a taken name,
else ``MSG_SCRIPT``. Names taken before the rule stay.

Pure rules (no database): ``accounts.services.username_clean`` checks a name
against the taken ones.
"""  # noqa: RUF002 - the look-alikes (Cyrillic, full width) are the examples

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs.categories import alias as script_of
from confusable_homoglyphs.utils import load
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

GUEST_PREFIX = "gosc-"  # guests' names (accounts/guests.py); reserved for them
DELETED_PREFIX = "usuniety-"  # deleted accounts' names (accounts.services.user_anonymise); reserved
RESERVED = frozenset({"admin", "administrator", "staff", "moderator", "kropki", "system", "root", "support"})
# A staff-like name with anything after it ("kropki_team", "moderator2", "admin1"): reserved.
RESERVED_PREFIXES = ("admin", "moderator", "kropki", "support", "system")
# "gosc" followed by a separator, a digit or nothing: a guest's name ("gosc_1", "gość-x"); "goscinny" is fine.
_GUEST_LIKE = re.compile(r"^gosc(?:[._\-+@0-9]|$)")
FOLDED = frozenset("._-+@")  # punctuation that does not tell two names apart
_LRM = "\u200e"  # the data file wraps right-to-left characters in these
_ALWAYS_ONE_CLASS = ("il1|", "o0")
SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})  # the scripts a new name's letters may come from

MSG_TAKEN = _("This username is already taken.")
MSG_CONFUSABLE = _("This username looks like an existing one. Please choose another.")
MSG_RESERVED = _("This username is reserved. Please choose another.")
MSG_SCRIPT = _(
    "A username's letters must all come from one alphabet (Latin, Cyrillic or Greek), and its digits must be 0-9."
)
MSG_NO_LETTER = _("A username needs at least one letter or digit.")


@lru_cache(maxsize=1)
def _classes() -> dict[str, str]:
    """character -> the representative of its confusable class (single characters only)."""
    data = load("confusables.json")
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    for char, homoglyphs in data.items():
        char = char.replace(_LRM, "")
        for homoglyph in homoglyphs:
            other = homoglyph["c"].replace(_LRM, "")
            if len(char) == 1 and len(other) == 1:
                union(char, other)
    for group in _ALWAYS_ONE_CLASS:
        for other in group[1:]:
            union(group[0], other)

    members: dict[str, list[str]] = {}
    for char in list(parent):
        members.setdefault(find(char), []).append(char)

    def rank(char: str) -> tuple[bool, bool, str]:
        # an ASCII lowercase letter, then an ASCII digit, then anything (stable: by code point)
        return (not ("a" <= char <= "z"), not char.isdigit() or not char.isascii(), char)

    mapping: dict[str, str] = {}
    for chars in members.values():
        representative = min((c.casefold() if len(c.casefold()) == 1 else c for c in chars), key=rank)
        for char in chars:
            if char != representative:
                mapping[char] = representative
    return mapping


def username_normalize(username: str) -> str:
    return unicodedata.normalize("NFKC", username)


def username_fold(username: str) -> str:
    """The name as log-in and sign-up compare it: NFKC, then Unicode case folding
    ("Łucja_Kowalska" and "łucja_kowalska" fold alike on every database; SQLite's
    LOWER() and LIKE fold ASCII letters only). ``User.username_folded`` stores it."""
    return username_normalize(username).casefold()


def username_skeleton(username: str) -> str:
    """The name's confusable skeleton: equal skeletons look alike (case-insensitively)."""
    mapping = _classes()
    text = unicodedata.normalize("NFD", username_normalize(username)).casefold()
    for _round in range(2):  # a representative may itself decompose or fold
        text = "".join(mapping.get(char, char) for char in text)
        text = unicodedata.normalize("NFD", text).casefold()
    return "".join(char for char in text if char not in FOLDED)


def _skeleton_keeping_punctuation(username: str) -> str:
    """The skeleton with ``._-+@`` kept (to see where the guests' prefix ends)."""
    mapping = _classes()
    text = unicodedata.normalize("NFD", username_normalize(username)).casefold()
    for _round in range(2):
        text = "".join(mapping.get(char, char) for char in text)
        text = unicodedata.normalize("NFD", text).casefold()
    return text


def username_skeleton_key(username: str) -> str:
    """What ``User.username_skeleton`` stores: the skeleton's SHA-256 (a skeleton
    can be far longer than the name: NFKC expands some characters 18-fold)."""
    return hashlib.sha256(username_skeleton(username).encode()).hexdigest()


def _bare(skeleton: str) -> str:
    """The skeleton without combining marks (for the reserved names)."""
    return "".join(char for char in skeleton if not unicodedata.combining(char))


def username_check_reserved(username: str) -> None:
    """Raise ValidationError for a reserved name or one without a letter or digit."""
    if not any(char.isalnum() for char in username):
        raise ValidationError(MSG_NO_LETTER, code="username_no_letter")
    bare = _bare(username_skeleton(username))
    if (
        bare in {_bare(username_skeleton(name)) for name in RESERVED}
        or any(bare.startswith(_bare(username_skeleton(prefix))) for prefix in (*RESERVED_PREFIXES, DELETED_PREFIX))
        or _GUEST_LIKE.match(_bare(_skeleton_keeping_punctuation(username)))
    ):
        raise ValidationError(MSG_RESERVED, code="username_reserved")


def username_scripts_ok(username: str) -> bool:
    """Whether a new name keeps the script rule (see the module): its letters from one script of
    ``SCRIPTS``, its digits ASCII, no other number."""
    scripts: set[str] = set()
    for char in unicodedata.normalize("NFD", username_normalize(username)):
        category = unicodedata.category(char)
        if category[0] == "N" and not ("0" <= char <= "9"):
            return False
        if category[0] == "L":
            scripts.add(script_of(char))
    return scripts <= SCRIPTS and len(scripts) <= 1


def username_check_script(username: str) -> None:
    """Raise ValidationError ``username_script`` for a name breaking the script rule."""
    if not username_scripts_ok(username):
        raise ValidationError(MSG_SCRIPT, code="username_script")


class UsernameConverter:
    """A player's name in a URL (``<username:username>``): anything but a slash or a NUL.
    No name holds a NUL, and PostgreSQL refuses one in a query (a 500): such a path is a 404
    before any view or query sees it."""

    regex = r"[^/\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
