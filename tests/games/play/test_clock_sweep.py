"""The clock off the move's hot path (issue 11): a move publishes nothing to the
broker; beat's one-second sweep ends overdue turns through the deadline index;
the computer's move is published from a background thread.

Publishes are counted with Celery's own ``before_task_publish`` signal, which
``apply_async`` sends for every task from any thread (before talking to Redis).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

import pytest
from celery import current_app
from celery.signals import before_task_publish
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import play as services
from games import tasknames, tasks
from games.models import Match
from games.play import botqueue, clock, core, publisher
from kropki_site.lib import limits
from tests.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)  # commit hooks run


class Publishes:
    """Every task published while installed: (task name, args, publishing thread).
    ``hold`` makes each publish wait (up to 10 s) until ``release()``: a slow broker."""

    def __init__(self, hold: bool = False):
        self.sent: list[tuple[str, list, int]] = []
        self.started = threading.Event()
        self._go = threading.Event()
        if not hold:
            self._go.set()

    def __call__(self, sender=None, body=None, **kwargs):
        self.sent.append((sender, list(body[0]), threading.get_ident()))
        self.started.set()
        self._go.wait(10)

    def release(self) -> None:
        self._go.set()

    def names(self) -> list[str]:
        return [name for name, _args, _thread in self.sent]


@pytest.fixture
def publishes():
    made: list[Publishes] = []

    def install(hold: bool = False) -> Publishes:
        recorder = Publishes(hold)
        before_task_publish.connect(recorder, weak=False)
        made.append(recorder)
        return recorder

    yield install
    for recorder in made:
        recorder.release()
        before_task_publish.disconnect(recorder)
    publisher.wait_idle()


def test_human_moves_publish_nothing_to_the_broker(make_match, alice, bob, publishes):
    sent = publishes()
    match = make_match()
    for user, action in [(alice, 3), (bob, 3), (alice, 4), (bob, 4)]:
        play(match, user, action)
    services.match_resign(match_id=match.pk, user_id=alice.pk)
    publisher.wait_idle()  # nothing handed to the background thread either
    assert sent.sent == []
    match.refresh_from_db()
    assert match.ply == 4 and match.status == Match.Status.FINISHED


def test_a_move_against_the_computer_does_not_wait_for_the_broker(alice, publishes):
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=None, bot_level="latwy")
    sent = publishes(hold=True)  # the broker answers only when released
    started = time.monotonic()
    services.match_play(match_id=match.pk, user_id=alice.pk, ply=0, action=3)
    took = time.monotonic() - started
    assert took < 5, f"the move's call waited {took:.1f} s for the broker"
    assert sent.started.wait(5), "the computer's move was never published"
    sent.release()
    publisher.wait_idle()
    assert [(name, args) for name, args, _t in sent.sent] == [(tasknames.BOT_MOVE, [match.pk, 1])]
    assert all(thread != threading.get_ident() for _n, _a, thread in sent.sent)


def test_a_failed_publish_is_logged_and_the_move_stands(alice, monkeypatch, caplog):
    def broker_down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(current_app, "send_task", broker_down)
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=None, bot_level="latwy")
    with caplog.at_level(logging.ERROR, logger="games.play.publisher"):
        services.match_play(match_id=match.pk, user_id=alice.pk, ply=0, action=3)
        publisher.wait_idle()
    assert f"could not publish {tasknames.BOT_MOVE}({match.pk}, 1)" in caplog.text
    match.refresh_from_db()
    assert match.ply == 1 and match.to_move == 2


def test_beats_sweep_ends_an_overdue_turn_and_nothing_else(make_match, alice, bob):
    overdue, live = make_match(), make_match()
    play(overdue, alice, 3)
    play(overdue, bob, 3)
    past = timezone.now() - core.grace() - timedelta(seconds=1)
    Match.objects.filter(pk=overdue.pk).update(turn_deadline=past)
    # the task as the clock worker runs it (beat sends it every SWEEP_SECONDS)
    assert tasks.sweep_expired_turns.apply().get() == 1
    overdue.refresh_from_db(), live.refresh_from_db()
    assert overdue.status == Match.Status.FINISHED and overdue.end_reason == Match.EndReason.TIMEOUT
    assert live.is_active
    assert tasks.sweep_expired_turns.apply().get() == 0  # a second sweep finds nothing


def test_within_grace_the_sweep_waits(make_match, alice, bob):
    match = make_match()
    play(match, alice, 3)
    match.refresh_from_db()
    assert services.sweep_expired(now=match.turn_deadline + core.grace() - timedelta(milliseconds=1)) == 0
    assert services.sweep_expired(now=match.turn_deadline + core.grace()) == 1


def test_beat_sends_the_sweep_every_second_on_the_clock_queue():
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-expired-turns"]
    assert entry["task"] == tasks.sweep_expired_turns.name
    assert entry["schedule"] == 1.0 and entry["options"]["queue"] == "clock"
    assert entry["options"]["expires"] <= entry["schedule"]  # a backlog is never run twice over
    assert settings.CELERY_TASK_ROUTES[tasks.sweep_expired_turns.name] == {"queue": "clock"}


def test_the_sweep_finds_overdue_matches_through_the_deadline_index(make_match):
    make_match()
    query = (
        Match.objects.filter(status=Match.Status.ACTIVE, turn_deadline__lte=timezone.now())
        .order_by("turn_deadline")
        .values_list("pk", flat=True)[:200]
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # a tiny table: make the planner show what it could use
            cursor.execute("SET enable_seqscan = off")
        try:
            plan = query.explain()
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET enable_seqscan")
    else:
        plan = query.explain()
    assert "match_status_deadline" in plan, plan
    assert "TEMP B-TREE" not in plan.upper() and "Sort" not in plan, plan  # read in deadline order


def test_a_computer_move_that_never_came_is_rescued_without_duplicates(bob, publishes, monkeypatch):
    # the computer (pink) opens; its first move's token is lost (its job waits in the fair queue)
    sent = publishes()
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=None, blue_id=bob.pk, bot_level="latwy")
    publisher.wait_idle()
    assert [(name, args) for name, args, _t in sent.sent] == [(tasknames.BOT_MOVE, [match.pk, 0])]
    sent.sent.clear()
    monkeypatch.setattr(clock, "_bot_rescue_due", 0.0)
    assert services.sweep_expired() == 0
    publisher.wait_idle()
    assert sent.names() == []  # not late yet
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(seconds=20))
    monkeypatch.setattr(clock, "_bot_rescue_due", 0.0)
    services.sweep_expired()
    services.sweep_expired()  # the next second's sweep: nothing
    publisher.wait_idle()
    # issue 24, item 2: the job is not queued again, one bare token wakes a free process
    assert [(name, args) for name, args, _t in sent.sent] == [(tasknames.BOT_MOVE, [0, 0])]
    assert botqueue.waiting() == 1
    # a job lost with Redis's data is queued again, once
    limits.client().delete(limits.key(botqueue.JOBS))
    monkeypatch.setattr(clock, "_bot_rescue_due", time.monotonic() - 1)  # BOT_RESCUE_SECONDS later
    services.sweep_expired()
    publisher.wait_idle()
    assert [args for _name, args, _t in sent.sent] == [[0, 0], [match.pk, 0], [0, 0]]
    assert botqueue.waiting() == 1
    assert tasks.bot_move(0, 0) is True  # a token plays it
    match.refresh_from_db()
    assert match.ply == 1
