"""The engine package and each game folder's rules, board, computer and diagrams know
nothing of Django: importing and playing with them must never pull Django in (the bots
and the replay command run without it). Only a game's spec.py knows the site."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games.engine import BUILT_IN

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = r"""
import importlib, pkgutil, random, sys
assert not any(name == "django" or name.startswith("django.") for name in sys.modules)
import games.engine as engine
modules = [info.name for info in pkgutil.iter_modules(engine.__path__, "games.engine.")]
modules += [f"games.{slug}.{part}" for slug in engine.BUILT_IN for part in ("engine", "bot", "board", "diagrams")]
for name in modules:
    if not name.endswith("__main__"):
        importlib.import_module(name)
rng = random.Random(0)
for slug in sorted(engine.GAMES):
    state = engine.get_game(slug).new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    state.view(); str(state); state.to_dict(); state.replay_fields()
leaked = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
assert not leaked, leaked
print("modules:", ",".join(sorted(modules)))
"""


def test_engine_imports_and_plays_without_django() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    modules = proc.stdout.strip().removeprefix("modules: ").split(",")
    for expected in (
        "games.engine.base",
        "games.engine.replay",
        "games.kropki.engine",
        "games.kropki.bot",
        "games.connect4.board",
    ):
        assert expected in modules


def test_engine_sources_do_not_mention_django_imports() -> None:
    folders = [ROOT / "games" / slug for slug in BUILT_IN]
    pure = [
        *(ROOT / "games" / "engine").glob("*.py"),
        *(p for folder in folders for p in folder.glob("*.py") if p.name != "spec.py"),
    ]
    assert len(pure) > 4 * 4
    for path in pure:
        for line in path.read_text().splitlines():
            stripped = line.strip()
            assert not stripped.startswith(("import django", "from django")), f"{path.name}: {line}"
