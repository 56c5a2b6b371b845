"""``manage.py puzzles``: cutting, shipping and loading puzzles (docs/puzzles.md).

    manage.py puzzles build [--variant V ...] [--matches] [--self-play N] [--seed S] [--want K]
    manage.py puzzles export [--out PATH]      # the stored puzzles as each game's shipped file
                                               # (games/<slug>/puzzles.jsonl), or all in one file
    manage.py puzzles load [--file PATH] [--check]   # scripts/run loads the shipped sets at start

``build`` cuts the site's finished matches (``--matches``: reviewed ones first) and/or
``--self-play N`` games of the computer's levels per variant, until ``--want`` new puzzles of
the variant; its last line is a JSON object of what it found and what it cost.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import catalogue
from games.models import Match
from games.puzzles import builder
from games.puzzles.models import Puzzle


class Command(BaseCommand):
    help = "Cut puzzles from games, export them, or load the shipped set."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("action", choices=("build", "export", "load"))
        parser.add_argument("--variant", action="append", default=[])
        parser.add_argument("--matches", action="store_true")
        parser.add_argument("--self-play", type=int, default=0)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--want", type=int, default=10**9)
        parser.add_argument("--out", type=Path, default=None)
        parser.add_argument("--file", type=Path, default=None)
        parser.add_argument("--check", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "export":
            self._export(options["out"])
        elif options["action"] == "load":
            if options["file"] is not None and not options["file"].exists():
                raise CommandError(f"no file {options['file']}")
            added, refused = builder.load(options["file"], check=options["check"])
            self.stdout.write(f"puzzles: {added} added, {refused} refused")
        else:
            self._build(options)

    def _export(self, out: Path | None) -> None:
        rows = Puzzle.objects.order_by("variant", "pk")
        if out is not None:
            self.stdout.write(f"{builder.export(rows, out)} puzzles written to {out}")
            return
        for spec in catalogue.games():
            if spec.puzzles:
                mine = rows.filter(variant__in=[v.key for v in spec.variants])
                path = builder.shipped(spec.slug)
                self.stdout.write(f"{builder.export(mine, path)} puzzles written to {path}")

    def _build(self, options: dict[str, Any]) -> None:
        # by default each game's first variant (Kropki: 10×10)
        variants = options["variant"] or [spec.variants[0].key for spec in catalogue.games() if spec.puzzles]
        figures: dict[str, Any] = {}
        for variant in variants:
            if variant not in catalogue.variant_keys() or builder.finder_of(variant) is None:
                raise CommandError(f"no puzzles for {variant!r}")
            figures[variant] = _build_variant(variant, options)
            self.stdout.write(f"{variant}: {figures[variant]}")
        self.stdout.write(json.dumps(figures, sort_keys=True))


def _games(variant: str, options: dict[str, Any]) -> Iterator[tuple[dict[str, Any], list[int], Match | None]]:
    """The games to cut: the site's matches (``--matches``), then self-play."""
    if options["matches"]:
        for match in builder.finished_matches(variant):
            yield match.params, list(match.history), match
    game = catalogue.variant(variant).game()
    for n in range(options["self_play"]):
        yield {}, builder.self_play(game, options["seed"] * 1_000_003 + n), None


def _build_variant(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    themes: Counter[str] = Counter()
    games = plies = 0
    for params, actions, source in _games(variant, options):
        games += 1
        plies += len(actions)
        for cut in builder.cut_game(variant, params, actions, source):
            themes[cut.theme] += 1
        if sum(themes.values()) >= options["want"]:
            break
    seconds = time.perf_counter() - started
    found = sum(themes.values())
    return {
        "games": games,
        "plies": plies,
        "puzzles": found,
        "themes": dict(themes),
        "seconds": round(seconds, 1),
        "seconds_per_puzzle": round(seconds / found, 2) if found else None,
    }
