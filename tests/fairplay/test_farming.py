"""Issue 36 item 4: farming closed (docs/fairplay.md "Games that count, and farming").

Measured before: the new-account gate passed in 0.2 s with three computer games resigned at
ply 0; a provisional farmer took 1500 to 1990 in 4.8 s against four fresh alts; an account
that joined an arena and then became a bot was paired and scored; a resignation at ply 0 was
a full arena win."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.addresses import BROWSER_COOKIE, shared_browser
from accounts.models import PairFlag, User
from games import play as services
from games.models import Match
from games.play import botaccounts, trust
from games.play.computer import match_bot_turn
from games.tournaments.models import TournamentPlayer
from games.tournaments.services import tournament_join, tournaments_pair
from kropki_site.lib.refusals import Refusal
from ratings.models import Rating, RatingChange
from ratings.selectors import rating_for
from tests.conftest import PASSWORD
from tests.factories import PINK_WINS
from tests.games.play.test_tournaments import arena
from tests.helpers import C4, play, play_moves

pytestmark = pytest.mark.django_db

# Two moves each that win nothing (columns 6 and 5), then a resignation can end a game that counts.
TWO_EACH = [6, 6, 5, 5]


def age(*users, minutes: int) -> None:
    User.objects.filter(pk__in=[u.pk for u in users]).update(date_joined=timezone.now() - timedelta(minutes=minutes))


def refused(code, fn, **kwargs):
    with pytest.raises(Refusal) as info:
        fn(**kwargs)
    assert info.value.code == code, info.value


def finished(match) -> Match:
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


# -- games that count --------------------------------------------------------------------------


def test_a_game_counts_only_after_two_moves_by_each_player(make_match, alice, bob):
    at_zero = make_match(rated=True)
    services.match_resign(match_id=at_zero.pk, user_id=bob.pk)
    three_plies = make_match(rated=True)
    play_moves(three_plies, [6, 6, 5])
    services.match_resign(match_id=three_plies.pk, user_id=bob.pk)
    real = make_match(rated=True)
    play_moves(real, TWO_EACH)
    services.match_resign(match_id=real.pk, user_id=bob.pk)
    assert [finished(m).counts for m in (at_zero, three_plies, real)] == [False, False, True]
    assert set(RatingChange.objects.values_list("match_id", flat=True)) == {real.pk}
    assert Rating.objects.get(user=alice, variant=C4).wins == 1  # the statistics: one game


def test_a_move_the_clock_made_is_not_the_players(make_match, alice, bob):
    """Kropki: running out of time plays the end for the player (``by_timeout``); it is not one
    of their two moves."""
    match = make_match("kropki-10", rated=True)
    play(match, alice, 0)
    play(match, bob, 1)
    match.refresh_from_db()
    assert match.turn_deadline is not None
    assert services.match_expire_turn(match_id=match.pk, ply=2, now=match.turn_deadline + timedelta(seconds=3))
    play(match, bob, 2)  # bob plays on, then ends too
    play(match, bob, 100)
    assert not finished(match).counts
    assert not RatingChange.objects.exists()


def test_an_aborted_game_does_not_count(make_match):
    match = make_match(rated=True)
    assert services.match_expire_turn(match_id=match.pk, now=timezone.now() + timedelta(hours=1))
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and not match.counts


def test_the_gate_is_not_passed_by_resigned_aborted_or_easy_computer_games(settings, alice):
    """Measured before: three computer games resigned at ply 0 passed it in 0.2 s."""
    settings.NEW_ACCOUNT_MINUTES, settings.NEW_ACCOUNT_GAMES = 60, 3

    def computer(level, moves):
        match = services.match_create(variant=C4, pink_id=alice.pk, blue_id=None, bot_level=level)
        for i in range(moves):
            play(match, alice, 6 if i < 2 else 5)
            assert match_bot_turn(match_id=match.pk, ply=match.ply + 1)
        services.match_resign(match_id=match.pk, user_id=alice.pk)
        return finished(match)

    for _ in range(3):
        computer("sredni", 0)
        computer("latwy", 2)
    assert trust.real_games(alice.pk) == 0
    refused("account_too_new", trust.require_established, user_id=alice.pk)
    for _ in range(3):
        assert computer("sredni", 2).counts
    assert trust.real_games(alice.pk) == 3
    trust.require_established(alice.pk)


def test_a_game_that_did_not_count_makes_no_acquaintance(make_match, alice, bob):
    """A new account may challenge a player it has played (docs/social.md): not after a game resigned at once."""
    services.match_resign(match_id=make_match().pk, user_id=bob.pk)
    assert not trust.have_played(alice.pk, bob.pk)
    match = make_match()
    play_moves(match, TWO_EACH)
    services.match_resign(match_id=match.pk, user_id=bob.pk)
    assert trust.have_played(alice.pk, bob.pk)


def test_the_gate_counts_real_games_against_people(settings, make_match, alice, bob):
    settings.NEW_ACCOUNT_MINUTES, settings.NEW_ACCOUNT_GAMES = 60, 2
    for _ in range(2):
        services.match_resign(match_id=make_match().pk, user_id=bob.pk)
    refused("account_too_new", trust.require_established, user_id=alice.pk)
    for _ in range(2):
        match = make_match()
        play_moves(match, TWO_EACH)
        services.match_resign(match_id=match.pk, user_id=bob.pk)
    trust.require_established(alice.pk)


# -- rating farming with many alts ----------------------------------------------------------------


def farm(farmer, alts, *, rounds: int) -> float:
    """The farmer wins ``rounds`` rated games against each alt (real services, real Glicko-2);
    returns the farmer's gain."""
    for _ in range(rounds):
        for alt in alts:
            match = services.match_create(variant=C4, pink_id=farmer.pk, blue_id=alt.pk, rated=True)
            play_moves(match, PINK_WINS)
            assert finished(match).winner == 1
    return rating_for(farmer, C4).rating - 1500


