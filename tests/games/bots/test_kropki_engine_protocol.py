"""The line protocol of ``bench/bots.py --gtp`` (docs/bots.md, "Playing an
outside engine"), spoken by our reference engine ``bench/kropki_engine.py``
and by the bench's client, against each other."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from bench import bots
from bench.kropki_engine import serve


def _talk(*lines: str) -> list[str]:
    out = io.StringIO()
    serve("latwy", False, 1, iter(lines), out)
    return out.getvalue().splitlines()


def test_the_engine_answers_every_command_on_one_line() -> None:
    answers = _talk("new 10 10", "time 0.05", "play 1 4 4", "genmove 2", "play 1 end", "genmove 2", "quit")
    assert answers[:3] == ["=", "=", "="]
    x, y = (int(v) for v in answers[3].removeprefix("= ").split())
    assert 0 <= x < 10 and 0 <= y < 10 and (x, y) != (4, 4)
    assert answers[4] == "="
    assert answers[5].startswith("= ")
    assert answers[6] == "="


def test_the_engine_refuses_illegal_moves_with_a_question_mark() -> None:
    answers = _talk("new 10 10", "play 1 4 4", "play 2 4 4", "play 1 5 5", "genmove 1", "dance", "quit")
    assert answers[0] == answers[1] == "="
    assert answers[2].startswith("? ")  # occupied
    assert answers[3].startswith("? ")  # not player 1's turn
    assert answers[4].startswith("? ")  # not player 1's turn
    assert answers[5].startswith("? ")
    assert answers[6] == "="


def test_the_bench_plays_a_game_against_an_outside_engine() -> None:
    engine = Path(bots.__file__).with_name("kropki_engine.py")
    command = f"{sys.executable} {engine} --level latwy"
    result = bots.play_one(("kropki", "latwy", "gtp", 0, 0.02, {"width": 10, "height": 10}, 30, command))
    assert result["plies"] == 30
    assert len(result["times"]["gtp"]) == 15
    # the record --log writes: the actions replay to the game's score, colours by label
    from games.engine import get_game

    replay = get_game("kropki", width=10, height=10).state_from_history(result["history"])
    assert len(result["history"]) == 30 and result["labels"] == {1: "latwy", 2: "gtp"}
    assert replay.scores() == (result["scores"]["latwy"], result["scores"]["gtp"])


def test_the_variant_command_plays_every_game_of_the_site_by_action_ids() -> None:
    from games import catalogue

    for key in [v.key for v in catalogue.variants() if v.game_slug != "kropki"]:
        answers = _talk(f"variant {key}", "new", "time 0.02", "genmove 1", "quit")
        assert answers[:3] == ["=", "=", "="], (key, answers)
        assert answers[3].removeprefix("= ").isdigit(), (key, answers)
    kropki = _talk("variant kropki-10", "new", "play 1 4 4", "genmove 2", "quit")
    assert kropki[:3] == ["=", "=", "="] and len(kropki[3].split()) == 3  # "= X Y"
    assert _talk("variant chess")[0].startswith("? ")
