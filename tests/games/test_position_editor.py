"""The position editor (issue 39; docs/analysis.md "Position editor"): a position set up piece by
piece through the page's form (the address is the draft), its problems said beside the board,
"Analyse" to the analysis board at the set-up (moves, the computer's evaluation and a link from
there), "Edit this position" from the board back into the editor, and the fair-play guard: an
edited position equal to a live rated match's gets no values."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from games.catalogue import variant
from games.kropki.engine import KropkiState
from games.play import guard
from games.play.creating import match_create
from games.play.moves import match_play
from tests.helpers import C4, board_evaluated

pytestmark = pytest.mark.django_db

EDITOR = "/analiza/cztery-w-rzedzie/edytor/"


def query(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


def submit(client, url: str, **fields: str) -> str:
    """The editor's form sent from the page at ``url`` (its hidden fields kept): the next address."""
    sent = client.get(urlsplit(url).path, query(url) | fields)
    assert sent.status_code == 302, sent.content.decode()[:500]
    return sent["Location"]


def drop(client, url: str, columns: list[int], tool: str = "") -> str:
    """Discs dropped into ``columns``, pink and blue in turn (or all of ``tool``'s colour)."""
    for i, column in enumerate(columns):
        colour = tool or ("1" if i % 2 == 0 else "2")
        url = submit(client, url, narzedzie=colour, cel=str(column), akcja="ustaw")
    return url


