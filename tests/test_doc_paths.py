"""The paths the docs and comments send readers to exist (issue 26: docs that cannot drift).

README.md, docs/*.md and the comments and docstrings of the tracked .py, .js, .html,
.css and shell files name files by their path in the repository: `games/play/core.py`,
games/live/{hub,socket}.py, kropki_site/settings.py:12, static/css/*.css,
tests/games/live/test_hub.py::test_a_move_is_one_publish_heard_by_every_socket_once (the
test must be in the file), or a module the Python way, games.play.core.lock (the name must
be in the module). When a module moves or goes, such a line points nowhere; this test
lists each one with the file and line that names it.

It also reads the README's layout section (the code block under "## Layout"): every
Python package of the apps is named there, and every file it names is where it says.

Text only: no Django, no database, no network.
"""

from __future__ import annotations

import ast
import fnmatch
import io
import os
import re
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A path starts with one of these (a top-level directory, or a top-level file).
TOP_DIRS = (
    "games",
    "accounts",
    "ratings",
    "kropki_site",
    "templates",
    "static",
    "tests",
    "bench",
    "docs",
    "scripts",
    "locale",
)
TOP_FILES = ("manage.py", "pyproject.toml", "README.md")

# The apps whose every Python package the README's layout names.
APPS = ("games", "accounts", "ratings", "kropki_site")

# Named on purpose though not in git (built or written when the site runs), or not a path.
ALLOWED = {
    # a rate: random games per second (docs/performance.md)
    "games/s",
    # the C extension scripts/setup.sh builds from games/kropki/fast.c (.gitignore)
    "games/kropki/fast_ext.*",
    "games/kropki/fast_ext.*.so",
    "games.kropki.fast_ext",
    # ... and from games/connect4/solver.c
    "games/connect4/solver_ext.*.so",
    "games.connect4.solver_ext",
    # the opening book `python -m games.connect4.book build` writes; none is shipped yet (docs/bots.md)
    "games/connect4/opening_book.xz",
}

# Walked when git cannot list the files (a copy without .git).
NOT_OURS = {".git", ".venv", "node_modules", "staticfiles", "var", "__pycache__", ".mypy_cache", ".ruff_cache"}

_SEGMENT = r"(?:[\w.\-/*<>]|\{[\w.\-/*,]*\})"
# Not the tail of a longer path or of a URL (/static/js/..., ../shared/..., https://.../games/).
_NOT_AFTER = r"(?<![\w./\-{}*<>$~@:])"
PATH_RE = re.compile(
    _NOT_AFTER
    + r"(?:(?:"
    + "|".join(TOP_DIRS)
    + r")/"
    + _SEGMENT
    + r"*|(?:"
    + "|".join(re.escape(name) for name in TOP_FILES)
    + r")(?![\w\-/]))"
    # a pytest node id's test (the test must be in the file)
    + r"(?:::(?P<test>\w+))?"
)
BRACES_RE = re.compile(r"\{([^{}]*)\}")
# A module named the Python way: games.play.core, games.play.core.lock.
PYTHON_APPS = ("games", "accounts", "ratings", "kropki_site", "tests", "bench")
DOTTED_RE = re.compile(_NOT_AFTER + r"(?:" + "|".join(PYTHON_APPS) + r")(?:\.[A-Za-z_]\w*)+")
# ...unless it is a file's name (docs/'s games.md, a games.jsonl).
NOT_MODULES = {"md", "json", "jsonl", "txt", "py", "html", "csv", "sqlite3", "log"}


# --- the files -------------------------------------------------------------------------------


