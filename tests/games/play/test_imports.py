"""Importing a game played elsewhere (issue 39; docs/analysis.md "Import"): Kropki in SGF
(GM[40], as zagram, playdots and this site write it: files made here, from the format's
description) and any game in this site's JSON; every move replayed by the engine; the game a
finished match with no accounts, its record page, and its review under the fair-play guard."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.display.export import match_json, match_sgf
from games.models import Match, Move
from games.play.creating import match_create
from games.play.imports import game_import
from games.play.moves import match_play
from games.review.services import analysis_request
from kropki_site.lib.refusals import Refusal
from tests.helpers import C4

pytestmark = pytest.mark.django_db

# Pink rings blue's e5 (zagram's way: B first, coordinates column then row from the top-left,
# the variation after the main line ignored); the last two blue dots come after pink ended.
ZAGRAM = (
    "(;GM[40]FF[4]CA[UTF-8]AP[zagram]SZ[10]PB[Ania]PW[Bartek]RE[B+1]DT[2026-11-30]"
    ";B[ed];W[ee];B[fe];W[aa];B[ef];W[ab];B[de]"
    "(;W[ac];W[ad])(;W[jj]))"
)


def test_a_zagram_sgf_becomes_a_finished_game_with_its_record(client, alice):
    client.force_login(alice)
    answer = client.post("/import/", {"text": ZAGRAM})
    assert answer.status_code == 302
    match = Match.objects.get()
    assert (match.status, match.rated, match.counts, match.pink_id, match.blue_id) == (
        "finished",
        False,
        False,
        None,
        None,
    )
    assert match.variant == "kropki-10" and match.params == {}
    assert match.imported == {"pink": "Ania", "blue": "Bartek", "result": "B+1", "date": "2026-11-30", "format": "sgf"}
    assert match.imported_by_id == alice.pk
    # pink's end (not a move in SGF) is put in where blue moved twice; 9 dots and it
    end = 100
    assert match.history == [34, 44, 45, 0, 54, 10, 43, 20, end, 30]
    assert (match.pink_score, match.blue_score) == (1, 0)
    assert Move.objects.filter(match=match).count() == 10
    record = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'data-testid="record-imported"' in record and "B+1" in record
    assert "Ania" in record and "Bartek" in record
    assert "Partia zaimportowana, nierozegrana tu do końca." in record


def test_this_sites_own_sgf_and_json_come_back_move_for_move(alice, bob):
    site = match_create(
        variant="kropki-39x32-cross",
        pink_id=alice.pk,
        blue_id=bob.pk,
        params={"width": 39, "height": 32, "start": "cross", "margin": 15},
    )
    for ply, (who, action) in enumerate([(alice, 0), (bob, 1), (alice, 39), (bob, 2)]):
        match_play(match_id=site.pk, user_id=who.pk, ply=ply, action=action)
    site.refresh_from_db()
    sgf = match_sgf(site, {})
    assert "AB[" in sgf and "RU[margin:15]" in sgf
    back = game_import(text=sgf, user_id=None)
    assert back.history == site.history and back.game().params == site.game().params
    moves = list(Move.objects.filter(match=site).order_by("ply"))
    exported = json.dumps(match_json(site, moves))
    again = game_import(text=exported, user_id=None)
    assert again.history == site.history and again.imported["pink"] == "alice"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("(;GM[1]SZ[19];B[aa])", "import_not_kropki"),
        ("(;GM[40]SZ[10];B[ee];W[ee])", "import_bad_move"),  # the same point twice
        ("(;GM[40]SZ[10]AB[aa];W[ee])", "import_setup"),  # dots no start of ours places
        ("(;GM[40]SZ[10];B[zz])", "import_bad_move"),  # off the board
        ("(;GM[40]SZ[10];B[ee]", "import_not_sgf"),  # not closed
        ("(;GM[40]SZ[10])", "import_empty"),
        ("Kropki!", "import_unknown_format"),
        ('{"game": "connect4", "moves": [1, 1, 1, 1, 1, 1, 1]}', "import_bad_move"),  # a full column
        ("(;GM[40]SZ[10]" + ";B[aa]" * 40_000 + ")", "import_too_big"),
    ],
)
def test_what_is_not_a_game_of_ours_is_refused_with_its_reason(text, code):
    with pytest.raises(Refusal) as refused:
        game_import(text=text, user_id=None)
    assert refused.value.code == code
    assert not Match.objects.exists() and not Move.objects.exists()


def test_a_guest_imports_a_file_and_the_page_says_why_not_in_english(client, settings):
    settings.IMPORTS_PER_HOUR = 2
    upload = SimpleUploadedFile("game.sgf", ZAGRAM.encode(), content_type="application/x-go-sgf")
    assert client.post("/import/", {"file": upload}).status_code == 302
    bad = client.post("/import/", {"text": "(;GM[1];B[aa])"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and "Only Kropki games are read from SGF files" in bad.content.decode()
    # every try counts (a refused one too): the third within the hour is refused, text kept
    limited = client.post("/import/", {"text": ZAGRAM}, HTTP_ACCEPT_LANGUAGE="en")
    page = limited.content.decode()
    assert limited.status_code == 400 and "You have imported many games lately" in page and "PB[Ania]" in page
    assert Match.objects.count() == 1


def test_an_imported_game_is_reviewed_unless_a_position_stands_in_a_live_rated_match(alice, bob, charlie):
    """The fair-play guard (SPEC.md "Fair play"): importing a live rated game's moves to have it
    reviewed gets no values while its position stands."""
    live = match_create(variant=C4, pink_id=alice.pk, blue_id=bob.pk, rated=True)
    columns = [0, 1, 2, 3, 4, 5, 6, 0, 1, 2]  # past the exempt opening
    for ply, column in enumerate(columns):
        match_play(match_id=live.pk, user_id=(alice if ply % 2 == 0 else bob).pk, ply=ply, action=column)
    copy = game_import(text=json.dumps({"game": "connect4", "moves": [c + 1 for c in columns]}), user_id=charlie.pk)
    with pytest.raises(Refusal) as refused:
        analysis_request(charlie, copy.pk)
    assert refused.value.code == "position_in_rated_match"
    own = game_import(text=json.dumps({"game": "connect4", "moves": [4, 4, 3]}), user_id=charlie.pk)
    assert analysis_request(charlie, own.pk).status == "queued"
