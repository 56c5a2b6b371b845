"""Staff's decisions (games/fairplay/services.py; docs/fairplay.md "Marks, refunds and the
moderation page"): marks give opponents back what they lost (real Glicko-2 numbers, once per
player and match), a booster mark takes back its gains from flagged pairs, every decision is
logged with staff and reason, a mark can be lifted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import PairFlag
from games.fairplay import services
from games.fairplay.models import FairPlayDecision, FairPlayFlag, RatingRefund
from games.models import Seek
from games.play.matchmaking import seek_create
from kropki_site.lib.refusals import Refusal
from ratings import glicko2
from ratings.models import Rating, RatingChange
from tests.fairplay.conftest import play_rated
from tests.helpers import C4, run_together

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def uncapped(settings):
    """These games are between new accounts: the daily cap on gains from new opponents
    (NEW_OPPONENT_GAIN_PER_DAY, docs/fairplay.md) would bend Glicko-2's own figures."""
    settings.NEW_OPPONENT_GAIN_PER_DAY = 10**6


def rating(user) -> Rating:
    return Rating.objects.get(user=user, variant=C4)


def change(match, user) -> RatingChange:
    return RatingChange.objects.get(match_id=match.pk, user=user)


def test_an_engine_mark_gives_each_opponent_back_exactly_what_they_lost_once(
    make_user, alice, bob, charlie, staff, rated_game
):
    cheat = make_user("cheat")
    dave = make_user("dave")
    first = rated_game(cheat, alice)  # alice's first rated game: 1500 / 500 / 0.09 against the same
    # The real Glicko-2 numbers: what the services stored is the maths' own result.
    fresh = glicko2.Rating(glicko2.DEFAULT_RATING, glicko2.DEFAULT_DEVIATION, glicko2.DEFAULT_VOLATILITY)
    won, lost = glicko2.rate_game(fresh, fresh, 1.0)
    assert change(first, alice).rating_after == pytest.approx(lost.rating)
    assert change(first, cheat).rating_after == pytest.approx(won.rating)
    lost_points = fresh.rating - lost.rating
    assert lost_points > 100  # a first game moves a lot

    rated_game(charlie, dave)  # charlie climbs well above the cheat ...
    rated_game(charlie, dave, pink_first=False)
    drawn = rated_game(cheat, charlie, draw=True)  # ... so a draw with the cheat costs charlie points
    rated_game(cheat, bob, pink_first=False)
    bob_win = rated_game(bob, cheat)  # bob wins one back: nothing to refund for that game
    assert change(drawn, charlie).rating_after < change(drawn, charlie).rating_before
    before = {u.username: rating(u) for u in (alice, bob, charlie, dave)}

    decision = services.mark(cheat.pk, "engine", staff, "agreement with the engine 96% over 12 games")

    after = {u.username: rating(u) for u in (alice, bob, charlie, dave)}
    # alice lost one game: she is back at 1500 exactly; her deviation stays (points, not certainty)
    assert after["alice"].rating == pytest.approx(glicko2.DEFAULT_RATING)
    assert after["alice"].deviation == before["alice"].deviation == pytest.approx(lost.deviation)
    assert after["alice"].rating - before["alice"].rating == pytest.approx(lost_points)
    bob_lost = [c for c in RatingChange.objects.filter(user=bob) if c.rating_after < c.rating_before]
    assert len(bob_lost) == 1 and bob_lost[0].match_id != bob_win.pk
    assert after["bob"].rating - before["bob"].rating == pytest.approx(
        bob_lost[0].rating_before - bob_lost[0].rating_after
    )
    charlie_lost = change(drawn, charlie).rating_before - change(drawn, charlie).rating_after
    assert after["charlie"].rating - before["charlie"].rating == pytest.approx(charlie_lost)
    assert after["dave"].rating == before["dave"].rating  # never played the cheat
    assert rating(cheat).rating == change(bob_win, cheat).rating_after  # an engine mark takes nothing back
    refunds = {(r.user.username, r.match_id): r.points for r in decision.refunds.select_related("user")}
    assert refunds == {
        ("alice", first.pk): pytest.approx(lost_points),
        ("bob", bob_lost[0].match_id): pytest.approx(bob_lost[0].rating_before - bob_lost[0].rating_after),
        ("charlie", drawn.pk): pytest.approx(charlie_lost),
    }

    # Marked again, and lifted then marked again: nothing is given twice.
    services.mark(cheat.pk, "engine", staff, "second look")
    services.lift(cheat.pk, staff, "appeal accepted")
    services.mark(cheat.pk, "engine", staff, "appeal reversed")
    assert {u.username: rating(u).rating for u in (alice, bob, charlie)} == {
        k: pytest.approx(v.rating) for k, v in after.items() if k != "dave"
    }
    assert RatingRefund.objects.count() == 3