def _listed_files() -> list[str]:
    """The repository's files: git's tracked and not-ignored ones, else a walk of the tree."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
        names = [name for name in out.split("\0") if name]
        return sorted({name for name in names if (ROOT / name).is_file()})
    except (OSError, subprocess.CalledProcessError):
        found = []
        for here, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in NOT_OURS]
            for name in files:
                found.append(str((Path(here) / name).relative_to(ROOT)))
        return sorted(found)


FILES = _listed_files()
FILE_SET = set(FILES)
DIR_SET = {str(Path(name).parent) for name in FILES} - {"."}
DIR_SET |= {str(parent) for name in DIR_SET for parent in Path(name).parents if str(parent) != "."}


# --- the texts that name paths: (line number, text) ----------------------------------------


def _python_texts(source: str) -> Iterator[tuple[int, str]]:
    """Comments and docstrings of a Python file (strings in the code are names of other things)."""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    lines = source.splitlines()
    for value in _docstrings(ast.parse(source)):
        for number in range(value.lineno, (value.end_lineno or value.lineno) + 1):
            yield number, lines[number - 1]


def _docstrings(node: ast.AST) -> Iterator[ast.Constant]:
    """The docstrings of a module and of the classes and functions in it (statements only:
    much quicker than ast.walk over every expression)."""
    body = getattr(node, "body", None)
    if not isinstance(body, list):
        return
    if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
        first = body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            yield first.value
    for field in ("body", "orelse", "finalbody", "handlers"):
        for child in getattr(node, field, None) or ():
            if isinstance(child, ast.stmt | ast.excepthandler):
                yield from _docstrings(child)


def _block_comments(source: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """The lines of each match of pattern (a comment syntax), with their line numbers."""
    for match in pattern.finditer(source):
        first = source.count("\n", 0, match.start()) + 1
        for offset, line in enumerate(match.group(0).splitlines()):
            yield first + offset, line


JS_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\\\"'])//[^\n]*", re.S)
CSS_COMMENTS = re.compile(r"/\*.*?\*/", re.S)
HTML_COMMENTS = re.compile(r"<!--.*?-->|\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S)
SHELL_COMMENTS = re.compile(r"(?:^|(?<=\s))#[^\n]*", re.M)
CONF_COMMENTS = re.compile(r"^\s*[;#][^\n]*", re.M)


def _is_shell(name: str) -> bool:
    if name.endswith(".sh"):
        return True
    if "." in Path(name).name:
        return False
    with open(ROOT / name, "rb") as f:
        first = f.readline()
    return first.startswith(b"#!") and (b"sh" in first.split(b"/")[-1])


def texts() -> Iterator[tuple[str, int, str]]:
    """(file, line number, text) for every line that may name a path."""
    for name in FILES:
        if name == "README.md" or (name.startswith("docs/") and name.endswith(".md")):
            lines: Iterator[tuple[int, str]] = enumerate((ROOT / name).read_text().splitlines(), 1)
        elif name.endswith(".py"):
            lines = _python_texts((ROOT / name).read_text())
        elif name.endswith(".js"):
            lines = _block_comments((ROOT / name).read_text(), JS_COMMENTS)
        elif name.endswith(".css"):
            lines = _block_comments((ROOT / name).read_text(), CSS_COMMENTS)
        elif name.endswith(".html"):
            lines = _block_comments((ROOT / name).read_text(), HTML_COMMENTS)
        elif name.endswith((".conf", ".toml")):
            lines = _block_comments((ROOT / name).read_text(), CONF_COMMENTS)
        elif _is_shell(name):
            lines = _block_comments((ROOT / name).read_text(), SHELL_COMMENTS)
        else:
            continue
        for number, line in lines:
            yield name, number, line


# --- a mention and whether it exists -------------------------------------------------------


def expand(path: str) -> list[str]:
    """Brace expansion: games/live/{hub,socket}.py -> games/live/hub.py, games/live/socket.py.

    An alternative "..." (an "and so on") is dropped.
    """
    match = BRACES_RE.search(path)
    if match is None:
        return [path]
    head, tail = path[: match.start()], path[match.end() :]
    out = []
    for alternative in match.group(1).split(","):
        if alternative.strip(".") == "":
            continue
        out.extend(expand(head + alternative + tail))
    return out


def clean(token: str) -> str:
    """The path a token names: without the sentence's full stop or an ellipsis after it."""
    return token.rstrip(".-")


