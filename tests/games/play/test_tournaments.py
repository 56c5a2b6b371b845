"""Arenas (docs/tournaments.md): the scoring (win 2, draw 1, streaks, early draws,
berserk), the pairing wave's constraints, the refusals, the end's freeze, the schedule."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.blocks import block_create
from games.models import BLUE, PINK, Match
from games.play import match_answer_draw, match_expire_turn, match_offer_draw, match_resign
from games.tournaments import services
from games.tournaments.models import Tournament, TournamentPlayer, TournamentSchedule
from games.tournaments.scoring import game_points
from games.tournaments.services import (
    REMATCH_AFTER_WAVES,
    game_opened,
    tournament_berserk,
    tournament_create,
    tournament_join,
    tournament_withdraw,
    tournaments_pair,
    tournaments_schedule,
)
from kropki_site.lib.refusals import Refusal
from tests.factories import PINK_WINS
from tests.helpers import C4, play_moves

pytestmark = pytest.mark.django_db

# Twelve moves that win nothing (columns 6 and 5 filled in turn), then pink stacks column 0:
# pink wins with 10 moves of their own (a berserk win that earns the extra point).
LONG_PINK_WIN = [6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, *PINK_WINS]


def arena(now=None, **kwargs) -> Tournament:
    now = now or timezone.now()
    fields = {
        "name": "Test",
        "variant": C4,
        "starts_at": now - timedelta(minutes=1),
        "ends_at": now + timedelta(minutes=30),
        "minutes": 31,
        "move_seconds": 30,
        "rated": True,
        "status": Tournament.Status.RUNNING,
    }
    fields.update(kwargs)
    return Tournament.objects.create(**fields)


def entry(t, user) -> TournamentPlayer:
    return TournamentPlayer.objects.get(tournament=t, user=user)


def game_of(t, user) -> Match:
    e = entry(t, user)
    assert e.match is not None
    return e.match


def win_for(match: Match, user) -> None:
    """``user`` wins ``match``: two moves each (so that it counts), then the other resigns."""
    play_moves(match, [6, 6, 5, 5])
    loser = match.blue_id if match.side_of(user.pk) == PINK else match.pink_id
    match_resign(match_id=match.pk, user_id=loser)


@pytest.fixture
def two(alice, bob):
    t = arena()
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    return t


# -- points ----------------------------------------------------------------------


def test_points_win_2_draw_1_loss_0_and_double_on_a_streak():
    assert game_points(result="w", wins_in_row=0, early=False, berserk=False, own_moves=9) == (2, False)
    assert game_points(result="d", wins_in_row=0, early=False, berserk=False, own_moves=9) == (1, False)
    assert game_points(result="l", wins_in_row=0, early=False, berserk=False, own_moves=9) == (0, False)
    assert game_points(result="w", wins_in_row=1, early=False, berserk=False, own_moves=9) == (2, False)
    assert game_points(result="w", wins_in_row=2, early=False, berserk=False, own_moves=9) == (4, True)
    assert game_points(result="d", wins_in_row=3, early=False, berserk=False, own_moves=9) == (2, True)
    assert game_points(result="l", wins_in_row=3, early=False, berserk=False, own_moves=9) == (0, True)


def test_an_early_draw_earns_nothing_and_berserk_adds_a_point_after_seven_own_moves():
    assert game_points(result="d", wins_in_row=0, early=True, berserk=False, own_moves=3) == (0, False)
    assert game_points(result="w", wins_in_row=0, early=False, berserk=True, own_moves=7) == (3, False)
    assert game_points(result="w", wins_in_row=0, early=False, berserk=True, own_moves=6) == (2, False)
    assert game_points(result="w", wins_in_row=2, early=False, berserk=True, own_moves=7) == (5, True)


def test_a_streak_of_wins_counts_double_until_a_game_is_not_won(two, alice, bob, make_user):
    for _ in range(4):
        tournaments_pair()
        win_for(game_of(two, alice), alice)
        # Never the opponent just played: with only two players in the arena, the last
        # opponent is the only one, so clear it to let the wave pair them again.
        TournamentPlayer.objects.filter(tournament=two).update(last_opponent=None)
    a = entry(two, alice)
    assert [r["p"] for r in a.results] == [2, 2, 4, 4]
    assert a.points == 12 and a.on_fire
    tournaments_pair()
    win_for(game_of(two, alice), bob)
    a = entry(two, alice)
    assert a.points == 12 and a.wins_in_row == 0 and not a.on_fire
    assert a.results[-1] == {"m": a.results[-1]["m"], "r": "l", "p": 0, "f": True, "b": False}
    assert entry(two, bob).points == 2


def test_a_draw_in_the_first_ten_moves_earns_nothing_but_a_later_one_earns_a_point(two, alice, bob):
    tournaments_pair()
    match = game_of(two, alice)
    play_moves(match, [3, 3, 3, 3])  # two moves each: it counts, but early
    match_offer_draw(match_id=match.pk, user_id=alice.pk)
    match_answer_draw(match_id=match.pk, user_id=bob.pk, accept=True)
    assert entry(two, alice).points == 0 and entry(two, alice).games == 1
    TournamentPlayer.objects.filter(tournament=two).update(last_opponent=None)
    tournaments_pair()
    match = game_of(two, alice)
    play_moves(match, [6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5])
    match.refresh_from_db()
    mover = PINK if match.to_move == PINK else BLUE
    match_offer_draw(match_id=match.pk, user_id=match.user_id_of(mover))
    match_answer_draw(match_id=match.pk, user_id=match.user_id_of(PINK + BLUE - mover), accept=True)
    assert entry(two, alice).points == 1 and entry(two, bob).points == 1


def test_berserk_halves_the_clock_and_adds_a_point_to_a_long_win(two, alice, bob):
    tournaments_pair()
    match = game_of(two, alice)
    assert match.move_seconds == 30
    pink = alice if match.pink_id == alice.pk else bob
    now = timezone.now()
    berserked = tournament_berserk(match_id=match.pk, user=pink, now=now)
    assert berserked.pink_berserk and not berserked.blue_berserk
    assert berserked.turn_deadline is not None and berserked.turn_deadline <= now + timedelta(seconds=15)
    match = play_moves(match, LONG_PINK_WIN)
    assert match.winner == PINK
    line = entry(two, pink)
    assert line.points == 3 and line.results[0]["b"] is True


def test_berserk_after_ones_first_move_or_twice_is_refused_and_changes_nothing(two, alice, bob):
    tournaments_pair()
    match = game_of(two, alice)
    pink = alice if match.pink_id == alice.pk else bob
    blue = bob if pink is alice else alice
    tournament_berserk(match_id=match.pk, user=blue)
    with pytest.raises(Refusal) as twice:
        tournament_berserk(match_id=match.pk, user=blue)
    assert twice.value.code == "berserk_twice"
    play_moves(match, [0])
    with pytest.raises(Refusal) as late:
        tournament_berserk(match_id=match.pk, user=pink)
    assert late.value.code == "berserk_too_late"
    match.refresh_from_db()
    assert not match.pink_berserk and match.blue_berserk


def test_berserk_outside_an_arena_is_refused(make_match, alice):
    with pytest.raises(Refusal) as refused:
        tournament_berserk(match_id=make_match().pk, user=alice)
    assert refused.value.code == "berserk_not_tournament"


# -- the wave ------------------------------------------------------------------------


def test_the_wave_pairs_free_players_once_and_never_a_player_twice(make_user):
    t = arena()
    users = [make_user(f"p{i}") for i in range(7)]
    for u in users:
        tournament_join(tournament_id=t.pk, user=u)
    first = tournaments_pair()
    assert len(first) == 3
    assert tournaments_pair() == []  # nobody free but one
    ids = [m.pink_id for m in first] + [m.blue_id for m in first]
    assert len(set(ids)) == 6
    assert all(m.tournament_id == t.pk and m.rated and m.move_seconds == 30 for m in first)


def test_a_wave_dates_its_games_when_it_makes_them(two, monkeypatch):
    """A wave waits for the one before it (PostgreSQL's advisory lock) and reads its free players
    while games end elsewhere: its matches are dated, and their first turns counted, from when
    they are made, after those reads (dated at the wave's start, a CI run saw an arena game begin
    11 ms before its player's last game had ended, and a wave that waited would have cut the
    first turn by the wait)."""
    read_at = []

    def waiting() -> None:
        time.sleep(0.05)

    def blocked_pairs(user_ids):
        read_at.append(timezone.now())  # the free players are read by now
        return real_blocked_pairs(user_ids)

    real_blocked_pairs = services._blocked_pairs
    monkeypatch.setattr(services, "_serialise_waves", waiting)
    monkeypatch.setattr(services, "_blocked_pairs", blocked_pairs)
    (match,) = tournaments_pair()
    match.refresh_from_db()
    assert match.created_at >= read_at[0]
    assert match.turn_deadline is not None and match.turn_deadline >= read_at[0] + timedelta(seconds=30)


def test_never_the_opponent_just_played_nor_a_blocked_pair(make_user):
    t = arena()
    a, b, c, d = (make_user(n) for n in ("anna", "bart", "cyryl", "dora"))
    for u in (a, b, c, d):
        tournament_join(tournament_id=t.pk, user=u)
    block_create(blocker=a, blocked=c)
    TournamentPlayer.objects.filter(tournament=t, user=a).update(last_opponent=b)
    TournamentPlayer.objects.filter(tournament=t, user=b).update(last_opponent=a)
    matches = tournaments_pair()
    pairs = {frozenset((m.pink_id, m.blue_id)) for m in matches}
    assert pairs == {frozenset((a.pk, d.pk)), frozenset((b.pk, c.pk))}


def test_a_paused_player_is_not_paired_and_comes_back_by_joining(two, alice, bob):
    tournament_withdraw(tournament_id=two.pk, user=alice)
    assert tournaments_pair() == []
    tournament_join(tournament_id=two.pk, user=alice)
    assert len(tournaments_pair()) == 1


def test_two_timeouts_in_a_row_pause_the_player(two, alice, bob, settings):
    for _ in range(2):
        tournaments_pair()
        match = game_of(two, alice)
        game_opened(match.pk, alice.pk)  # her page opened the game (issue 38: an unseen one is not hers)
        game_opened(match.pk, bob.pk)
        # alice never moves: the game is aborted when her first move's time runs out.
        if match.side_of(alice.pk) == BLUE:
            play_moves(match, [0])
            match.refresh_from_db()
        assert match.turn_deadline is not None
        assert match_expire_turn(match_id=match.pk, now=match.turn_deadline + timedelta(seconds=10))
        TournamentPlayer.objects.filter(tournament=two).update(last_opponent=None)
    a, b = entry(two, alice), entry(two, bob)
    assert a.paused and a.timeouts_in_row == 2
    assert not b.paused and b.timeouts_in_row == 0


def test_a_game_its_player_never_opened_is_not_their_timeout(two, alice, bob):
    """Issue 38: the wave's word may not reach a page (a socket reconnecting then); a game aborted
    for a first move its player never saw does not count towards the pause, twice or more."""
    for _ in range(3):
        tournaments_pair()
        match = game_of(two, alice)
        game_opened(match.pk, bob.pk)  # bob's page opened it; alice's never did
        if match.side_of(alice.pk) == BLUE:
            play_moves(match, [0])
            match.refresh_from_db()
        assert match.turn_deadline is not None
        assert match_expire_turn(match_id=match.pk, now=match.turn_deadline + timedelta(seconds=10))
        TournamentPlayer.objects.filter(tournament=two).update(last_opponent=None)
    a, b = entry(two, alice), entry(two, bob)
    assert not a.paused and a.timeouts_in_row == 0 and a.match_id is None
    assert not b.paused


def test_two_players_meet_again_when_nobody_else_is_free_after_a_wait(two, alice, bob, settings):
    """Issue 38: a two-player arena gives game after game: last opponents are paired again once
    neither has found anyone new for REMATCH_AFTER_WAVES waves (a new opponent is preferred)."""
    tournaments_pair()
    match = game_of(two, alice)
    match_resign(match_id=match.pk, user_id=alice.pk)
    match.refresh_from_db()
    ended = match.finished_at
    assert ended is not None
    wait = timedelta(seconds=REMATCH_AFTER_WAVES * settings.TOURNAMENT_PAIR_SECONDS)
    assert tournaments_pair(now=ended + wait / 2) == []  # too soon: a new opponent may still come
    again = tournaments_pair(now=ended + wait + timedelta(seconds=1))
    assert len(again) == 1 and {again[0].pink_id, again[0].blue_id} == {alice.pk, bob.pk}


def test_a_new_opponent_is_preferred_to_a_rematch(two, alice, bob, make_user):
    tournaments_pair()
    match = game_of(two, alice)
    match_resign(match_id=match.pk, user_id=alice.pk)
    cyryl = make_user("cyryl")
    tournament_join(tournament_id=two.pk, user=cyryl)
    later = timezone.now() + timedelta(minutes=1)
    made = tournaments_pair(now=later)
    assert len(made) == 1 and cyryl.pk in (made[0].pink_id, made[0].blue_id)


# -- refusals -----------------------------------------------------------------------


def test_withdrawing_during_a_game_is_refused_and_changes_nothing(two, alice):
    tournaments_pair()
    with pytest.raises(Refusal) as refused:
        tournament_withdraw(tournament_id=two.pk, user=alice)
    assert refused.value.code == "tournament_in_game"
    assert not entry(two, alice).paused


def test_joining_a_finished_tournament_is_refused(alice):
    t = arena(status=Tournament.Status.FINISHED)
    with pytest.raises(Refusal) as refused:
        tournament_join(tournament_id=t.pk, user=alice)
    assert refused.value.code == "tournament_finished"
    assert not TournamentPlayer.objects.filter(tournament=t).exists()


def test_guests_and_visitors_are_refused(alice, django_user_model):
    from django.contrib.auth.models import AnonymousUser

    t = arena()
    guest = django_user_model.objects.create_user(username="gosc-1", is_guest=True)
    for user, code in ((guest, "tournament_account"), (AnonymousUser(), "login_required")):
        with pytest.raises(Refusal) as refused:
            tournament_join(tournament_id=t.pk, user=user)
        assert refused.value.code == code
        with pytest.raises(Refusal):
            tournament_create(user=user, variant=C4, start_in_minutes=5, minutes=30)
    assert not TournamentPlayer.objects.exists()


def test_a_creator_has_two_open_tournaments_at_most(alice):
    for _ in range(2):
        tournament_create(user=alice, variant=C4, start_in_minutes=5, minutes=30, move_seconds=20)
    with pytest.raises(Refusal) as refused:
        tournament_create(user=alice, variant=C4, start_in_minutes=5, minutes=30)
    assert refused.value.code == "tournament_too_many"
    with pytest.raises(Refusal) as bad:
        tournament_create(user=alice, variant=C4, start_in_minutes=5, minutes=500)
    assert bad.value.code == "tournament_bad_settings"


# -- the end --------------------------------------------------------------------------


def test_at_the_end_the_standings_freeze_and_a_running_game_counts_for_ratings_only(two, alice, bob):
    tournaments_pair()
    first = game_of(two, alice)
    win_for(first, alice)
    TournamentPlayer.objects.filter(tournament=two).update(last_opponent=None)
    tournaments_pair()
    running = game_of(two, alice)
    play_moves(running, [0, 1])
    later = two.ends_at + timedelta(seconds=1)
    assert tournaments_pair(now=later) == []
    two.refresh_from_db()
    assert two.status == Tournament.Status.FINISHED
    assert [entry(two, u).rank for u in (alice, bob)] == [1, 2]
    win_for(running, bob)  # after the end
    running.refresh_from_db()
    assert running.status == Match.Status.FINISHED
    a, b = entry(two, alice), entry(two, bob)
    assert (a.points, b.points) == (2, 0) and a.games == 1
    assert a.match is None and b.match is None
    from ratings.models import RatingChange

    assert RatingChange.objects.filter(match_id=running.pk).count() == 2
    with pytest.raises(Refusal):
        tournament_join(tournament_id=two.pk, user=alice)


def test_an_upcoming_arena_starts_with_the_wave(alice, bob):
    now = timezone.now()
    t = arena(now, starts_at=now + timedelta(minutes=1), status=Tournament.Status.UPCOMING)
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    assert tournaments_pair(now=now) == []
    assert len(tournaments_pair(now=now + timedelta(minutes=1))) == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_the_schedule_makes_each_arena_once():
    made = tournaments_schedule()
    assert made
    assert tournaments_schedule() == []
    hourly = TournamentSchedule.objects.get(every="hour")
    assert Tournament.objects.filter(schedule=hourly).count() == 6
    variants = set(Tournament.objects.filter(schedule=hourly).values_list("variant", flat=True))
    assert len(variants) > 1  # rotating


def test_a_player_in_another_game_against_a_person_waits(two, alice, bob, charlie, make_match):
    make_match(pink=alice, blue=charlie)  # a challenge game, say
    assert tournaments_pair() == []
    tournament_join(tournament_id=two.pk, user=charlie)
    assert tournaments_pair() == []  # charlie too is busy; bob has nobody free


def test_the_schedule_makes_the_evening_and_weekly_arenas_at_their_local_times():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    warsaw = ZoneInfo("Europe/Warsaw")
    sunday_noon = datetime(2026, 12, 6, 12, 30, tzinfo=warsaw)  # a Sunday
    made = tournaments_schedule(now=sunday_noon)

    def every(t):
        assert t.schedule is not None
        return t.schedule.every

    starts = {(every(t), t.variant): timezone.localtime(t.starts_at, warsaw) for t in made}
    weekly = starts[("week", "kropki-20")]
    assert (weekly.weekday(), weekly.hour, weekly.minute) == (6, 18, 0)
    assert not any(every == "day" for every, _ in starts)  # 20:00 is more than six hours ahead
    evening = tournaments_schedule(now=sunday_noon + timedelta(hours=3))
    assert {t.variant for t in evening if every(t) == "day"} == {
        "kropki-10",
        "cztery-w-rzedzie",
        "kropki-i-kwadraty",
        "pilkarzyki",
    }
    assert all(timezone.localtime(t.starts_at, warsaw).hour == 20 for t in evening if every(t) == "day")
    hourly = sorted(t.starts_at for t in made if every(t) == "hour")
    assert [s - hourly[0] for s in hourly] == [timedelta(hours=h) for h in range(6)]
