"""Command line of the engine: ``python -m games.engine replay < games.jsonl``.

See ``games/engine/replay.py`` for the input and output formats.
"""

from __future__ import annotations

import argparse
import sys

from .replay import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "replay",
        help="read one JSON game per line on stdin, write the state after every move",
        description="Read one JSON game per line on stdin; write one JSON line per game "
        "with the state after every move tried.",
    )
    args = parser.parse_args(argv)
    if args.command == "replay":
        return run(sys.stdin, sys.stdout)
    return 2  # pragma: no cover - argparse rejects other commands


if __name__ == "__main__":
    sys.exit(main())
