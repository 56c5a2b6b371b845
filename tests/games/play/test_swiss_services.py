"""Swiss tournaments' services and pages (games/tournaments/swiss/, docs/tournaments.md "Swiss"):
making one by the form, joining and withdrawing, the tick's rounds and countdown, results,
a no-show's forfeit and the withdrawal after two, late joining, refusals changing nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from games.play import match_resign
from games.play.moves import match_expire_turn
from games.tournaments.swiss.models import SwissBoard, SwissPlayer, SwissTournament
from games.tournaments.swiss.services import swiss_join, swiss_tick, swiss_withdraw
from kropki_site.lib.refusals import Refusal
from tests.helpers import C4, play_moves

pytestmark = pytest.mark.django_db


def swiss(**kwargs) -> SwissTournament:
    fields = {"name": "Szwajcar", "variant": C4, "rounds": 3, "starts_at": timezone.now(), "pause_seconds": 10}
    fields.update(kwargs)
    return SwissTournament.objects.create(**fields)


def match_of(board: SwissBoard) -> Match:
    assert board.match_id is not None
    return Match.objects.get(pk=board.match_id)


def later(moment, seconds: int = 1):
    """``seconds`` after ``moment`` (a countdown's or a deadline's end, set by then)."""
    assert moment is not None
    return moment + timedelta(seconds=seconds)


def players(make_user, t: SwissTournament, n: int) -> list:
    made = [make_user(f"s{i}") for i in range(n)]
    for u in made:
        swiss_join(tournament_id=t.pk, user=u)
    return made


def test_a_player_makes_one_by_the_form_and_bad_settings_change_nothing(client, alice):
    client.force_login(alice)
    form = {"variant": C4, "rounds": "5", "start": "5", "move_seconds": "60", "pause_seconds": "30", "public": "1"}
    answer = client.post(reverse("swiss_new"), {**form, "name": "Mój szwajcar"})
    t = SwissTournament.objects.get(name="Mój szwajcar")
    assert answer.status_code == 302 and answer["Location"] == reverse("swiss", args=[t.pk])
    assert (t.rounds, t.move_seconds, t.pause_seconds, t.creator_id) == (5, 60, 30, alice.pk)
    client.post(reverse("swiss_new"), {**form, "rounds": "40", "name": "Zły"})
    assert not SwissTournament.objects.filter(name="Zły").exists()
    page = client.get(reverse("swiss_list")).content.decode()
    assert "Mój szwajcar" in page


def test_rounds_by_the_clock_a_bye_results_a_countdown_and_the_end(make_user):
    t = swiss(rounds=2)
    s = players(make_user, t, 3)
    now = timezone.now()
    swiss_tick(now=now)
    t.refresh_from_db()
    assert (t.status, t.current_round) == ("running", 1)
    boards = list(SwissBoard.objects.filter(tournament=t, round=1))
    # Round 1: s0 (the first to join) pink against s1; s2 (the lowest) the bye, a win.
    assert [(b.pink_id, b.blue_id, b.kind, b.pink_points) for b in boards] == [
        (s[0].pk, s[1].pk, "game", None),
        (s[2].pk, None, "bye", 2),
    ]
    match = match_of(boards[0])
    play_moves(match, [0, 6, 0, 6])
    match_resign(match_id=match.pk, user_id=s[1].pk)
    t.refresh_from_db()
    assert t.next_round_at is not None  # the countdown
    swiss_tick(now=now + timedelta(seconds=5))
    assert SwissTournament.objects.get(pk=t.pk).current_round == 1  # not yet
    swiss_tick(now=later(t.next_round_at))
    t.refresh_from_db()
    assert t.current_round == 2
    boards = list(SwissBoard.objects.filter(tournament=t, round=2))
    # Round 2: s0 and s2 (1 point each) meet, s2 pink (s0 was pink); s1 the bye.
    assert [(b.pink_id, b.blue_id, b.kind) for b in boards] == [(s[2].pk, s[0].pk, "game"), (s[1].pk, None, "bye")]
    match = match_of(boards[0])
    play_moves(match, [0, 6, 0, 6])
    match_resign(match_id=match.pk, user_id=s[0].pk)
    t.refresh_from_db()
    assert t.status == "finished"
    lines = {
        e.user_id: (e.score, e.sonneborn_berger, e.buchholz, e.rank) for e in SwissPlayer.objects.filter(tournament=t)
    }
    # s2: bye + beat s0 (2 half points): 4, SB 2×2 = 4 quarters, BH 2. s0: beat s1 (score 2): SB 4, BH 2 + 4.
    assert lines == {s[2].pk: (4, 4, 2, 1), s[0].pk: (2, 4, 6, 2), s[1].pk: (2, 0, 2, 3)}


def test_a_no_show_loses_by_forfeit_and_two_withdraw_the_player(make_user):
    t = swiss(rounds=3, pause_seconds=10)
    s = players(make_user, t, 2)
    now = timezone.now()
    swiss_tick(now=now)
    for rnd in (1, 2):
        board = SwissBoard.objects.get(tournament=t, round=rnd)
        match = match_of(board)
        if match.pink_id == s[0].pk:  # s0 opens; s1 never answers
            play_moves(match, [0])
            match.refresh_from_db()
        assert match_expire_turn(match_id=match.pk, now=later(match.turn_deadline, 30))
        board.refresh_from_db()
        assert board.kind == "forfeit"
        assert (board.pink_points if board.pink_id == s[0].pk else board.blue_points) == 2
        t.refresh_from_db()
        if rnd == 1:
            swiss_tick(now=later(t.next_round_at))
    line = SwissPlayer.objects.get(tournament=t, user=s[1])
    assert line.withdrawn and line.no_shows_in_row == 2
    t.refresh_from_db()
    swiss_tick(now=later(t.next_round_at))
    t.refresh_from_db()
    assert t.status == "finished"  # one player left: it ends


def test_late_joining_until_round_two_and_withdrawing(make_user):
    t = swiss(rounds=3)
    s = players(make_user, t, 2)
    swiss_tick(now=timezone.now())
    late = make_user("late")
    swiss_join(tournament_id=t.pk, user=late)  # round 1 running: still open
    SwissTournament.objects.filter(pk=t.pk).update(current_round=2)
    with pytest.raises(Refusal) as refused:
        swiss_join(tournament_id=t.pk, user=make_user("later"))
    assert refused.value.code == "swiss_closed"
    assert SwissPlayer.objects.filter(tournament=t).count() == 3
    swiss_withdraw(tournament_id=t.pk, user=s[0])
    assert SwissPlayer.objects.get(tournament=t, user=s[0]).withdrawn
    from games import hooks

    mine = hooks.account_parts(s[0])["swiss"]
    assert mine[0]["withdrawn"] and mine[0]["boards"][0]["round"] == 1 and mine[0]["boards"][0]["pink"]


def test_the_page_and_its_state(client, make_user):
    t = swiss(rounds=3)
    players(make_user, t, 3)
    swiss_tick(now=timezone.now())
    page = client.get(reverse("swiss", args=[t.pk])).content.decode()
    assert "Szwajcar" in page and 'data-testid="swiss-standings"' in page and "s2" in page
    state = client.get(reverse("swiss_state", args=[t.pk])).json()
    assert state["round"] == 1 and len(state["boards"]) == 2 and state["boards"][1]["blue"] is None
    profile = client.get(reverse("profile", args=["s0"])).content.decode()
    assert 'data-testid="profile-swiss"' in profile and reverse("swiss", args=[t.pk]) in profile
    assert reverse("swiss_list") in client.get(reverse("tournaments")).content.decode()
    hidden = swiss(name="Ukryty", public=False)
    assert client.get(reverse("swiss", args=[hidden.pk])).status_code == 404
    assert client.get(reverse("swiss", args=[hidden.pk]) + f"?klucz={hidden.token}").status_code == 200


def test_a_refusal_carries_its_code_as_the_arenas_do(client, alice):
    """docs/tournaments.md: a program asking for JSON gets the refusal's code, a page the header."""
    client.force_login(alice)
    form = {"variant": C4, "rounds": "40", "start": "5", "move_seconds": "60", "pause_seconds": "30"}
    answer = client.post(reverse("swiss_new"), form, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "tournament_bad_settings"
    page = client.post(reverse("swiss_new"), form)
    assert page.status_code == 302 and page["Kropki-Refusal"] == "tournament_bad_settings"
    made = client.post(reverse("swiss_new"), {**form, "rounds": "5"}, HTTP_ACCEPT="application/json").json()
    assert made["ok"] and made["url"].startswith(reverse("swiss", args=[made["id"]]) + "?klucz=")  # private: its link
    joined = client.post(reverse("swiss_join", args=[made["id"]]), HTTP_ACCEPT="application/json")
    assert joined.json() == {"ok": True, "id": made["id"]}


def test_the_pairings_input_reads_colours_floats_forfeits_and_rounds_missed(make_user):
    # R1: a beats b; c wins by forfeit against d. R2: a (2) beats d (0), c (2) beats b (0): the
    # higher side floats down, the lower up. e joined after round 2: two rounds missed.
    from games.tournaments.swiss.services import _entrants

    t = swiss(rounds=5, current_round=2)
    a, b, c, d, e = (make_user(name) for name in "abcde")
    for n, u in enumerate((a, b, c, d, e), start=1):
        SwissPlayer.objects.create(tournament=t, user=u, rating=1500, number=n, joined_at=timezone.now())
    rows = [
        (1, 1, a, b, "game", 2, 0),
        (1, 2, c, d, "forfeit", 2, 0),
        (2, 1, a, d, "game", 2, 0),
        (2, 2, b, c, "game", 0, 2),
    ]
    for rnd, n, pink, blue, kind, pp, bp in rows:
        SwissBoard.objects.create(
            tournament=t, round=rnd, board=n, pink=pink, blue=blue, kind=kind, pink_points=pp, blue_points=bp
        )
    got = {x.id: (x.colours, x.floats, sorted(x.opponents), x.forfeit_wins, x.missed) for x in _entrants(t)}
    assert got == {
        a.pk: ("WW", "-D", sorted([b.pk, d.pk]), 0, 0),
        b.pk: ("BW", "-U", sorted([a.pk, c.pk]), 0, 0),
        c.pk: ("-B", "DD", sorted([d.pk, b.pk]), 1, 0),
        d.pk: ("-B", "-U", sorted([c.pk, a.pk]), 0, 0),
        e.pk: ("--", "", [], 0, 2),
    }
