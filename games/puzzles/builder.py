"""Cutting puzzles (docs/puzzles.md): every position of a game is shown to the game's finder
(``games/<slug>/puzzles.py``), and what it finds is stored once a position. The games are the
site's finished matches (reviewed ones first: their marked mistakes are where puzzles are) or,
on a site without players yet, self-play of the computer's levels (``self_play``). The
``puzzles`` management command runs it and says what it cost."""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Iterable, Iterator
from hashlib import blake2b
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction

from games import catalogue
from games.bots import choose_action
from games.bots.puzzles import Cut, cut
from games.engine import Game, State
from games.models import Match

from .models import Puzzle

# The levels self-play mixes: weak play makes the mistakes a puzzle is cut from.
SELF_PLAY_LEVELS = ("losowy", "latwy", "latwy", "sredni")
SELF_PLAY_BUDGET_S = 0.05


def position_key(variant: str, params: dict[str, Any], state: State) -> str:
    """One key a position of a variant (with its own parameters), however reached."""
    head = f"{variant}|{json.dumps(params, sort_keys=True)}|".encode()
    return blake2b(head + state.canonical(), digest_size=16).hexdigest()


def finder_of(variant: str) -> Any:
    return catalogue.variant(variant).game_spec.puzzles


def shipped(slug: str) -> Path:
    """A game's shipped puzzles: ``puzzles.jsonl`` beside its finder (games/<slug>/)."""
    return Path(inspect.getfile(catalogue.game_spec(slug).puzzles)).with_suffix(".jsonl")


def shipped_files() -> list[Path]:
    return [shipped(spec.slug) for spec in catalogue.games() if spec.puzzles and shipped(spec.slug).exists()]


def store(variant: str, params: dict[str, Any], actions: list[int], found: Cut, source: Match | None = None) -> bool:
    """Keep the puzzle ``found`` at ``found.ply`` of ``actions``; False when that position is
    already a puzzle."""
    game = catalogue.variant(variant).game(params or None)
    start = game.state_from_history(actions[: found.ply])
    row = Puzzle(
        variant=variant,
        params=params,
        actions=actions[: found.ply],
        line=found.line,
        accept=found.accept,
        goal=found.goal,
        theme=found.theme,
        key=position_key(variant, params, start),
        source=source,
    )
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        return False
    return True


def cut_game(variant: str, params: dict[str, Any], actions: list[int], source: Match | None = None) -> list[Cut]:
    """Cut and store the puzzles of one game: the new ones."""
    finder = finder_of(variant)
    if finder is None:
        return []
    game = catalogue.variant(variant).game(params or None)
    return [found for found in cut(game, actions, finder) if store(variant, params, actions, found, source)]


def finished_matches(variant: str) -> Iterable[Match]:
    """The site's finished matches of ``variant`` worth cutting, reviewed ones first."""
    done = Match.objects.filter(variant=variant).exclude(status=Match.Status.ACTIVE).exclude(history=[])
    reviewed = done.filter(analyses__status="done").distinct()
    yield from reviewed.order_by("-pk").iterator()
    yield from done.exclude(pk__in=reviewed.values("pk")).order_by("-pk").iterator()


def self_play(game: Game, seed: int) -> list[int]:
    """One game between two of the computer's levels (drawn from ``SELF_PLAY_LEVELS``): its moves."""
    rng = random.Random(seed)
    levels = {1: rng.choice(SELF_PLAY_LEVELS), 2: rng.choice(SELF_PLAY_LEVELS)}
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        if levels[player] == "losowy":
            legal = state.legal_actions()
            end = getattr(game, "end_action", None)
            action = rng.choice([a for a in legal if a != end] or legal)
        else:
            action = choose_action(state, levels[player], seed=rng.randrange(1 << 30), budget_s=SELF_PLAY_BUDGET_S)
        state.apply_action(action)
    return list(state.history)


def export(rows: Iterable[Puzzle], path: Path) -> int:
    """Write ``rows`` as JSON lines (the shipped set's format); how many."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            fields = {f: getattr(row, f) for f in ("variant", "params", "actions", "line", "accept", "goal", "theme")}
            out.write(json.dumps(fields, sort_keys=True, separators=(",", ":")) + "\n")
            count += 1
    return count


def read(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def verify(fields: dict[str, Any]) -> bool:
    """Whether the game's finder, asked again without a time limit, finds exactly this puzzle at
    this position."""
    variant, params = fields["variant"], fields["params"]
    if variant not in catalogue.variant_keys():
        return False
    game = catalogue.variant(variant).game(params or None)
    try:
        state = game.state_from_history(fields["actions"])
    except Exception:  # a broken line of the file: no puzzle
        return False
    found = finder_of(variant).find(game, state, budget_s=None)
    return found is not None and (found.theme, found.line, found.accept, found.goal) == (
        fields["theme"],
        fields["line"],
        fields["accept"],
        fields["goal"],
    )


def load(path: Path | None = None, *, check: bool = False) -> tuple[int, int]:
    """Add the puzzles of a file (by default every game's shipped set) not here yet: (added,
    refused). ``check``: each is found again by its game's finder first (a refused one is not
    added)."""
    rows, refused = [], 0
    for fields in (f for file in ([path] if path else shipped_files()) for f in read(file)):
        if check and not verify(fields):
            refused += 1
            continue
        variant, params, actions = fields["variant"], fields["params"], fields["actions"]
        start = catalogue.variant(variant).game(params or None).state_from_history(actions)
        fields = {key: fields[key] for key in ("variant", "params", "actions", "line", "accept", "goal", "theme")}
        rows.append(Puzzle(**fields, key=position_key(variant, params, start)))
    before = Puzzle.objects.count()
    Puzzle.objects.bulk_create(rows, batch_size=500, ignore_conflicts=True)
    return Puzzle.objects.count() - before, refused