def test_an_engine_mark_refunds_the_last_90_days_only(make_user, alice, bob, staff, rated_game):
    cheat = make_user("cheat")
    old = rated_game(cheat, alice)
    RatingChange.objects.filter(match_id=old.pk).update(
        created_at=timezone.now() - timedelta(days=services.ENGINE_REFUND_DAYS + 1)
    )
    recent = rated_game(cheat, bob)
    alice_before, bob_before = rating(alice).rating, rating(bob).rating

    services.mark(cheat.pk, "engine", staff, "engine")

    assert rating(alice).rating == alice_before
    assert rating(bob).rating == pytest.approx(
        bob_before + change(recent, bob).rating_before - change(recent, bob).rating_after
    )


def test_a_marked_opponent_gets_nothing_back(make_user, staff, rated_game):
    cheat, other_cheat = make_user("cheat"), make_user("cheat2")
    rated_game(cheat, other_cheat)
    services.mark(other_cheat.pk, "engine", staff, "engine")
    before = rating(other_cheat).rating
    decision = services.mark(cheat.pk, "engine", staff, "engine")
    assert rating(other_cheat).rating == before and not decision.refunds.exists()


def test_a_booster_mark_takes_back_the_gains_from_flagged_pairs_and_refunds_the_partner(
    make_user, charlie, staff, rated_game
):
    farmer, alt = make_user("farmer"), make_user("farmer_alt")
    honest = charlie
    g1 = rated_game(farmer, alt)
    g2 = rated_game(farmer, alt, pink_first=False)
    g3 = rated_game(farmer, honest)
    PairFlag.note(farmer.pk, alt.pk, reason=PairFlag.Reason.SHARED_ADDRESS, match_id=g2.pk)
    farmer_before, alt_before, honest_before = rating(farmer).rating, rating(alt).rating, rating(honest).rating

    decision = services.mark(farmer.pk, "booster", staff, "two accounts, one address, one-sided results")

    gains = sum(change(g, farmer).rating_after - change(g, farmer).rating_before for g in (g1, g2))
    losses = sum(change(g, alt).rating_before - change(g, alt).rating_after for g in (g1, g2))
    assert gains > 0 and losses > 0
    assert rating(farmer).rating == pytest.approx(farmer_before - gains)
    assert rating(alt).rating == pytest.approx(alt_before + losses)
    assert rating(honest).rating == honest_before  # not a flagged pair: the win over charlie stands
    assert g3.pk not in {r.match_id for r in decision.refunds.all()}
    points = {(r.user_id, r.match_id): r.points for r in decision.refunds.all()}
    assert points[(farmer.pk, g1.pk)] < 0 and points[(alt.pk, g1.pk)] > 0
    assert len(points) == 4
    services.mark(farmer.pk, "booster", staff, "again")
    assert rating(farmer).rating == pytest.approx(farmer_before - gains)  # taken once