def test_a_position_built_in_the_editor_is_analysed_and_shared(client):
    page = client.get(EDITOR, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>Position editor: Four in a Row</h1>" in page and 'data-testid="editor-board"' in page
    assert "<legend>Tool</legend>" in page and '<label for="editor-where">Where</label>' in page
    url = drop(client, EDITOR, [3, 3, 2, 4, 1])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Blue to move. This position can be analysed." in page
    analysed = submit(client, url, akcja="analizuj")
    assert analysed.startswith("/analiza/cztery-w-rzedzie/?opcje=")
    setup = json.loads(query(analysed)["opcje"])["setup"]
    assert setup["cells"][-7:] == ".1112.." and setup["cells"][-14:-7] == "...2..."
    board = client.get(analysed, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Blue to move." in board and 'data-testid="board-set-up"' in board
    assert f'value="http://testserver{analysed.replace("&", "&amp;")}"' in board  # the link to share
    # moves from the set-up, and the computer's answer there
    played = client.get(analysed + "&ruch=0")
    assert played.status_code == 302 and query(played["Location"])["ruchy"] == "0"
    evaluated = board_evaluated(client, played["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert evaluated.status_code == 200 and 'data-testid="board-expected"' in evaluated.content.decode()
    # the same position reached by moves is valued the same
    by_moves = board_evaluated(
        client, "/analiza/cztery-w-rzedzie/", {"ruchy": "3,3,2,4,1,0"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    expected = 'data-testid="board-expected">'
    ours, theirs = evaluated.content.decode(), by_moves.content.decode()
    assert ours[ours.index(expected) :].split("<")[1] == theirs[theirs.index(expected) :].split("<")[1]


def test_what_stops_a_position_is_said_and_analyse_refused(client):
    url = drop(client, EDITOR, [3, 4], tool="1")  # two pink discs, no blue
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Not ready to analyse: Pink moves first, so pink has as many discs as blue or one more." in page
    refused = client.get(urlsplit(url).path, query(url) | {"akcja": "analizuj"}, HTTP_ACCEPT_LANGUAGE="pl")
    text = refused.content.decode()
    assert refused.status_code == 400 and 'role="alert" data-testid="editor-error"' in text
    assert "Różowe zaczynają, więc mają tyle krążków co niebieskie albo jeden więcej." in text
    # Remove takes the top disc out: then it can be analysed
    url = submit(client, url, narzedzie="0", cel="4", akcja="ustaw")
    assert "This position can be analysed." in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # a floating disc and a four, given in the address
    floating = {"cells": "." * 28 + "1" + "." * 13}
    page = client.get(EDITOR, {"uklad": json.dumps(floating)}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "A disc cannot hang in the air" in page
    four = drop(client, EDITOR, [0, 0, 1, 1, 2, 2, 3])
    assert "There is a line of four already" in client.get(four, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # the analysis board refuses the same set-up in its address too
    board = client.get(
        "/analiza/cztery-w-rzedzie/", {"opcje": json.dumps({"setup": floating})}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert board.status_code == 400 and "A disc cannot hang in the air" in board.content.decode()


def test_no_set_up_of_another_shape_and_no_editor_for_an_unknown_game(client):
    for bad in ("{", json.dumps({"cells": "1"}), json.dumps([1, 2])):
        page = client.get(EDITOR, {"uklad": bad}, HTTP_ACCEPT_LANGUAGE="en")
        assert page.status_code == 400 and "This is not a position of this game." in page.content.decode()
    assert client.get("/analiza/szachy/edytor/").status_code == 400
    # "²" is a digit to str.isdigit, but no number: no 500 anywhere
    assert client.get(EDITOR, {"akcja": "ustaw", "cel": "²"}).status_code == 302
    assert client.get("/analiza/kropki-10/edytor/", {"akcja": "ustaw", "wynik1": "²"}).status_code == 400
    for odd in ({"ruchy": "²"}, {"ruch": "²"}, {"z": "²"}):
        assert client.get("/analiza/cztery-w-rzedzie/", odd).status_code in (200, 400)


def test_kropki_dots_the_side_to_move_and_the_score(client):
    editor = "/analiza/kropki-10/edytor/"
    url = editor
    for tool, point in (("1", 34), ("1", 43), ("1", 45), ("1", 54), ("2", 44)):  # blue inside pink's diamond
        url = submit(client, url, narzedzie=tool, cel=str(point), akcja="ustaw")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "These dots surround a dot of the other colour" in page
    url = submit(client, url, narzedzie="0", cel="44", akcja="ustaw", ruch="2", wynik1="3", wynik2="1")
    setup = json.loads(query(url)["uklad"])
    assert setup["to_move"] == 2 and setup["score"] == [3, 1] and setup["dots"].count("1") == 4
    analysed = submit(client, url, akcja="analizuj")
    board = client.get(analysed, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Blue to move." in board
    state = variant("kropki-10").game(json.loads(query(analysed)["opcje"])).new_initial_state()
    assert isinstance(state, KropkiState)
    assert state.scores() == (3, 1) and state.empty_territory() == (1, 0)
    bad_score = client.get(editor, {"akcja": "ustaw", "wynik1": "-2"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad_score.status_code == 400


def test_dots_and_boxes_and_paper_soccer_by_the_form(client):
    editor = "/analiza/kropki-i-kwadraty/edytor/"
    url = editor
    for segment in (0, 30, 31, 5):  # box a1's four sides, blue's: the box is blue's
        url = submit(client, url, narzedzie="2", cel=str(segment), akcja="ustaw")
    setup = json.loads(query(url)["uklad"])
    assert setup["boxes"][0] == "2" and setup["lines"].count("2") == 4
    board = client.get(submit(client, url, ruch="1", akcja="analizuj"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Pink to move." in board and 'class="box p2"' in board
    editor = "/analiza/pilkarzyki/edytor/"
    url = editor
    for direction in (0, 0, 1):
        url = submit(client, url, narzedzie="1", cel=str(direction), akcja="ustaw")
    url = submit(client, url, narzedzie="0", cel=str(1 ^ 4), akcja="ustaw")  # the last line back
    assert json.loads(query(url)["uklad"])["path"] == "00"
    board = client.get(submit(client, url, ruch="2", akcja="analizuj"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Blue to move." in board and board.count('class="segment p1') == 2


def test_the_board_opens_the_editor_at_its_position(client):
    board = client.get("/analiza/cztery-w-rzedzie/", {"ruchy": "3,3,2"}).content.decode()
    edit = board.split('data-testid="board-edit"')[0].rsplit('href="', 1)[1].split('"')[0].replace("&amp;", "&")
    setup = json.loads(query(edit)["uklad"])
    assert setup == variant(C4).game().state_from_history([3, 3, 2]).to_setup()
    assert 'data-testid="board-setup"' in board
    # Kropki from a cross: the start's dots become the set-up's, the board's size stays
    cross = client.get("/analiza/kropki-39x32-cross/", {"ruchy": "0"}).content.decode()
    edit = cross.split('data-testid="board-edit"')[0].rsplit('href="', 1)[1].split('"')[0].replace("&amp;", "&")
    assert "opcje" not in query(edit)  # the variant's own board (its start is the set-up's now)
    assert json.loads(query(edit)["uklad"])["dots"].count(".") == 39 * 32 - 5
    opened = submit(client, edit, akcja="analizuj")
    params = json.loads(query(opened)["opcje"])
    assert set(params) == {"width", "height", "setup"} and params["setup"]["to_move"] == 2
    # a finished game's position is no set-up
    over = client.get("/analiza/cztery-w-rzedzie/", {"ruchy": "0,1,0,1,0,1,0"}).content.decode()
    assert 'data-testid="board-edit"' not in over


def test_no_values_for_an_edited_position_that_stands_in_a_live_rated_match(client, alice, bob, charlie):
    """The live match reached it by its moves; charlie drops the same discs in another order in the
    editor (the key is the position's, not the moves'), and the board refuses the computer."""
    live = match_create(variant=C4, pink_id=alice.pk, blue_id=bob.pk, rated=True)
    columns = [0, 1, 2, 3, 4, 5, 6, 0, 1, 2]  # past the exempt opening
    for ply, column in enumerate(columns):
        match_play(match_id=live.pk, user_id=(alice if ply % 2 == 0 else bob).pk, ply=ply, action=column)
    charlie.language = "en"
    charlie.save(update_fields=["language"])
    client.force_login(charlie)
    url = drop(client, EDITOR, [6, 5, 4, 3, 2, 1, 0, 0, 1, 2])  # the same discs, bottom row first
    analysed = submit(client, url, akcja="analizuj")
    page = client.get(analysed + "&ocena=1", HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert page.status_code == 400 and 'data-testid="board-evaluation"' not in text
    assert "This position stands in a rated game being played right now" in text
    # another position of the same discs' count is free
    other_url = submit(client, drop(client, EDITOR, [6, 5, 4, 3, 2, 1, 0, 0, 1, 6]), akcja="analizuj")
    other = board_evaluated(client, other_url)
    assert other.status_code == 200 and 'data-testid="board-evaluation"' in other.content.decode()


def test_a_set_up_has_the_guards_key_of_the_position_it_equals():
    """Kropki from a cross: the start is no rule (``position_params``), so the set-up holding the
    cross's dots has the live game's key; past the opening by its pieces, not its moves."""
    cross = "kropki-39x32-cross"
    game = variant(cross).game()
    state = game.state_from_history(list(range(10)))  # ten dots along the top row
    again = type(game)(**game.rules_params(), setup=state.to_setup()).new_initial_state()
    assert guard.position_key(cross, again) == guard.position_key(cross, state) != ""
    early = game.state_from_history([0, 1, 2, 3, 4])  # five moves: the opening of a game...
    early_set_up = type(game)(**game.rules_params(), setup=early.to_setup()).new_initial_state()
    assert guard.position_key(cross, early) == "" and early_set_up.plies() == 9
    assert guard.position_key(cross, early_set_up) != ""  # ...but nine pieces on the board