@pytest.mark.parametrize("alts", [4, 10])
def test_a_farmer_with_fresh_alts_gains_at_most_150_in_a_day(settings, make_user, alts):
    """Measured before: 1500 to 1990 with four alts. The alts pass the gate legitimately (by age)."""
    settings.NEW_ACCOUNT_MINUTES, settings.NEW_ACCOUNT_GAMES = 60, 3
    farmer = make_user("farmer")
    helpers = [make_user(f"alt{i}") for i in range(alts)]
    age(farmer, *helpers, minutes=90)
    gain = farm(farmer, helpers, rounds=settings.RATED_GAMES_PER_PAIR_PER_DAY)
    assert RatingChange.objects.filter(user=farmer).count() == alts * settings.RATED_GAMES_PER_PAIR_PER_DAY
    assert 0 < gain <= settings.NEW_OPPONENT_GAIN_PER_DAY == 150
    # The alts lose as Glicko-2 says: nothing is given to them.
    assert all(rating_for(a, C4).rating < 1500 for a in helpers)


def test_without_the_cap_the_same_farm_is_worth_hundreds(settings, make_user):
    """The attack the cap answers (the figure docs/fairplay.md gives)."""
    settings.NEW_OPPONENT_GAIN_PER_DAY = 10**6
    farmer = make_user("farmer")
    helpers = [make_user(f"alt{i}") for i in range(4)]
    gain = farm(farmer, helpers, rounds=settings.RATED_GAMES_PER_PAIR_PER_DAY)
    assert gain > 400


def test_alts_that_played_each_other_are_still_new_by_age(settings, make_user):
    """Alts with settled (non-provisional) ratings made in a day are young accounts: still capped."""
    farmer = make_user("farmer")
    helpers = [make_user(f"alt{i}") for i in range(3)]
    for alt in helpers:
        Rating.objects.create(user=alt, variant=C4, rating=1500, deviation=60)
    assert farm(farmer, helpers, rounds=3) <= 150


def test_the_cap_leaves_wins_against_established_players_alone(settings, make_user):
    farmer = make_user("farmer")
    helpers = [make_user(f"alt{i}") for i in range(4)]
    farm(farmer, helpers, rounds=3)
    before = rating_for(farmer, C4).rating
    veteran = make_user("veteran")
    User.objects.filter(pk=veteran.pk).update(date_joined=timezone.now() - timedelta(days=400))
    Rating.objects.create(user=veteran, variant=C4, rating=1700, deviation=60)
    farm(farmer, [veteran], rounds=1)
    assert rating_for(farmer, C4).rating > before + 10
    # ...and a day later the new opponents count again.
    RatingChange.objects.update(created_at=timezone.now() - timedelta(hours=25))
    newcomer = make_user("newcomer")
    before = rating_for(farmer, C4).rating
    farm(farmer, [newcomer], rounds=1)
    assert rating_for(farmer, C4).rating > before


# -- shared browsers ------------------------------------------------------------------------------


def test_a_page_gives_the_browser_an_identifier_once(client):
    first = client.get(reverse("home"))
    assert BROWSER_COOKIE in first.cookies and first.cookies[BROWSER_COOKIE]["httponly"]
    again = client.get(reverse("home"))
    assert BROWSER_COOKIE not in again.cookies