def test_every_decision_is_logged_with_staff_and_reason_and_resolves_flags(alice, staff):
    flag = FairPlayFlag.objects.create(user=alice, kind=FairPlayFlag.Kind.ENGINE, variant=C4, figures={"games": 10})
    other = FairPlayFlag.objects.create(user=alice, kind=FairPlayFlag.Kind.BOOSTING)

    services.mark(alice.pk, "engine", staff, "  engine  moves ", flag)
    alice.refresh_from_db()
    assert alice.fair_play_mark == "engine"
    flag.refresh_from_db()
    other.refresh_from_db()
    assert flag.status == other.status == FairPlayFlag.Status.ACTED

    services.lift(alice.pk, staff, "appeal: a strong player after all")
    alice.refresh_from_db()
    assert alice.fair_play_mark == ""

    newer = FairPlayFlag.objects.create(user=alice, kind=FairPlayFlag.Kind.ENGINE)
    services.dismiss(newer, staff, "noise")
    newer.refresh_from_db()
    assert newer.status == FairPlayFlag.Status.DISMISSED

    log = list(FairPlayDecision.objects.order_by("pk").values_list("action", "staff__username", "reason", "flag_id"))
    assert log == [
        ("mark_engine", "moderator", "engine moves", flag.pk),
        ("lift", "moderator", "appeal: a strong player after all", None),
        ("dismiss", "moderator", "noise", newer.pk),
    ]


def test_a_decision_without_a_reason_or_out_of_turn_is_refused_and_changes_nothing(alice, staff):
    flag = FairPlayFlag.objects.create(user=alice, kind=FairPlayFlag.Kind.ENGINE)
    for call in (
        lambda: services.mark(alice.pk, "engine", staff, "   "),
        lambda: services.lift(alice.pk, staff, ""),
        lambda: services.dismiss(flag, staff, ""),
    ):
        with pytest.raises(Refusal) as refused:
            call()
        assert refused.value.code == "fair_play_reason_required"
    with pytest.raises(Refusal) as refused:
        services.mark(alice.pk, "cheater", staff, "x")
    assert refused.value.code == "fair_play_bad_mark"
    with pytest.raises(Refusal) as refused:
        services.lift(alice.pk, staff, "not marked")
    assert refused.value.code == "fair_play_not_marked"
    services.dismiss(flag, staff, "noise")
    with pytest.raises(Refusal) as refused:
        services.dismiss(flag, staff, "twice")
    assert refused.value.code == "fair_play_flag_closed"
    alice.refresh_from_db()
    assert alice.fair_play_mark == "" and FairPlayDecision.objects.count() == 1


# -- races (real threads, real transactions) ---------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_staff_marking_at_once_refund_once(make_user, django_user_model):
    cheat, alice, bob = make_user("cheat"), make_user("alice"), make_user("bob")
    staff = django_user_model.objects.create_superuser(username="mod", email="m@example.com", password="x")
    play_rated(cheat, alice)
    play_rated(cheat, bob)
    before = {u.pk: rating(u).rating for u in (alice, bob)}

    results = run_together(
        lambda: services.mark(cheat.pk, "engine", staff, "first look"),
        lambda: services.mark(cheat.pk, "booster", staff, "second look"),
    )

    assert all(isinstance(r, FairPlayDecision) for r in results), results
    assert RatingRefund.objects.count() == 2
    for user in (alice, bob):
        lost = RatingChange.objects.get(user=user)
        assert rating(user).rating == pytest.approx(before[user.pk] + lost.rating_before - lost.rating_after)


@pytest.mark.django_db(transaction=True)
def test_joining_the_queue_while_being_marked_leaves_no_waiting_seek(make_user, django_user_model):
    staff = django_user_model.objects.create_superuser(username="mod", email="m@example.com", password="x")
    for i in range(3):
        cheat = make_user(f"cheat{i}")
        joined, marked = run_together(
            lambda cheat=cheat: seek_create(user=cheat, variants=[C4]),
            lambda cheat=cheat: services.mark(cheat.pk, "engine", staff, "engine"),
        )
        assert isinstance(marked, FairPlayDecision), marked
        assert isinstance(joined, list) or (isinstance(joined, Refusal) and joined.code == "fair_play_marked"), joined
        assert not Seek.objects.filter(user=cheat, status=Seek.Status.WAITING).exists()
