"""The planned-restart pieces in-process: ``matches_extend_deadlines``, the
``drain`` and ``extend_deadlines`` commands, and no ranked pairing while draining.
The live test (test_planned_restart.py) follows the whole procedure."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from celery.signals import before_task_publish
from django.core.management import CommandError, call_command
from django.utils import timezone

from games import play as services
from games.live import transport
from games.models import Match, Seek
from games.play import core, drain, matchmaking

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path  # the drain mark lives here


@pytest.fixture
def sent(monkeypatch):
    """Frames sent after commit: [("frame", id, kind)]; and ("task", name) for any Celery publish."""
    out: list[tuple] = []

    def frame(match_id, frame):  # the match's id, the frame
        out.append(("frame", match_id, frame["type"]))

    def task(sender=None, **kw):
        out.append(("task", sender))

    monkeypatch.setattr(transport, "send_to_match", frame)
    before_task_publish.connect(task, weak=False)
    yield out
    before_task_publish.disconnect(task)


def _match(alice, bob, **kwargs):
    return services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=bob.pk, **kwargs)


def test_extend_moves_live_deadlines_and_leaves_the_rest(alice, bob, sent):
    now = timezone.now()
    live = _match(alice, bob)
    overdue = _match(alice, bob)  # its turn had expired before the drain: the sweeper's business
    Match.objects.filter(pk=overdue.pk).update(turn_deadline=now - timedelta(seconds=30))
    done = _match(alice, bob)
    services.match_resign(match_id=done.pk, user_id=alice.pk)
    before = Match.objects.get(pk=live.pk).turn_deadline
    assert before is not None
    sent.clear()

    assert services.matches_extend_deadlines(by=timedelta(seconds=42), live_at=now - timedelta(seconds=5)) == 1

    assert Match.objects.get(pk=live.pk).turn_deadline == before + timedelta(seconds=42)
    assert Match.objects.get(pk=overdue.pk).turn_deadline == now - timedelta(seconds=30)
    assert Match.objects.get(pk=done.pk).turn_deadline is None
    # after commit: one frame with the new deadline to the match; nothing to re-arm
    frames = [s for s in sent if s[0] == "frame"]
    assert frames == [("frame", live.pk, "clock")], sent
    assert not [s for s in sent if s[0] == "task"]
    # the sweeps read the new deadline: the old one + grace no longer ends the turn, the new one does
    services.sweep_expired(now=before + core.grace() + timedelta(seconds=1))
    assert Match.objects.get(pk=live.pk).is_active
    assert services.sweep_expired(now=before + timedelta(seconds=42) + core.grace()) >= 1
    assert Match.objects.get(pk=live.pk).status == Match.Status.ABORTED  # nobody had moved


def test_extend_without_live_at_extends_every_active_turn(alice, bob, sent):
    _, b = _match(alice, bob), _match(alice, bob)
    Match.objects.filter(pk=b.pk).update(turn_deadline=timezone.now() - timedelta(hours=1))
    assert services.matches_extend_deadlines(by=timedelta(seconds=5)) == 2
    assert services.matches_extend_deadlines(by=timedelta(0)) == 0


def test_drain_then_extend_gives_the_downtime_back_and_clears_the_mark(alice, bob, sent):
    match = _match(alice, bob)
    before = Match.objects.get(pk=match.pk).turn_deadline
    assert before is not None
    out = StringIO()
    call_command("drain", stdout=out)
    started = drain.drain_started()
    assert started is not None and "draining since" in out.getvalue()
    call_command("drain", stdout=StringIO())  # a second drain keeps the first start
    assert drain.drain_started() == started

    out = StringIO()
    call_command("extend_deadlines", "--margin", "10", stdout=out)
    after = Match.objects.get(pk=match.pk).turn_deadline
    assert after is not None
    by = after - before
    assert timedelta(seconds=10) <= by <= timezone.now() - started + timedelta(seconds=10)
    assert "extended 1 match(es)" in out.getvalue()
    assert drain.drain_started() is None
    with pytest.raises(CommandError, match="not draining"):
        call_command("extend_deadlines", stdout=StringIO())


def test_extend_since_and_seconds(alice, bob, sent):
    match = _match(alice, bob)
    before = Match.objects.get(pk=match.pk).turn_deadline
    assert before is not None
    call_command("extend_deadlines", "--seconds", "7", stdout=StringIO())
    assert Match.objects.get(pk=match.pk).turn_deadline == before + timedelta(seconds=7)
    since = (timezone.now() - timedelta(seconds=20)).isoformat()
    call_command("extend_deadlines", "--since", since, "--margin", "0", stdout=StringIO())
    after = Match.objects.get(pk=match.pk).turn_deadline
    assert after is not None
    by = after - before - timedelta(seconds=7)
    assert timedelta(seconds=20) <= by < timedelta(seconds=25)
    with pytest.raises(CommandError):
        call_command("extend_deadlines", "--since", "yesterday", stdout=StringIO())


def test_drain_cancel(sent):
    call_command("drain", stdout=StringIO())
    call_command("drain", "--cancel", stdout=StringIO())
    assert drain.drain_started() is None


def test_no_ranked_pairing_while_draining(alice, bob):
    now = timezone.now()
    Seek.objects.create(user=alice, variant="cztery-w-rzedzie", rating=1500, created_at=now)
    Seek.objects.create(user=bob, variant="cztery-w-rzedzie", rating=1500, created_at=now)
    drain.drain_begin()
    assert matchmaking.seek_pair() == []
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == 2
    drain.drain_end()
    assert len(matchmaking.seek_pair()) == 1