def test_accounts_logged_in_from_one_browser_are_flagged_when_they_play_rated(make_user, make_match):
    a, b = make_user("ala"), make_user("ola")
    browser = Client()
    browser.get(reverse("home"))
    for user in (a, b):
        assert browser.post(reverse("login"), {"username": user.username, "password": PASSWORD}).status_code == 302
        browser.post(reverse("logout"))
    assert shared_browser(a.pk, b.pk)
    other = make_user("ewa")
    Client().post(reverse("login"), {"username": other.username, "password": PASSWORD})
    assert not shared_browser(a.pk, other.pk)
    match = make_match(rated=True, pink=a, blue=b)
    play_moves(match, PINK_WINS)
    flag = PairFlag.objects.get(reason=PairFlag.Reason.SHARED_BROWSER)
    assert {flag.user_a_id, flag.user_b_id} == {a.pk, b.pk} and flag.last_match_id == match.pk


# -- arenas ---------------------------------------------------------------------------------------


def test_an_arena_game_resigned_before_two_moves_each_gives_no_points_nor_streak(alice, bob):
    """Measured before: 20 points in 40 s with two helpers resigning at ply 0."""
    t = arena()
    for user in (alice, bob):
        tournament_join(tournament_id=t.pk, user=user)
    for _ in range(4):
        (match,) = tournaments_pair()
        loser = match.blue_id if match.pink_id == alice.pk else match.pink_id
        services.match_resign(match_id=match.pk, user_id=loser)
        TournamentPlayer.objects.filter(tournament=t).update(last_opponent=None)
    a = TournamentPlayer.objects.get(tournament=t, user=alice)
    assert (a.points, a.games, a.wins_in_row, a.results) == (0, 0, 0, [])
    (match,) = tournaments_pair()
    play_moves(match, TWO_EACH)
    loser = match.blue_id if match.pink_id == alice.pk else match.pink_id
    services.match_resign(match_id=match.pk, user_id=loser)
    a.refresh_from_db()
    assert (a.points, a.games, a.wins_in_row) == (2, 1, 1)


def test_an_account_that_joined_an_arena_and_became_a_bot_is_withdrawn_never_paired(alice, bob, charlie):
    t = arena()
    for user in (alice, bob, charlie):
        tournament_join(tournament_id=t.pk, user=user)
    botaccounts.user_become_bot(user_id=charlie.pk)  # it has not played: allowed
    matches = tournaments_pair()
    assert [{m.pink_id, m.blue_id} for m in matches] == [{alice.pk, bob.pk}]
    assert TournamentPlayer.objects.get(tournament=t, user=charlie).paused
    refused("tournament_bot", tournament_join, tournament_id=t.pk, user=User.objects.get(pk=charlie.pk))


def test_an_account_that_has_played_cannot_become_a_bot(make_match, alice, bob):
    services.match_resign(match_id=make_match().pk, user_id=bob.pk)  # even a game that did not count
    refused("has_games", botaccounts.user_become_bot, user_id=alice.pk)
    assert not User.objects.get(pk=alice.pk).is_bot


# -- pages ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "record_words", "list_words"),
    [
        ("pl", "Nie liczy się: partia skończyła się, zanim każdy gracz wykonał dwa ruchy", "(nie liczy się)"),
        ("en", "Not counted: the game ended before each player made two moves", "(not counted)"),
    ],
)
def test_the_record_and_the_profile_say_a_game_did_not_count(client, make_match, bob, lang, record_words, list_words):
    client.cookies["kropki_language"] = lang
    short = make_match(rated=True)
    services.match_resign(match_id=short.pk, user_id=bob.pk)
    real = make_match(rated=True)
    play_moves(real, TWO_EACH)
    services.match_resign(match_id=real.pk, user_id=bob.pk)
    assert record_words in client.get(reverse("record", args=[short.pk])).content.decode()
    assert 'data-testid="record-not-counted"' not in client.get(reverse("record", args=[real.pk])).content.decode()
    # The match page says it at once (match.js shows the same line when the finished frame's header
    # says ``counts: false``).
    shown = f'<p class="muted" id="not-counted" data-testid="not-counted">{record_words}'
    assert shown in client.get(reverse("match", args=[short.pk])).content.decode()
    assert (
        'id="not-counted" data-testid="not-counted" hidden>'
        in client.get(reverse("match", args=[real.pk])).content.decode()
    )
    profile = client.get(reverse("profile", args=["alice"])).content.decode()
    assert profile.count(list_words) == 1
    wins = client.get(reverse("profile", args=["alice"]) + "?wynik=win").content.decode()
    assert f"/partia/{real.pk}/zapis/" in wins and f"/partia/{short.pk}/zapis/" not in wins


@pytest.mark.parametrize(
    ("lang", "words"),
    [("pl", "Kiedy partia się nie liczy?"), ("en", "When does a game not count?")],
)
def test_the_faq_says_when_a_game_does_not_count(client, lang, words):
    client.cookies["kropki_language"] = lang
    html = client.get(reverse("faq")).content.decode()
    assert words in html and 'data-testid="faq-counts"' in html
