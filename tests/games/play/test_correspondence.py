"""Correspondence games (SPEC.md "Correspondence, notifications, following"; issue 40): a
rated correspondence challenge played over two simulated days (time-machine moves the clock,
no sleep): each turn heard (the list, an e-mail through a real SMTP server, at most one per
game in the gap), the reminder when a fifth of the turn is left, the sweep's timeout, and the
result rated in the variant's own correspondence pool, shown by the leaderboard, the profile
and "My games"."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import catalogue
from games.models import Challenge, Match
from games.notifications import services as notifications
from games.notifications.models import Notification
from games.play.challenges import challenge_accept, challenge_create, challenge_direct_create
from games.play.clock import sweep_expired
from games.play.correspondence import remind_due, turns_due
from games.play.creating import match_create
from games.play.moves import match_play
from kropki_site.lib.refusals import Refusal
from ratings.models import Rating, RatingChange
from tests.helpers import C4
from tests.smtp import body

pytestmark = pytest.mark.django_db

POOL = f"{C4}{catalogue.CORRESPONDENCE_SUFFIX}"


def verified(*users) -> None:
    for user in users:
        user.email_verified = True
        user.save(update_fields=["email_verified"])


def test_days_a_move_are_one_of_the_choices_and_between_people(alice, bob):
    for days in (4, "x", 0):
        with pytest.raises(Refusal) as refused:
            challenge_create(user_id=alice.pk, variant=C4, rated=False, days=days)
        assert refused.value.code == "bad_days"
    with pytest.raises(Refusal):
        challenge_direct_create(user_id=alice.pk, target_name="bob", variant=C4, rated=False, days=15)
    with pytest.raises(Refusal):
        match_create(variant=C4, pink_id=alice.pk, blue_id=None, bot_level="latwy", days=1)
    assert not Challenge.objects.exists() and not Match.objects.exists()
    assert catalogue.pool_key(C4, None) == C4 and catalogue.pool_key(C4, 3) == POOL


def test_a_correspondence_game_over_two_simulated_days(client, alice, bob, inbox, settings):
    settings.NOTIFY_MAIL_GAP_HOURS = 3
    verified(alice, bob)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        challenge = challenge_create(user_id=alice.pk, variant=C4, rated=True, days=1)
        match = challenge_accept(token=challenge.token, user_id=bob.pk)
        assert turns_due() == 1 and turns_due() == 0  # beat's sweep: pink hears it, once
        notifications.deliver_pending()
        match.refresh_from_db()
        assert (match.days, match.rated, match.pool) == (1, True, POOL)
        assert match.turn_deadline == start + timedelta(days=1)
        pink, blue = match.pink_id, match.blue_id
        assert pink is not None and blue is not None
        pink_user, blue_user = Match.objects.get(pk=match.pk).pink, Match.objects.get(pk=match.pk).blue
        assert pink_user is not None and blue_user is not None
        # pink hears it is their turn at once: the list, and a mail (they are away)
        assert Notification.objects.filter(user_id=pink, kind="corr_turn").count() == 1
        assert notifications.mail_pending()["sent"] == 1
        assert "Twój ruch: Cztery w rzędzie" in body(inbox.messages[-1])

        # an hour later pink moves; blue hears it (and is mailed)
        clock.shift(timedelta(hours=1))
        match_play(match_id=match.pk, user_id=pink, ply=0, action=3)
        assert turns_due() == 1
        notifications.deliver_pending()
        assert Notification.objects.filter(user_id=blue, kind="corr_turn").count() == 1
        assert notifications.mail_pending()["sent"] == 1
        # blue answers within the hour, pink moves again: pink's second turn is in the list, not mailed
        clock.shift(timedelta(minutes=30))
        match_play(match_id=match.pk, user_id=blue, ply=1, action=4)
        assert turns_due() == 1
        clock.shift(timedelta(minutes=30))
        match_play(match_id=match.pk, user_id=pink, ply=2, action=3)
        assert turns_due() == 1
        clock.shift(timedelta(minutes=30))
        match_play(match_id=match.pk, user_id=blue, ply=3, action=4)
        assert turns_due() == 1
        while notifications.deliver_pending():
            pass
        assert Notification.objects.filter(user_id=pink, kind="corr_turn").count() == 3
        assert notifications.mail_pending()["sent"] == 0  # within the gap, per game
        mails = len(inbox.messages)

        # "My games": pink's move, with the time left
        client.force_login(pink_user)
        page = client.get("/moje-partie/").content.decode()
        assert 'data-testid="my-turn"' in page and "korespondencyjnie, 1 dzień na ruch" in page

        # pink lets the turn run: the reminder comes with a fifth of the day left, once
        clock.shift(timedelta(hours=18))
        assert remind_due() == 0
        clock.shift(timedelta(hours=1, minutes=30))
        assert remind_due() == 1 and remind_due() == 0
        notifications.deliver_pending()
        assert notifications.mail_pending()["sent"] == 1
        assert len(inbox.messages) == mails + 1
        reminder = inbox.messages[-1]
        assert reminder["X-Envelope-To"] == pink_user.email
        assert "Zostaje mało czasu na Twój ruch: Cztery w rzędzie." in body(reminder)

        # the second day ends: the sweep takes pink's game on time
        assert sweep_expired() == 0
        clock.shift(timedelta(hours=5))  # past 24 h after blue's last move, and the grace
        assert sweep_expired() == 1
    match.refresh_from_db()
    assert (match.status, match.winner, match.end_reason) == (Match.Status.FINISHED, 2, "timeout")
    # rated in the correspondence pool, not the live one
    changes = RatingChange.objects.filter(match_id=match.pk)
    assert {c.variant for c in changes} == {POOL} and changes.count() == 2
    assert not Rating.objects.filter(variant=C4).exists()
    assert Rating.objects.get(user_id=blue, variant=POOL).wins == 1
    ranking = client.get(f"/ranking/{POOL}/").content.decode()
    assert "korespondencyjnie" in ranking and blue_user.username in ranking
    profile = client.get(f"/gracz/{blue_user.username}/").content.decode()
    assert f'data-testid="rating-{POOL}"' in profile


def _due_soon(matches: list[Match]) -> None:
    """Under a fifth of the day left in each of ``matches``: the reminder is due."""
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(turn_deadline=timezone.now() + timedelta(hours=2))


@pytest.mark.parametrize(
    ("sweep", "kind", "prepare"),
    [(turns_due, "corr_turn", lambda made: None), (remind_due, "corr_reminder", _due_soon)],
    ids=["turn", "reminder"],
)
def test_a_sweep_tells_every_due_game_in_the_same_few_statements(
    make_user, django_capture_on_commit_callbacks, sweep, kind, prepare
):
    """The turn and the reminder sweeps read, lock and mark their due games and tell their
    players in one batch: the statements are as many for 12 games as for 3 (they were a
    transaction and seven statements a game), every player to move hears it once, mailed, and a
    second sweep tells nobody."""
    players = [make_user(f"gracz{i}") for i in range(24)]
    verified(*players)
    statements = []
    for games in (3, 12):
        made = [
            match_create(variant=C4, pink_id=players[2 * i].pk, blue_id=players[2 * i + 1].pk, days=1)
            for i in range(games)
        ]
        prepare(made)
        Notification.objects.all().delete()  # no mail of the kind in the gap yet
        with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
            assert sweep() == games
        statements.append(len(queries))
        assert notifications.deliver_pending() == games
        told = Notification.objects.filter(kind=kind, data__match__in=[m.pk for m in made])
        assert sorted(told.values_list("user_id", flat=True)) == sorted(m.pink_id or 0 for m in made)
        assert all(n.mail == Notification.Mail.PENDING for n in told)  # each game's own mail
        if kind == "corr_turn":
            assert {n.data["name"] for n in told} == {m.blue.username for m in made if m.blue}
        assert sweep() == 0
        Match.objects.filter(pk__in=[m.pk for m in made]).delete()
    assert statements[0] == statements[1], statements


def test_a_reminder_sweep_tells_at_most_its_limit_whatever_the_paces(make_user):
    """The limit is the sweep's, not each pace's: five due games of two paces, a limit of three,
    are told three, then two, then none."""
    players = [make_user(f"gracz{i}") for i in range(10)]
    made = [
        match_create(variant=C4, pink_id=players[2 * i].pk, blue_id=players[2 * i + 1].pk, days=1 + i % 2)
        for i in range(5)
    ]
    _due_soon(made)
    assert [remind_due(limit=3), remind_due(limit=3), remind_due(limit=3)] == [3, 2, 0]
    assert notifications.deliver_pending() == 5
    told = Notification.objects.filter(kind="corr_reminder")
    assert sorted(told.values_list("data__match", flat=True)) == sorted(m.pk for m in made)
