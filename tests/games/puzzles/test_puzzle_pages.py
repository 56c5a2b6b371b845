"""Puzzles on the site (issue 39; docs/puzzles.md): the index and the daily puzzle, a puzzle
solved and failed by its page's form (the rating moving at the first try only, the puzzle's
too), a visitor solving without a rating and moving on, the fair-play guard, the shipped set
loaded and checked, and the management command's figures."""

from __future__ import annotations

import json
from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command

from games import catalogue
from games.play.creating import match_create
from games.play.moves import match_play
from games.puzzles import builder, selectors
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from tests.games.puzzles.test_finders import C4, CLOSE, KROPKI, WALL, WIN_2
from tests.helpers import C4 as C4_VARIANT

pytestmark = pytest.mark.django_db


def make(variant: str, game, history: list[int]) -> Puzzle:
    finder = catalogue.variant(variant).game_spec.puzzles
    found = finder.find(game, game.state_from_history(history))
    assert found is not None
    assert builder.store(
        variant, {}, history, found.__class__(found.theme, found.line, found.accept, found.goal, len(history))
    )
    return Puzzle.objects.get(actions=history, variant=variant)


@pytest.fixture
def capture():
    return make("kropki-10", KROPKI, [*WALL, KROPKI.action_for(9, 0)])


@pytest.fixture
def win_2():
    return make(C4_VARIANT, C4, WIN_2)


