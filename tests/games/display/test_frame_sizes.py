"""Move frames stay small in every variant at every ply (issue 11's targets:
median ≤ 1 kB, max ≤ 4 kB): every move of other engines' whole games, built
into the very frame the service broadcasts (``frames.event_frame``)."""

from __future__ import annotations

import gzip
import json
import random
import statistics
from datetime import timedelta

import pytest
from django.utils import timezone

from games.catalogue import variant as get_variant
from games.display import frames
from games.models import Match
from tests.helpers import VECTORS


def kropki_games(name: str) -> list[list[int]]:
    games = []
    with gzip.open(VECTORS / "kropki" / name, "rt") as lines:
        for line in lines:
            game = json.loads(line)
            games.append(
                [
                    y * game["w"] + x
                    for (x, y, _p), after in zip(game["moves"], game["after"], strict=True)
                    if after["ok"]
                ]
            )
    return games


def random_games(variant: str, count: int) -> list[list[int]]:
    rng = random.Random(11)
    games = []
    for _ in range(count):
        state = get_variant(variant).game().new_initial_state()
        while state.current_player() is not None:
            state.apply_action(rng.choice(state.legal_actions()))
        games.append(list(state.history))
    return games


def frame_sizes(variant: str, games: list[list[int]]) -> list[int]:
    """The UTF-8 size of every move's frame, as the service would send it."""
    sizes = []
    for history in games:
        state = get_variant(variant).game().new_initial_state()
        match = Match(
            pk=1,
            variant=variant,
            pink_id=1,
            blue_id=2,
            turn_deadline=timezone.now() + timedelta(seconds=60),
            draw_offer=None,
        )
        for ply, action in enumerate(history, start=1):
            by = state.current_player()
            effect = state.apply_action_for_viewers(action)
            match.ply, match.to_move = ply, state.current_player()
            match.pink_score, match.blue_score = state.scores()
            if match.to_move is None:
                match.status, match.turn_deadline = Match.Status.FINISHED, None
            frame = frames.event_frame(
                match,
                "finished" if match.to_move is None else "moved",
                action=action,
                by=by,
                notation=effect.notation,
                details=effect.details,
                by_timeout=False,
            )
            sizes.append(len(json.dumps(frame, ensure_ascii=False, default=str).encode()))
    return sizes


@pytest.mark.parametrize(
    "variant, games",
    [
        ("kropki-10", lambda: kropki_games("random_10x10.jsonl.gz")),
        ("kropki-20", lambda: kropki_games("random_20x20.jsonl.gz")),
        ("cztery-w-rzedzie", lambda: random_games("cztery-w-rzedzie", 200)),
        ("kropki-i-kwadraty", lambda: random_games("kropki-i-kwadraty", 200)),
    ],
)
def test_move_frames_are_small_at_every_ply(variant, games):
    sizes = frame_sizes(variant, games())
    assert len(sizes) > 4000
    assert statistics.median(sizes) <= 1024, statistics.median(sizes)
    assert max(sizes) <= 4096, max(sizes)
