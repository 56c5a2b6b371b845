"""The ranked queue: one entry per player and variant, closest ratings first,
windows that widen with time (a frozen clock: ``now`` is passed), and real
concurrency (threads with their own connections) never pairing anyone twice."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.db import IntegrityError
from django.utils import timezone

from games.catalogue import variant_keys
from games.models import Match, Seek
from games.play.matchmaking import seek_cancel, seek_create, seek_pair, window
from games.selectors import queue_sizes, queue_status
from kropki_site.lib.refusals import Refusal
from ratings.models import Rating
from tests.helpers import C4, run_together

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0)


def player(make_user, name, rating=None, variant=C4, deviation=60.0):
    user = make_user(name)
    if rating is not None:
        Rating.objects.create(user=user, variant=variant, rating=rating, deviation=deviation)
    return user


def pair(match: Match) -> frozenset[str]:
    assert match.pink is not None and match.blue is not None
    return frozenset((match.pink.username, match.blue.username))


def pairs(matches):
    return {pair(m) for m in Match.objects.filter(pk__in=[m.pk for m in matches]).select_related("pink", "blue")}


def test_the_window_starts_at_100_and_widens_by_25_every_5_seconds():
    assert window(timedelta(0)) == 100
    assert window(timedelta(seconds=4.9)) == 100
    assert window(timedelta(seconds=5)) == 125
    assert window(timedelta(seconds=30)) == 250
    assert window(timedelta(seconds=59)) == 375
    assert window(timedelta(seconds=60)) == float("inf")


def test_one_entry_per_player_and_variant(alice):
    first = seek_create(user=alice, variants=[C4], now=T0)
    again = seek_create(user=alice, variants=[C4, C4], now=T0 + timedelta(seconds=3))
    assert [s.pk for s in first] == [s.pk for s in again]
    assert Seek.objects.filter(user=alice, status=Seek.Status.WAITING).count() == 1
    with pytest.raises(IntegrityError):
        Seek.objects.create(user=alice, variant=C4, rating=1500, created_at=T0)


def test_unknown_variants_and_guests_are_refused(alice):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(Refusal):
        seek_create(user=alice, variants=["szachy"])
    with pytest.raises(Refusal):
        seek_create(user=alice, variants=[])
    with pytest.raises(Refusal) as exc:
        seek_create(user=AnonymousUser(), variants=[C4])
    assert exc.value.code == "login_required"


def test_a_player_is_never_paired_with_themself(alice):
    seek_create(user=alice, variants=variant_keys(), now=T0)
    assert seek_pair(T0 + timedelta(minutes=5)) == []
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == len(variant_keys())


def test_cancel_leaves_the_queue(alice, bob):
    seek_create(user=alice, variants=[C4, "kropki-10"], now=T0)
    seek_create(user=bob, variants=[C4], now=T0)
    assert seek_cancel(user=alice) == 2
    assert seek_pair(T0) == []
    assert queue_sizes()[C4] == 1 and queue_sizes()["kropki-10"] == 0
    assert seek_cancel(user=alice) == 0


def test_a_pair_starts_a_rated_match_with_random_colours(alice, bob):
    colours: Counter[int | None] = Counter()
    for _ in range(12):
        seek_create(user=alice, variants=[C4], now=T0)
        seek_create(user=bob, variants=[C4], now=T0)
        [match] = seek_pair(T0)
        assert match.rated and match.variant == C4 and match.is_active
        assert {match.pink_id, match.blue_id} == {alice.pk, bob.pk}
        colours[match.pink_id] += 1
        assert queue_status(alice).match_id == match.pk and not queue_status(alice).waiting
        Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    assert set(colours) == {alice.pk, bob.pk}  # both got pink at least once (p = 1 - 2**-11)


def test_the_closest_ratings_are_paired_first(make_user):
    users = {n: player(make_user, n, r) for n, r in [("a", 1500), ("b", 1590), ("c", 1610), ("d", 1680)]}
    for u in users.values():
        seek_create(user=u, variants=[C4], now=T0)
    # b–c (20) is the closest pair; a–b (90) and c–d (70) are both within ±100 but b and c are taken.
    matches = seek_pair(T0)
    assert pairs(matches) == {frozenset("bc")}
    assert set(Seek.objects.filter(status=Seek.Status.WAITING).values_list("user__username", flat=True)) == {"a", "d"}
    # a–d differ by 180: not until the longer waiter's window reaches 180 (20 s).
    assert seek_pair(T0 + timedelta(seconds=19)) == []
    assert pairs(seek_pair(T0 + timedelta(seconds=20))) == {frozenset("ad")}


def test_closest_first_among_many(make_user):
    ratings = {"p1": 1400, "p2": 1460, "p3": 1480, "p4": 1530, "p5": 1700, "p6": 1705}
    for name, r in ratings.items():
        seek_create(user=player(make_user, name, r), variants=[C4], now=T0)
    # p5–p6 (5) first, then p2–p3 (20); p3–p4 (50) and p1–p2 (60) lose a player; p1–p4 (130) is too far.
    assert pairs(seek_pair(T0)) == {frozenset(("p5", "p6")), frozenset(("p2", "p3"))}
    assert pairs(seek_pair(T0 + timedelta(seconds=10))) == {frozenset(("p1", "p4"))}


def test_the_window_widens_with_time_until_anyone_goes(make_user):
    low, high = player(make_user, "low", 1000), player(make_user, "high", 2400)
    seek_create(user=low, variants=[C4], now=T0)
    seek_create(user=high, variants=[C4], now=T0 + timedelta(seconds=30))
    assert seek_pair(T0 + timedelta(seconds=59)) == []
    # The longer waiter's window covers everyone after 60 s.
    assert pairs(seek_pair(T0 + timedelta(seconds=60))) == {frozenset(("low", "high"))}


def test_a_newcomer_is_paired_with_a_patient_player(make_user):
    patient, newcomer = player(make_user, "patient", 1500), player(make_user, "newcomer", 1720)
    seek_create(user=patient, variants=[C4], now=T0)
    seek_create(user=newcomer, variants=[C4], now=T0 + timedelta(seconds=40))
    # The patient player has waited 40 s: window 300 ≥ 220.
    assert pairs(seek_pair(T0 + timedelta(seconds=40))) == {frozenset(("patient", "newcomer"))}


def test_ratings_are_per_variant(make_user):
    a = player(make_user, "a", 1500, variant="kropki-10")
    b = player(make_user, "b", 2000, variant="kropki-10")
    Rating.objects.create(user=a, variant=C4, rating=2000, deviation=60)
    for u in (a, b):
        seek_create(user=u, variants=["kropki-10"], now=T0)
    assert seek_pair(T0) == []  # 500 apart in Kropki 10×10


def test_the_first_pairing_cancels_the_other_queues(make_user):
    a, b, c = (player(make_user, n) for n in "abc")
    seek_create(user=a, variants=variant_keys(), now=T0)
    seek_create(user=b, variants=variant_keys(), now=T0)
    seek_create(user=c, variants=["kropki-10"], now=T0)
    matches = seek_pair(T0)
    assert len(matches) == 1
    m = matches[0]
    waiting = Seek.objects.filter(status=Seek.Status.WAITING)
    # Whoever was paired left every queue; the one left over still waits.
    left = {a.pk, b.pk, c.pk} - {m.pink_id, m.blue_id}
    assert set(waiting.values_list("user_id", flat=True)) == left
    assert Seek.objects.filter(user_id__in=[m.pink_id, m.blue_id], status=Seek.Status.CANCELLED).count() >= 3


def test_the_queue_status_shows_waiting_entries_then_the_match(alice, bob):
    assert queue_status(alice).waiting == [] and queue_status(alice).match_id is None
    seek_create(user=alice, variants=[C4, "kropki-10"], now=T0)
    status = queue_status(alice)
    assert [s.variant for s in status.waiting] == [C4, "kropki-10"] and status.since == T0
    seek_create(user=bob, variants=["kropki-10"], now=T0)
    [match] = seek_pair(T0)
    assert queue_status(alice).match_id == match.pk == queue_status(bob).match_id
    # Queueing again forgets the old pairing only once its match is over.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    seek_create(user=alice, variants=[C4], now=T0)
    assert Seek.objects.filter(user=alice).count() == 1


def test_the_beat_task_runs_a_round(alice, bob):
    from games.tasks import pair_seeks

    seek_create(user=alice, variants=[C4])
    seek_create(user=bob, variants=[C4])
    assert pair_seeks() == 1


def test_pairing_runs_when_a_seek_is_committed(alice, bob, django_capture_on_commit_callbacks):
    seek_create(user=alice, variants=[C4])
    with django_capture_on_commit_callbacks(execute=True):
        seek_create(user=bob, variants=[C4])
    assert queue_status(alice).match_id is not None


# -- real concurrency ----------------------------------------------------------


def failures(results: list) -> list:
    return [r for r in results if isinstance(r, BaseException)]


def assert_nobody_twice(users):
    ids = {u.pk for u in users}
    seen: Counter = Counter()
    for pink, blue in Match.objects.values_list("pink_id", "blue_id"):
        assert pink != blue
        seen[pink] += 1
        seen[blue] += 1
    assert set(seen) <= ids
    assert max(seen.values(), default=0) <= 1, seen
    for u in users:
        if seen[u.pk]:
            assert not Seek.objects.filter(user=u, status=Seek.Status.WAITING).exists()
    return seen


@pytest.mark.django_db(transaction=True)
def test_many_players_joining_at_once_are_each_paired_at_most_once(make_user):
    users = [make_user(f"gracz{i}") for i in range(10)]
    errors = failures(run_together(*[lambda u=u: seek_create(user=u, variants=[C4]) for u in users], timeout=120))
    assert not errors, errors
    seek_pair()  # whatever the on-commit rounds left (none expected)
    seen = assert_nobody_twice(users)
    assert sum(seen.values()) == 10  # all at 1500: everyone found someone
    assert Match.objects.filter(rated=True).count() == 5


@pytest.mark.django_db(transaction=True)
def test_players_queueing_for_every_variant_at_once_get_one_match_each(make_user):
    users = [make_user(f"gracz{i}") for i in range(9)]
    errors = failures(
        run_together(*[lambda u=u: seek_create(user=u, variants=variant_keys()) for u in users], timeout=120)
    )
    assert not errors, errors
    seen = assert_nobody_twice(users)
    assert sum(seen.values()) == 8  # nine players: one is left waiting
    assert Seek.objects.filter(status=Seek.Status.WAITING).values("user").distinct().count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_rounds_and_cancels_never_pair_twice(make_user):
    users = [make_user(f"gracz{i}") for i in range(8)]
    for u in users:
        seek_create(user=u, variants=[C4, "kropki-i-kwadraty"])
    Match.objects.all().delete()  # ignore the on-commit rounds: start from a full queue
    Seek.objects.update(status=Seek.Status.WAITING, match=None)
    funcs = [lambda: seek_pair() for _ in range(4)] + [lambda: seek_cancel(user=users[0])]
    errors = failures(run_together(*funcs, timeout=120))
    assert not errors, errors
    seen = assert_nobody_twice(users)
    if seen[users[0].pk] == 0:
        assert not Seek.objects.filter(user=users[0], status=Seek.Status.WAITING).exists()
