"""Our computer as an outside engine: the line protocol of docs/bots.md ("Playing an
outside engine") on stdin/stdout, for Kropki and, with the ``variant`` command, for
every game of the site.

    .venv/bin/python bench/kropki_engine.py [--level trudny] [--frozen] [--seed N]

It is the reference implementation of the protocol that ``bench/bots.py --gtp CMD``
and ``scripts/engine_bridge.py`` speak, and lets one pit our levels against each other
through it (``--gtp ".venv/bin/python bench/kropki_engine.py --level sredni"``).
``--frozen`` plays Kropki's pre-issue-16 search instead; ``--level losowy`` a uniformly
random legal move (cheap, for tests), except that in Kropki it ends its game as soon as
the other side has ended (alone it would fill the board: a thousand moves on 39×32). Behind ``scripts/engine_bridge.py`` it plays the
site's house bots (docs/api.md "House bots").
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import RandomPlayer, choose_action
from games.engine import get_game
from games.engine.base import EngineError
from games.kropki import bot as kropki_bot


def variants() -> dict[str, tuple[str, dict[str, int]]]:
    """The site's variants (games/catalogue: each game's spec.py) as (engine slug, parameters);
    read from the catalogue, so a new game's variants are played here without a change."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")
    django.setup()
    from games import catalogue

    return {v.key: (v.game_slug, dict(v.params)) for v in catalogue.variants()}


LEVELS = ("losowy", "latwy", "sredni", "trudny")


def serve(level: str, frozen: bool, seed: int, lines, out) -> None:
    state: Any = None
    slug = "kropki"
    variant_params: dict[str, int] = {}
    budget = None
    rng = random.Random(seed)
    randoms = RandomPlayer(seed)

    def answer(text: str = "") -> None:
        out.write(("= " + text).rstrip() + "\n")
        out.flush()

    def kropki() -> bool:
        return slug == "kropki"

    for line in lines:
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                answer()
                return
            if command == "variant":
                known = variants()
                if not args or args[0] not in known:
                    raise ValueError(f"unknown variant {' '.join(args)!r}")
                slug, variant_params = known[args[0]]
                state = None
                answer()
            elif command == "new":
                if kropki() and len(args) == 2:
                    params: dict[str, int] = {"width": int(args[0]), "height": int(args[1])}
                elif not args and (variant_params or not kropki()):
                    params = variant_params
                else:
                    raise ValueError("new W H for Kropki, new alone after variant")
                state = get_game(slug, **params).new_initial_state()
                answer()
            elif command == "time":
                budget = float(args[0])
                answer()
            elif command == "play":
                player = int(args[0])
                if state is None:
                    raise ValueError("no game: new first")
                action = _parse_move(state, slug, args[1:])
                if state.current_player() != player or not state.is_legal(action):
                    raise ValueError(f"not a legal move for player {player}")
                state.apply_action(action)
                answer()
            elif command == "genmove":
                player = int(args[0])
                if state is None:
                    raise ValueError("no game: new first")
                if state.current_player() != player:
                    raise ValueError(f"player {player} is not to move")
                if level == "losowy" and kropki() and state.has_ended(3 - player):
                    action = state.game.end_action
                elif level == "losowy":
                    action = randoms.choose(state)
                elif kropki() and frozen:
                    action = kropki_bot.choose_frozen(state, level, rng, budget)
                elif kropki():
                    action = kropki_bot.choose(state, level, rng, budget)
                else:
                    action = choose_action(state, level, seed=rng.randrange(1 << 30), budget_s=budget)
                state.apply_action(action)
                answer(_move_text(state, slug, action))
            else:
                raise ValueError(f"unknown command {command!r}")
        except (ValueError, IndexError, AttributeError, EngineError) as exc:
            out.write(f"? {exc}\n")
            out.flush()


def _parse_move(state: Any, slug: str, words: list[str]) -> int:
    """Kropki: ``X Y`` or ``end``; every other game: the action id."""
    game = state.game
    if slug != "kropki":
        return int(words[0])
    return game.end_action if words == ["end"] else game.action_for(int(words[0]), int(words[1]))


def _move_text(state: Any, slug: str, action: int) -> str:
    game = state.game
    if slug != "kropki":
        return str(action)
    return "end" if action == game.end_action else f"{action % game.width} {action // game.width}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="trudny", choices=LEVELS)
    parser.add_argument("--frozen", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    serve(args.level, args.frozen, args.seed, sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
