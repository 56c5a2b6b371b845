"""The API's clock (docs/api.md "Streams"): ``gameFull`` and its ``gameState`` lines give the
match's own move clock (an arena's 20 s, not the site's 60 s), and a player's berserk halves
theirs; a game stream re-reads the clocks when it hears a berserk."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.api import reads
from games.api.streams import RESYNC_NEEDED, GameView
from games.display.frames import event_frame
from games.models import PINK, Match
from games.tournaments.models import Tournament
from games.tournaments.services import tournament_berserk, tournament_join, tournaments_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena_game(alice, bob) -> Match:
    now = timezone.now()
    t = Tournament.objects.create(
        name="Szybka",
        variant="cztery-w-rzedzie",
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=30),
        minutes=31,
        move_seconds=20,
        rated=False,
        status=Tournament.Status.RUNNING,
    )
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    (match,) = tournaments_pair(now=now)
    return match


def test_game_full_gives_the_sites_clock_for_an_ordinary_game(make_match, alice, settings):
    match = make_match()
    full = reads.game_full(match.pk, alice.pk)
    assert full["move_seconds"] == settings.MOVE_SECONDS
    assert full["state"]["clocks"] == {"1": settings.MOVE_SECONDS, "2": settings.MOVE_SECONDS}


def test_game_full_gives_an_arena_games_own_clock_and_halves_a_berserk_players(arena_game, alice, bob):
    full = reads.game_full(arena_game.pk, alice.pk)
    assert full["move_seconds"] == 20
    assert full["state"]["clocks"] == {"1": 20, "2": 20}
    pink = alice if arena_game.pink_id == alice.pk else bob
    started = timezone.now()
    tournament_berserk(match_id=arena_game.pk, user=pink)
    full = reads.game_full(arena_game.pk, bob.pk)
    assert full["move_seconds"] == 20
    assert full["state"]["clocks"] == {"1": 10, "2": 20}
    # Pink is to move: their running turn now ends within half the clock.
    deadline = datetime.fromisoformat(full["state"]["deadline"])
    assert deadline <= timezone.now() + timedelta(seconds=10)
    assert deadline >= started + timedelta(seconds=9)


def test_a_game_stream_reads_the_clocks_again_when_a_player_goes_berserk(arena_game, alice):
    game = GameView(reads.game_full(arena_game.pk, alice.pk))
    arena_game.refresh_from_db()
    # Any other clock frame (a restart moved the deadline) is a line with the same clocks...
    line = game.update(json.dumps(event_frame(arena_game, "clock"), default=str))
    assert isinstance(line, dict) and line["clocks"] == {"1": 20, "2": 20}
    # ...a berserk one makes the stream read the match again (the line after it: the test above).
    berserk = event_frame(arena_game, "clock", berserk=PINK)
    assert game.update(json.dumps(berserk, default=str)) is RESYNC_NEEDED


def test_a_game_streams_state_lines_carry_the_new_move_not_the_list(make_match, alice):
    """A gameState line does not grow with the game (issue 37): the ply and the move that made it;
    gameFull's state alone has the list. A frame that skips a ply asks for everything again."""
    match = make_match()
    game = GameView(reads.game_full(match.pk, alice.pk))
    sizes = []
    for ply in range(1, 41):
        match.ply = ply
        frame = {**event_frame(match, "moved"), "ply": ply, "action": ply % 7, "by": 1 + ply % 2}
        line = game.update(json.dumps(frame, default=str))
        assert isinstance(line, dict) and "moves" not in line and "movers" not in line
        assert line["ply"] == ply and line["last"]["action"] == ply % 7
        sizes.append(len(json.dumps(line)))
    assert max(sizes) - min(sizes) <= 4  # the digits of the ply and such: not the list
    skipped = {**event_frame(match, "moved"), "ply": 42, "action": 1, "by": 1}
    assert game.update(json.dumps(skipped, default=str)) is RESYNC_NEEDED
    full = reads.game_full(match.pk, alice.pk)
    assert full["state"]["moves"] == [] and full["state"]["movers"] == []
