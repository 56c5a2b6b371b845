"""Kropki: a player whose clock ran out is ended by it, and every page says so
(the snapshot's result and move list, the record page, the JSON export), in
each language. The live page's side is in tests/browser/test_clock_words.py."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from games import play as services
from games.display.snapshot import match_snapshot
from games.models import Match
from games.selectors.match import snapshot_rows
from tests.helpers import play

pytestmark = pytest.mark.django_db


def time_out(match) -> None:
    match.refresh_from_db()
    assert services.match_expire_turn(match_id=match.pk, ply=match.ply, now=match.turn_deadline + timedelta(seconds=5))
    match.refresh_from_db()


@pytest.fixture
def timed_out(make_match, alice, bob):
    """alice's clock runs out (the clock plays her "end"); bob then ends the game himself."""
    match = make_match("kropki-10")
    play(match, alice, 44)
    play(match, bob, 45)
    time_out(match)
    assert match.is_active and match.to_move == 2
    return match


def moves_of(html: str) -> str:
    """The record page's move list."""
    found = re.search(r'data-testid="record-moves">(.*?)</ol>', html, re.S)
    assert found is not None
    return found.group(1)


def snapshot_in(match, lang):
    with translation.override(lang):
        fresh = Match.objects.select_related("pink", "blue").get(pk=match.pk)
        return match_snapshot(fresh, snapshot_rows(fresh))


def test_the_snapshot_says_whose_clock_ran_out(timed_out, bob):
    snap = snapshot_in(timed_out, "en")
    assert snap["clock_ends"] == [1]
    assert snap["moves"] == ["e5", "f5", "time ran out"]
    assert snapshot_in(timed_out, "pl")["moves"][-1] == "czas minął"
    services.match_play(match_id=timed_out.pk, user_id=bob.pk, ply=3, action=100)  # bob's "end"
    timed_out.refresh_from_db()
    assert timed_out.status == Match.Status.FINISHED
    en, pl = snapshot_in(timed_out, "en"), snapshot_in(timed_out, "pl")
    assert en["moves"][-2:] == ["time ran out", "end"] and pl["moves"][-2:] == ["czas minął", "zakończ"]
    assert en["result_text"] == "Draw on equal score. alice ran out of time."
    assert pl["result_text"] == "Remis przy równym wyniku. alice: czas na ruch minął."


def test_both_clocks_run_out_and_the_record_and_export_say_so(timed_out, client):
    time_out(timed_out)  # bob does not move either
    assert timed_out.status == Match.Status.FINISHED
    html = client.get(reverse("record", args=[timed_out.pk])).content.decode()
    assert "alice: czas na ruch minął. bob: czas na ruch minął." in html
    assert moves_of(html).count("czas minął") == 2 and "zakończ" not in moves_of(html)
    client.cookies["kropki_language"] = "en"
    html = client.get(reverse("record", args=[timed_out.pk])).content.decode()
    assert "alice ran out of time. bob ran out of time." in html and moves_of(html).count("time ran out") == 2
    data = json.loads(client.get(reverse("export_json", args=[timed_out.pk])).content)
    assert data["result"].endswith("alice ran out of time. bob ran out of time.")


def test_an_end_by_the_player_is_not_a_timeout(make_match, alice, bob, client):
    match = make_match("kropki-10")
    play(match, alice, 44)
    play(match, bob, 45)
    services.match_play(match_id=match.pk, user_id=alice.pk, ply=2, action=100)
    assert snapshot_in(match, "en")["moves"][-1] == "end" and snapshot_in(match, "en")["clock_ends"] == []
    assert snapshot_in(match, "pl")["moves"][-1] == "zakończ"
