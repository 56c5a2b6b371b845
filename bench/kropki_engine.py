"""Our Kropki computer as an outside engine: the line protocol of
docs/bots.md ("Playing an outside engine") on stdin/stdout.

    .venv/bin/python bench/kropki_engine.py [--level trudny] [--frozen] [--seed N]

It is the reference implementation of the protocol that ``bench/bots.py
--gtp CMD`` speaks, and lets one pit our levels against each other through
it (``--gtp ".venv/bin/python bench/kropki_engine.py --level sredni"``).
``--frozen`` plays the pre-issue-16 search instead.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import get_game
from games.engine.base import EngineError
from games.kropki import bot as kropki_bot
from games.kropki.engine import KropkiState


def serve(level: str, frozen: bool, seed: int, lines, out) -> None:
    state: KropkiState | None = None
    budget = None
    rng = random.Random(seed)

    def answer(text: str = "") -> None:
        out.write(("= " + text).rstrip() + "\n")
        out.flush()

    for line in lines:
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                answer()
                return
            if command == "new":
                new = get_game("kropki", width=int(args[0]), height=int(args[1])).new_initial_state()
                assert isinstance(new, KropkiState)
                state = new
                answer()
            elif command == "time":
                budget = float(args[0])
                answer()
            elif command == "play":
                player = int(args[0])
                if state is None:
                    raise ValueError("no game: new first")
                game = state.game
                action = game.end_action if args[1:] == ["end"] else game.action_for(int(args[1]), int(args[2]))
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
                chooser = kropki_bot.choose_frozen if frozen else kropki_bot.choose
                action = chooser(state, level, rng, budget)
                state.apply_action(action)
                game = state.game
                answer("end" if action == game.end_action else f"{action % game.width} {action // game.width}")
            else:
                raise ValueError(f"unknown command {command!r}")
        except (ValueError, IndexError, AttributeError, EngineError) as exc:
            out.write(f"? {exc}\n")
            out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="trudny", choices=["latwy", "sredni", "trudny"])
    parser.add_argument("--frozen", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    serve(args.level, args.frozen, args.seed, sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