def test_the_index_shows_each_game_its_themes_and_the_daily_puzzle(client, capture, win_2):
    page = client.get("/zadania/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Zadanie dnia" in page and 'data-testid="daily-link"' in page
    assert "Zdobycie" in page and "Wygrana w 2" in page
    english = client.get("/zadania/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Puzzle of the day" in english and "Capture" in english
    # the same puzzle all day, for everyone
    assert selectors.daily(date(2026, 12, 5)) == selectors.daily(date(2026, 12, 5))
    days = {getattr(selectors.daily(date(2026, 12, d)), "pk", None) for d in range(1, 29)}
    assert days == {capture.pk, win_2.pk}


def test_an_account_solves_and_its_rating_rises_once(client, alice, capture):
    alice.language = "en"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    going = client.get(f"/zadania/{capture.pk}/").content.decode()
    assert "Pink to move: find the best move." in going and 'data-testid="puzzle-form"' in going
    solved = client.post(f"/zadania/{capture.pk}/", {"proby": "", "ruch": str(CLOSE)}, HTTP_ACCEPT_LANGUAGE="en")
    page = solved.content.decode()
    assert solved.status_code == 200 and 'data-testid="puzzle-solved"' in page
    assert "Your puzzle rating: 1500 →" in page
    mine = PuzzleRating.objects.get(user=alice, game="kropki")
    assert mine.rating > 1500 and mine.tries == 1 and mine.solved == 1
    capture.refresh_from_db()
    assert capture.rating < 1500 and capture.plays == 1 and capture.wins == 1
    # the second try counts for nothing
    again = client.post(f"/zadania/{capture.pk}/", {"ruch": str(KROPKI.action_for(0, 0))}, HTTP_ACCEPT_LANGUAGE="en")
    assert 'data-testid="puzzle-failed"' in again.content.decode()
    assert PuzzleRating.objects.get(user=alice, game="kropki").rating == mine.rating
    assert PuzzleAttempt.objects.filter(user=alice).count() == 1


def test_a_wrong_move_fails_shows_the_solution_and_the_rating_falls(client, alice, win_2):
    client.force_login(alice)
    wrong = next(c for c in range(7) if c != win_2.line[0])
    page = client.post(f"/zadania/{win_2.pk}/", {"ruch": str(wrong)}, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'data-testid="puzzle-failed"' in page and 'data-testid="puzzle-solution"' in page
    assert PuzzleRating.objects.get(user=alice, game="connect4").rating < 1500
    win_2.refresh_from_db()
    assert win_2.rating > 1500 and win_2.wins == 0


def test_a_line_of_several_moves_answers_each_and_solves_at_the_four(client, alice, win_2):
    client.force_login(alice)
    first = client.post(f"/zadania/{win_2.pk}/", {"ruch": str(win_2.line[0])}, HTTP_ACCEPT_LANGUAGE="en")
    page = first.content.decode()
    assert 'data-testid="puzzle-going"' in page and f'name="proby" value="{win_2.line[0]}"' in page
    assert not PuzzleAttempt.objects.exists()
    last = win_2.accept[-1][-1]  # the other four
    done = client.post(f"/zadania/{win_2.pk}/", {"proby": str(win_2.line[0]), "ruch": str(last)}).content.decode()
    assert 'data-testid="puzzle-solved"' in done
    assert PuzzleAttempt.objects.get(user=alice).solved


def test_a_visitor_solves_unrated_and_the_next_puzzle_moves_on(client, capture, win_2):
    page = client.post(f"/zadania/{capture.pk}/", {"ruch": str(CLOSE)}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="puzzle-solved"' in page and "Sign up to keep a puzzle rating." in page
    assert not PuzzleRating.objects.exists() and not PuzzleAttempt.objects.exists()
    # the next Kropki puzzle is not the one solved: none is left
    assert client.get("/zadania/gra/kropki/").status_code == 404
    assert client.get("/zadania/gra/connect4/")["Location"] == f"/zadania/{win_2.pk}/"


def test_bad_tries_are_refused_and_change_nothing(client, alice, capture):
    client.force_login(alice)
    for bad in ("x", "1,2,3," * 30, "-1", "²"):
        answer = client.post(f"/zadania/{capture.pk}/", {"proby": bad}, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 400 and "Te ruchy nie są próbą" in answer.content.decode()
    past_the_end = client.post(f"/zadania/{capture.pk}/", {"proby": f"{CLOSE},1", "ruch": "2"})
    assert past_the_end.status_code == 400
    assert client.get("/zadania/999999/").status_code == 404
    assert not PuzzleAttempt.objects.exists()


def test_the_guard_no_puzzles_during_a_rated_game_nor_at_a_live_position(client, alice, bob, charlie, win_2):
    live = match_create(variant=C4_VARIANT, pink_id=alice.pk, blue_id=bob.pk, rated=True)
    client.force_login(alice)
    refused = client.get(f"/zadania/{win_2.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and 'data-testid="puzzle-error"' in refused.content.decode()
    # the puzzle's position reached in that live rated match: nobody gets it
    for ply, column in enumerate(WIN_2):
        match_play(match_id=live.pk, user_id=(alice if ply % 2 == 0 else bob).pk, ply=ply, action=column)
    client.force_login(charlie)
    standing = client.post(f"/zadania/{win_2.pk}/", {"ruch": str(win_2.line[0])}, HTTP_ACCEPT_LANGUAGE="en")
    assert standing.status_code == 400 and "Solution" not in standing.content.decode()
    assert not PuzzleAttempt.objects.exists()


def test_the_shipped_set_loads_once_and_a_sample_is_found_again():
    files = builder.shipped_files()
    assert [f.relative_to(f.parents[1]).as_posix() for f in files] == [
        f"{spec.slug}/puzzles.jsonl" for spec in catalogue.games() if spec.puzzles
    ]
    lines = [fields for file in files for fields in builder.read(file)]
    by_game: dict[str, int] = {}
    for fields in lines:
        by_game[fields["variant"]] = by_game.get(fields["variant"], 0) + 1
    assert all(count >= 200 for count in by_game.values()) and len(by_game) == 4, by_game
    sample = [fields for i, fields in enumerate(lines) if i % 97 == 0]
    assert all(builder.verify(fields) for fields in sample)
    added, refused = builder.load()
    assert (added, refused) == (len(lines), 0) and builder.load() == (0, 0)


def test_the_build_command_cuts_self_play_and_says_what_it_cost():
    out = StringIO()
    call_command("puzzles", "build", "--variant", "kropki-10", "--self-play", "2", "--seed", "3", stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])["kropki-10"]
    assert figures["games"] == 2 and figures["puzzles"] == Puzzle.objects.count() > 0
    assert set(figures) >= {"plies", "seconds", "seconds_per_puzzle", "themes"}


def test_download_my_data_has_the_puzzle_ratings_and_tries(client, alice, capture):
    client.force_login(alice)
    client.post(f"/zadania/{capture.pk}/", {"ruch": str(CLOSE)})
    data = json.loads(client.get("/konto/moje-dane.json").content)
    part = data["puzzles"]
    assert [(r["game"], r["tries"], r["solved"]) for r in part["ratings"]] == [("kropki", 1, 1)]
    assert [(t["puzzle"], t["solved"]) for t in part["tries"]] == [(capture.pk, True)]


def test_a_goal_in_one_turn_goes_on_without_an_answer_until_the_goal(client):
    """Piłkarzyki: the solver keeps the move after a bounce (no reply of the line), any path that
    scores solves it."""
    from games.bots.puzzles import cut
    from games.pilkarzyki import puzzles as pilkarzyki_puzzles
    from tests.games.puzzles.test_finders import random_game

    game = catalogue.variant("pilkarzyki").game()
    found, history = None, []
    for seed in range(400):
        history = random_game(game, seed)
        found = next((c for c in cut(game, history, pilkarzyki_puzzles) if len(c.line) >= 3), None)
        if found is not None:
            break
    assert found is not None
    assert builder.store("pilkarzyki", {}, history, found)
    row = Puzzle.objects.get(variant="pilkarzyki")
    first = client.post(f"/zadania/{row.pk}/", {"ruch": str(found.line[0])}, HTTP_ACCEPT_LANGUAGE="en")
    page = first.content.decode()
    assert "Right. Go on: it is still your move." in page and "the opponent has answered" not in page
    tried = ",".join(map(str, found.line[:-1]))
    done = client.post(f"/zadania/{row.pk}/", {"proby": tried, "ruch": str(found.line[-1])}, HTTP_ACCEPT_LANGUAGE="en")
    assert 'data-testid="puzzle-solved"' in done.content.decode()


def test_the_profile_shows_the_puzzle_ratings(client, alice, bob, capture):
    client.force_login(alice)
    client.post(f"/zadania/{capture.pk}/", {"ruch": str(CLOSE)})
    rating = round(PuzzleRating.objects.get(user=alice).rating)
    page = client.get("/gracz/alice/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'data-testid="profile-puzzle-ratings"' in page and f"Kropki {rating}" in page
    client.force_login(bob)
    assert 'data-testid="profile-puzzle-ratings"' not in client.get("/gracz/bob/").content.decode()