def _there(path: str) -> bool:
    """A file or directory of the repository; * is a glob that must match something."""
    if path.endswith("/"):
        path = path.rstrip("/")
        if "*" in path:
            return any(fnmatch.fnmatchcase(name, path) for name in DIR_SET)
        return path in DIR_SET
    if "*" in path:
        return any(fnmatch.fnmatchcase(name, path) for name in FILE_SET | DIR_SET)
    return path in FILE_SET or path in DIR_SET


def exists(path: str) -> bool:
    """Whether the thing a path names is there.

    A <placeholder> segment (games/engine/<game>.py) stands for any name: what comes
    before it must be a directory. A module without .py (games/live/presence) is the
    module; a module followed by a name (games/display/snapshot.match_snapshot) is
    that module, and the name must occur in it.
    """
    if "<" in path or ">" in path:
        head = path.split("<", 1)[0]
        return head.rsplit("/", 1)[0] in DIR_SET
    if _there(path):
        return True
    folder, _, last = path.rpartition("/")
    module, dot, names = last.partition(".")
    if not dot:
        return f"{path}.py" in FILE_SET
    if names in NOT_MODULES or "/" in names:  # a file that is not there
        return False
    candidate = f"{folder}/{module}.py"
    if candidate not in FILE_SET:
        return False
    name = names.split(".", 1)[0]
    return re.search(rf"\b{re.escape(name)}\b", (ROOT / candidate).read_text()) is not None


def _defines(path: str, name: str) -> bool:
    return (
        re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", (ROOT / path).read_text(), re.M) is not None
    )


def _word_in(name: str, path: str, *, flags: int = 0) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", (ROOT / path).read_text(), flags) is not None


def module_exists(dotted: str) -> bool:
    """games.play.core is a module; games.play.core.lock a name that occurs in it;
    games.ChatMessage a model of the app (the app label's way: games/models/, games/tournaments/models.py)."""
    parts = dotted.split(".")
    folder = parts[0]
    for i, part in enumerate(parts[1:], 1):
        if f"{folder}/{part}" in DIR_SET:
            folder = f"{folder}/{part}"
        elif f"{folder}/{part}.py" in FILE_SET:
            rest = parts[i + 1 :]
            return not rest or _word_in(rest[0], f"{folder}/{part}.py")
        elif f"{folder}/__init__.py" in FILE_SET and _word_in(part, f"{folder}/__init__.py"):
            return True
        else:
            # The app's models: its models.py or models/ package, or a feature folder's models.py (app label games).
            models = [
                path
                for path in FILE_SET
                if path == f"{folder}/models.py"
                or path.startswith(f"{folder}/models/")
                or (
                    path.startswith(f"{folder}/")
                    and path.count("/") == folder.count("/") + 2
                    and path.endswith("/models.py")
                )
            ]
            return any(_word_in(rf"class {part}", path, flags=re.I) for path in models if path.endswith(".py"))
    return True


def missing_paths() -> list[str]:
    """'file:line: path' for every path named that is not there."""
    missing = []
    for name, number, line in texts():
        for match in PATH_RE.finditer(line):
            token = clean(match.group(0).split("::", 1)[0])
            if token in ALLOWED:
                continue
            for path in expand(token):
                path = clean(path)
                if path in ALLOWED or exists(path):
                    test = match.group("test")
                    if test and path in FILE_SET and not _defines(path, test):
                        missing.append(f"{name}:{number}: {path}::{test}")
                    continue
                missing.append(f"{name}:{number}: {path}")
        for match in DOTTED_RE.finditer(line):
            dotted = match.group(0)
            if dotted.rsplit(".", 1)[1] in NOT_MODULES:
                continue
            if dotted not in ALLOWED and not module_exists(dotted):
                missing.append(f"{name}:{number}: {dotted}")
    return missing


# --- the README's layout -------------------------------------------------------------------


