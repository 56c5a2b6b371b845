"""The analysis board (issue 39; docs/analysis.md "Analysis board"): any position of any game by
its moves in the address (so a link shares it), from the start or a record's position, moves for
both sides by the page's form, and the computer's evaluation and best line, refused by the
fair-play guard for a position standing in an active rated match."""

from __future__ import annotations

import pytest

from games.play.creating import match_create
from games.play.moves import match_play
from games.review import analysis_board as board
from tests.factories import finished_match
from tests.helpers import C4, board_evaluated

pytestmark = pytest.mark.django_db

BOARD = "/analiza/cztery-w-rzedzie/"


def test_moves_for_both_sides_by_the_address(client):
    page = client.get(BOARD, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "Pink to move." in page.content.decode()
    played = client.get(BOARD, {"ruch": "3"})
    assert played.status_code == 302 and played["Location"] == f"{BOARD}?ruchy=3"
    played = client.get(BOARD, {"ruchy": "3", "ruch": "3"})
    assert played["Location"] == f"{BOARD}?ruchy=3%2C3"
    page = client.get(played["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Pink to move." in page and 'data-testid="board-back"' in page
    assert 'value="http://testserver/analiza/cztery-w-rzedzie/?ruchy=3%2C3"' in page  # the link to share
    bad = client.get(BOARD, {"ruchy": "3,3,3,3,3,3,3"}, HTTP_ACCEPT_LANGUAGE="en")  # a full column
    assert bad.status_code == 400 and "These moves do not make a position" in bad.content.decode()


def test_the_computers_evaluation_and_best_line(client):
    """The reviewer's figures, made by the analysis worker (the page says so until they are there):
    an estimate in the opening, the solver's exact value later (pink wins in 7 from this 12th ply,
    and the line starts with the solver's move, column 3)."""
    asked = client.get(BOARD, {"ruchy": "3,3,2", "ocena": "1"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="board-thinking"' in asked and 'data-testid="board-evaluation"' not in asked
    opening = board_evaluated(client, BOARD, {"ruchy": "3,3,2"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="board-evaluation"' in opening and "exact (solved)" not in opening
    later = board_evaluated(client, BOARD, {"ruchy": "0,1,2,3,4,5,6,0,1,2,3,4"}, HTTP_ACCEPT_LANGUAGE="en")
    page = later.content.decode()
    assert "exact (solved)" in page and "Expected result for the side to move: 1.00" in page
    assert 'data-testid="board-line">Best line: 3 ' in page


def test_a_record_opens_on_the_board_at_any_ply(client, alice, bob):
    record = finished_match(alice, bob, [3, 3, 2, 4, 1], C4)
    opened = client.get(BOARD, {"z": record.pk, "ply": "3"})
    assert opened.status_code == 302 and opened["Location"] == f"{BOARD}?ruchy=3%2C3%2C2"
    whole = client.get(BOARD, {"z": record.pk})
    assert whole["Location"] == f"{BOARD}?ruchy=3%2C3%2C2%2C4%2C1"
    page = client.get(f"/partia/{record.pk}/zapis/").content.decode()
    assert f'href="{BOARD}?z={record.pk}"' in page


def test_no_values_for_a_position_standing_in_a_live_rated_match(client, alice, bob, charlie):
    columns = [0, 1, 2, 3, 4, 5, 6, 0, 1, 2]  # past the exempt opening
    board.evaluation_make(C4, {}, columns)  # made and kept before the match reached it: still refused
    live = match_create(variant=C4, pink_id=alice.pk, blue_id=bob.pk, rated=True)
    for ply, column in enumerate(columns):
        match_play(match_id=live.pk, user_id=(alice if ply % 2 == 0 else bob).pk, ply=ply, action=column)
    client.force_login(charlie)
    page = client.get(BOARD, {"ruchy": ",".join(map(str, columns)), "ocena": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 400 and 'data-testid="board-evaluation"' not in page.content.decode()
    # a player in a rated game asks for nothing at all meanwhile
    client.force_login(alice)
    page = client.get(BOARD, {"ruchy": "3", "ocena": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 400 and 'data-testid="board-evaluation"' not in page.content.decode()


def test_evaluations_are_limited(client, settings):
    settings.BOARD_EVALS_PER_MINUTE = 1
    assert client.get(BOARD, {"ruchy": "3", "ocena": "1"}).status_code == 200
    # asking again while it is made (the page's own poll), and reading it once made, are free
    assert client.get(BOARD, {"ruchy": "3", "ocena": "1"}).status_code == 200
    board.evaluation_make(C4, {}, [3])
    made = client.get(BOARD, {"ruchy": "3", "ocena": "1"})
    assert made.status_code == 200 and 'data-testid="board-evaluation"' in made.content.decode()
    limited = client.get(BOARD, {"ruchy": "4", "ocena": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert limited.status_code == 400 and "many times this minute" in limited.content.decode()
    # the page's poll is answered with its slot alone (no board to draw), a refusal too (htmx swaps no 4xx in)
    polled = client.get(BOARD, {"ruchy": "4", "ocena": "1"}, HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true")
    text = polled.content.decode()
    assert polled.status_code == 200 and "many times this minute" in text
    assert text.startswith('<div id="board-eval-slot"') and "<svg" not in text


def test_a_turns_further_steps_come_from_the_same_search(monkeypatch):
    """Piłkarzyki: the best turn's bounce is in the line without searching its position again
    (one search a turn, not one a step), and it is the line the searches step by step would give."""
    import json

    from games.pilkarzyki import bot

    params = board.read_params(json.dumps({"setup": {"by": "111", "path": "012", "to_move": 1}}))
    pos = board.position("pilkarzyki", params, [])
    searches: list[int] = []
    search_turns = bot.search_turns

    def counted(*args, **kwargs):
        path, value = search_turns(*args, **kwargs)
        searches.append(len(path))
        return path, value

    monkeypatch.setattr(bot, "search_turns", counted)
    found = board.evaluation_make(pos.variant, pos.params, pos.actions)
    assert found["line"] == ["N", "SW", "SE", "N"]  # blue N; pink SW and its bounce SE; blue N
    assert searches[:2] == [1, 2] and len(searches) == 3, searches  # SE not searched again


def test_one_evaluation_at_a_time_for_a_visitor(client, settings):
    """A visitor who asks about other positions while the last is being made is told the computer
    is thinking, and the next is asked for (and counted) only once the last one is made."""
    settings.BOARD_EVALS_PER_MINUTE = 2

    def ask(column: int) -> tuple[int, bool]:
        page = client.get(BOARD, {"ruchy": str(column), "ocena": "1"})
        return page.status_code, 'data-testid="board-thinking"' in page.content.decode()

    assert ask(3) == (200, True)  # the first this minute
    assert ask(4) == (200, True) and ask(5) == (200, True)  # waiting for 3: neither asked nor counted
    board.evaluation_make(C4, {}, [3])
    assert ask(4) == (200, True)  # asked now: the second this minute
    assert ask(5) == (200, True)  # waiting for 4
    board.evaluation_make(C4, {}, [4])
    assert ask(4) == (200, False)  # made and shown
    assert ask(5) == (400, False)  # the third this minute
