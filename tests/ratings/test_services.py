"""ratings_apply_result through the real match services: once per match, only rated
matches that count (two moves by each side), W/D/L counters, idempotence under races.

The personas are new accounts, so the daily cap on gains from new opponents
(ratings/services.py; tests/fairplay/test_farming.py) would hold a first win to
NEW_OPPONENT_GAIN_PER_DAY: the tests of Glicko-2's own figures lift it (``uncapped``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import play as services
from games.models import Match
from kropki_site.lib.refusals import Refusal
from ratings import glicko2
from ratings.models import Rating, RatingChange
from ratings.selectors import history, leaderboard, rating_for
from ratings.services import ratings_apply_result
from tests.helpers import C4, play, run_together

pytestmark = pytest.mark.django_db


def pink_wins_c4(match, pink, blue):
    """Pink stacks four discs in column 0 while blue plays column 1."""
    for user, column in [(pink, 0), (blue, 1), (pink, 0), (blue, 1), (pink, 0), (blue, 1), (pink, 0)]:
        play(match, user, column)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 1


@pytest.fixture
def uncapped(settings):
    settings.NEW_OPPONENT_GAIN_PER_DAY = 10**6


def counters(user, variant=C4):
    r = Rating.objects.get(user=user, variant=variant)
    return r.games, r.wins, r.draws, r.losses


def test_a_rated_win_moves_both_ratings_and_stores_the_change(make_match, alice, bob, uncapped):
    match = make_match(rated=True)
    pink_wins_c4(match, alice, bob)
    a, b = rating_for(alice, C4), rating_for(bob, C4)
    assert a.rating > 1500 > b.rating
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)
    assert counters(alice) == (1, 1, 0, 0) and counters(bob) == (1, 0, 0, 1)
    changes = {c.user_id: c for c in RatingChange.objects.filter(match_id=match.pk)}
    assert changes[alice.pk].rating_before == 1500 and changes[alice.pk].rating_after == a.rating
    assert changes[bob.pk].deviation_before == 500 and changes[bob.pk].deviation_after == b.deviation
    assert changes[alice.pk].side == 1 and changes[alice.pk].score == 1.0


def test_the_finished_frame_carries_the_deltas(make_match, alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    frames = []
    monkeypatch.setattr(
        "games.live.transport.send_to_match", lambda match_id, frame: frames.append((frame["type"], frame))
    )
    match = make_match(rated=True)
    for user, column in [(alice, 0), (bob, 1), (alice, 0), (bob, 1), (alice, 0), (bob, 1)]:
        play(match, user, column)
    with django_capture_on_commit_callbacks(execute=True):
        play(match, alice, 0)
    kind, extra = frames[-1]
    assert kind == "finished"
    deltas = extra["rating_deltas"]
    assert deltas["1"]["before"] == 1500 and deltas["1"]["delta"] > 0 and deltas["2"]["delta"] < 0
    assert deltas["1"]["after"] == deltas["1"]["before"] + deltas["1"]["delta"]
    assert deltas["1"]["provisional"] is True


def test_a_draw_between_equal_ratings_leaves_them_unchanged(make_match, alice, bob):
    match = make_match(rated=True)
    for user in (alice, bob, alice, bob):  # two moves each: the game counts
        play(match, user, 3)
    services.match_offer_draw(match_id=match.pk, user_id=alice.pk)
    services.match_answer_draw(match_id=match.pk, user_id=bob.pk, accept=True)
    a, b = rating_for(alice, C4), rating_for(bob, C4)
    assert a.rating == pytest.approx(1500, abs=1e-9) and b.rating == pytest.approx(1500, abs=1e-9)
    assert a.deviation < 500  # a game was still played: the rating is surer
    # A draw is a draw, never a loss.
    assert counters(alice) == (1, 0, 1, 0) and counters(bob) == (1, 0, 1, 0)


def test_a_draw_between_unequal_ratings_pulls_them_together(make_match, alice, bob):
    Rating.objects.create(user=alice, variant=C4, rating=1700, deviation=80)
    Rating.objects.create(user=bob, variant=C4, rating=1400, deviation=80)
    match = make_match(rated=True)
    for user in (alice, bob, alice, bob):  # two moves each: the game counts
        play(match, user, 3)
    services.match_offer_draw(match_id=match.pk, user_id=bob.pk)
    services.match_answer_draw(match_id=match.pk, user_id=alice.pk, accept=True)
    a, b = rating_for(alice, C4), rating_for(bob, C4)
    assert b.rating > 1400 and a.rating < 1700
    assert counters(alice) == (1, 0, 1, 0) and counters(bob) == (1, 0, 1, 0)


def test_wins_draws_and_losses_are_counted_per_variant(make_match, alice, bob):
    m1 = make_match(rated=True)
    pink_wins_c4(m1, alice, bob)
    m2 = make_match(rated=True, pink=bob, blue=alice)
    pink_wins_c4(m2, bob, alice)
    m3 = make_match(rated=True)
    for user in (alice, bob, alice, bob):  # two moves each: the game counts
        play(m3, user, 3)
    services.match_resign(match_id=m3.pk, user_id=bob.pk)
    m4 = make_match("kropki-i-kwadraty", rated=True)
    for user, line in ((alice, 0), (bob, 59), (alice, 1), (bob, 58)):
        play(m4, user, line)
    services.match_offer_draw(match_id=m4.pk, user_id=alice.pk)
    services.match_answer_draw(match_id=m4.pk, user_id=bob.pk, accept=True)
    assert counters(alice) == (3, 2, 0, 1) and counters(bob) == (3, 1, 0, 2)
    assert counters(alice, "kropki-i-kwadraty") == (1, 0, 1, 0)
    assert RatingChange.objects.filter(user=alice).count() == 4


def test_casual_matches_are_not_rated(make_match, alice, bob):
    match = make_match(rated=False)
    pink_wins_c4(match, alice, bob)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_aborted_matches_are_not_rated(make_match, alice, bob):
    match = make_match(rated=True)
    later = timezone.now() + timedelta(hours=1)
    assert services.match_expire_turn(match_id=match.pk, now=later)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert not RatingChange.objects.exists()


def test_one_sided_matches_are_not_rated(make_match, alice, bob):
    """Pink moved, blue never did and resigned: finished, but not rated (nor counted)."""
    match = make_match(rated=True)
    play(match, alice, 3)
    services.match_resign(match_id=match.pk, user_id=bob.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 1
    assert not match.counts
    assert not RatingChange.objects.exists()


def test_computer_matches_are_not_rated(alice):
    match = services.match_create(variant=C4, pink_id=alice.pk, blue_id=None, bot_level="latwy", rated=True)
    assert match.rated is False
    play(match, alice, 3)
    services.match_resign(match_id=match.pk, user_id=alice.pk)
    assert not RatingChange.objects.exists()


def test_applying_twice_returns_the_stored_deltas_and_changes_nothing(alice, bob):
    now = timezone.now()
    first = ratings_apply_result(variant=C4, match_id=99, pink_id=alice.pk, blue_id=bob.pk, score_pink=1.0, now=now)
    snapshot = list(Rating.objects.order_by("pk").values())
    again = ratings_apply_result(variant=C4, match_id=99, pink_id=alice.pk, blue_id=bob.pk, score_pink=0.0, now=now)
    assert again == first
    assert list(Rating.objects.order_by("pk").values()) == snapshot
    assert RatingChange.objects.count() == 2


def test_inactivity_widens_the_deviation_before_the_game(alice, bob):
    t0 = timezone.now()
    Rating.objects.create(user=alice, variant=C4, rating=1600, deviation=60, last_played_at=t0 - timedelta(days=365))
    Rating.objects.create(user=bob, variant=C4, rating=1600, deviation=60, last_played_at=t0)
    ratings_apply_result(variant=C4, match_id=1, pink_id=alice.pk, blue_id=bob.pk, score_pink=1.0, now=t0)
    a, b = rating_for(alice, C4), rating_for(bob, C4)
    # The year away made alice's rating less certain, so it moves further.
    assert a.rating - 1600 > 1600 - b.rating > 0


def test_rating_for_defaults_and_leaderboard_puts_provisional_last(alice, bob, charlie):
    assert (rating_for(alice, C4).rating, rating_for(alice, C4).deviation) == (1500, 500)
    assert rating_for(alice, C4).display == "1500?"
    Rating.objects.create(user=alice, variant=C4, rating=1650, deviation=60)
    Rating.objects.create(user=bob, variant=C4, rating=1800, deviation=110)  # provisional
    Rating.objects.create(user=charlie, variant=C4, rating=1550, deviation=109.9)
    assert [r.user.username for r in leaderboard(C4)] == ["alice", "charlie", "bob"]
    assert rating_for(alice, C4).display == "1650"


def test_history_is_oldest_first_and_starts_before_the_first_game(alice, bob):
    t0 = timezone.now()
    for i in range(3):
        ratings_apply_result(
            variant=C4, match_id=i + 1, pink_id=alice.pk, blue_id=bob.pk, score_pink=1.0, now=t0 + timedelta(minutes=i)
        )
    points = history(alice, C4)
    assert len(points) == 4 and points[0].rating == 1500
    assert [p.rating for p in points] == sorted(p.rating for p in points)
    assert points[-1].rating == rating_for(alice, C4).rating


# -- races (real threads, real transactions) ---------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_timeout_racing_a_resignation_is_rated_once(make_user, settings):
    settings.RATED_GAMES_PER_PAIR_PER_DAY = 5  # one pair, five races (games/play/trust.py caps a pair's day)
    alice, bob = make_user("alice"), make_user("bob")
    for _ in range(5):
        match = services.match_create(variant=C4, pink_id=alice.pk, blue_id=bob.pk, rated=True)
        for user in (alice, bob, alice, bob):  # two moves each: the game counts
            play(match, user, 3)
        late = timezone.now() + timedelta(hours=1)
        results = run_together(  # each call binds its own match (B023)
            lambda match=match, late=late: services.match_expire_turn(match_id=match.pk, now=late),
            lambda match=match: services.match_resign(match_id=match.pk, user_id=alice.pk),
        )
        errors = [r for r in results if isinstance(r, BaseException) and not isinstance(r, Refusal)]
        assert not errors, errors
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert RatingChange.objects.filter(match_id=match.pk).count() == 2
    # Five matches, each rated exactly once.
    assert counters(alice)[0] == 5 and counters(bob)[0] == 5
    a, b = Rating.objects.get(user=alice), Rating.objects.get(user=bob)
    assert a.wins + a.losses == 5 and a.wins == b.losses


@pytest.mark.django_db(transaction=True)
def test_the_same_result_applied_from_two_threads_is_stored_once(make_user, uncapped):
    """Even without the match's lock, the rating rows' locks and the unique change make it once."""
    alice, bob = make_user("alice"), make_user("bob")
    now = timezone.now()

    def apply():
        return ratings_apply_result(variant=C4, match_id=7, pink_id=alice.pk, blue_id=bob.pk, score_pink=1.0, now=now)

    results = run_together(apply, apply, apply)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert results[0] == results[1] == results[2]
    assert RatingChange.objects.count() == 2
    assert Rating.objects.get(user=alice).games == 1
    expected = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 1.0)[0].rating
    assert Rating.objects.get(user=alice).rating == pytest.approx(expected)