class Section:
    """One entry of the layout: the directory it describes and its text."""

    def __init__(self, base: str, top: str, key: str, text: str) -> None:
        self.base = base  # the directory its file names are in ("" for the repository's root)
        self.top = top  # its top-level entry's directory ("" for the root's files)
        self.key = key
        self.text = text


def layout_block() -> list[tuple[int, str]]:
    """The lines of the first code block after "## Layout", with their line numbers."""
    lines = (ROOT / "README.md").read_text().splitlines()
    start = lines.index("## Layout")
    opening = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    closing = next(i for i in range(opening + 1, len(lines)) if lines[i].startswith("```"))
    return [(i + 1, lines[i]) for i in range(opening + 1, closing)]


KEY_RE = re.compile(r"^( {0,2})(\S+(?:, \S+)*)(?: {2,}|$)(.*)$")


def layout_sections() -> list[Section]:
    """The entries: "games/   text" (a top-level directory), "  live/   text" (one of its
    packages), "  selectors.py   text" (a file of it), "manage.py, ...   text" (files at the
    root); lines indented further go on the entry above."""
    sections: list[Section] = []
    top = ""
    for _number, line in layout_block():
        match = KEY_RE.match(line)
        indent = len(line) - len(line.lstrip(" "))
        if match is None or indent > 2:
            sections[-1].text += " " + line.strip()
            continue
        key, text = match.group(2), match.group(3)
        if indent == 0:
            top = key.rstrip("/") if key.endswith("/") and "," not in key else ""
            base = top
            text = text if top else key + " " + text
        else:
            base = f"{top}/{key.rstrip('/')}" if key.endswith("/") else top
            text = text if key.endswith("/") else key + " " + text
        sections.append(Section(base, top, key, text))
    return sections


FILE_NAME_RE = re.compile(r"(?<![\w./\-])[\w\-]+(?:\.[\w\-]+)*\.(?:py|js|css|html|c|sh|conf|md|json|ico|toml|lock)\b")
DIR_NAME_RE = re.compile(r"(?<![\w./\-<])((?:[\w\-]+|\{[\w\-,]+\})/)+")


def test_every_path_named_exists():
    missing = missing_paths()
    assert not missing, "paths named in docs or comments that are not in the repository:\n" + "\n".join(missing)


def test_readme_layout_names_every_package():
    """Each directory with an __init__.py under the apps is an entry of the layout or named in
    its app's text (management/commands/, formats/{en,pl}/, migrations/)."""
    named: set[str] = set()
    for section in layout_sections():
        if section.top:
            named.add(section.base)
        for match in DIR_NAME_RE.finditer(section.text):
            for rel in expand(match.group(0).rstrip("/")):
                parts = rel.split("/")
                for i in range(1, len(parts) + 1):
                    named.add("/".join([section.base, *parts[:i]]))
    packages = sorted(
        str(Path(name).parent) for name in FILES if name.endswith("/__init__.py") and name.split("/", 1)[0] in APPS
    )
    assert packages, "found no packages: is the test looking at the right tree?"
    unnamed = [package for package in packages if package not in named]
    assert not unnamed, "Python packages missing from the README's layout section:\n" + "\n".join(unnamed)


def test_readme_layout_files_exist():
    """Every entry's directory exists, and every file name in an entry's text is in it (or
    below it: static/'s js/ (match.js ...)); the root's files are at the root."""
    wrong = []
    sections = layout_sections()
    assert any(section.top == "games" for section in sections), "the layout section was not understood"
    for section in sections:
        if section.base and section.base not in DIR_SET:
            wrong.append(f"entry {section.key!r}: no directory {section.base}/")
        for match in FILE_NAME_RE.finditer(section.text):
            name = match.group(0)
            if section.base:
                found = any(path.startswith(section.base + "/") and path.endswith("/" + name) for path in FILES)
            else:
                found = name in FILE_SET
            if not found:
                wrong.append(f"entry {section.key!r}: no {name} in {section.base or 'the root'}/")
    assert not wrong, "the README's layout names files that are not there:\n" + "\n".join(wrong)
