"""A game is a folder (docs/games.md): everything the site knows of Piłkarzyki lives
in games/pilkarzyki/ (engine, board, computer, diagrams, spec, its board patch), beside
its rules templates (named by it), the words (locale/) and the docs; elsewhere only
the line that loads it names it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from games.engine import BUILT_IN

ROOT = Path(__file__).resolve().parents[1]
# What the checkout holds is what git tracks: walking the disk also read ignored folders
# (.venv, caches such as .import_linter_cache/), which made the test fail on a fresh machine.
SKIP_TOP = {"docs", "tests", "locale"}
SKIP_SUFFIXES = {".mo", ".so", ".pyc", ".gz", ".png", ".sqlite3"}


def tracked_files() -> list[Path]:
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [Path(name) for name in listing.decode().split("\0") if name]


def files_naming(word: str, own: Path) -> list[str]:
    found = []
    for rel in tracked_files():
        path = ROOT / rel
        if rel.parts[0] in SKIP_TOP or path.suffix in SKIP_SUFFIXES or not path.is_file():
            continue
        if path.is_relative_to(own) or rel.parts[:3] == ("templates", "games", "rules") or rel.name == "README.md":
            continue
        if rel.parts[:2] == ("games", "migrations"):
            continue  # a migration freezes the data of its day (the arenas' default schedule names variants)
        if word in path.read_text(errors="replace").lower():
            found.append(str(rel))
    return sorted(found)


def test_pilkarzyki_is_named_only_where_it_is_loaded():
    assert files_naming("pilkarzyki", ROOT / "games" / "pilkarzyki") == ["games/engine/__init__.py"]
    loading = [line for line in (ROOT / "games/engine/__init__.py").read_text().splitlines() if "pilkarzyki" in line]
    assert len(loading) == 1 and loading[0].startswith("BUILT_IN = (")


def test_each_built_in_game_has_its_folder():
    for slug in BUILT_IN:
        folder = ROOT / "games" / slug
        for part in ("engine.py", "board.py", "bot.py", "diagrams.py", "spec.py", "static/board_patch.js"):
            assert (folder / part).is_file(), f"games/{slug}/{part}"
