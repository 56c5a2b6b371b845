"""The leader lease of beat and the sweeper (kropki_site/lib/lease.py, issue 30): one holder
at a time per part, taken over as soon as the holder's session ends; /healthz names it."""

import secrets
import time

import pytest
from django.conf import settings
from django.urls import reverse

from kropki_site.lib import heartbeat, lease

pytestmark = pytest.mark.django_db
ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
postgres_only = pytest.mark.skipif(
    not ON_POSTGRES, reason="the lease is a PostgreSQL advisory lock; SQLite is one machine"
)


@pytest.fixture(autouse=True)
def own_heartbeats(monkeypatch):
    monkeypatch.setattr(heartbeat, "PREFIX", f"kropki:test-{secrets.token_hex(4)}:")


@postgres_only
def test_one_holder_at_a_time_and_the_next_takes_over_when_it_goes():
    part = f"test-{secrets.token_hex(4)}"
    first, second = lease.Lease(part), lease.Lease(part)
    try:
        assert first.held() and first.held()  # asked again: still held
        assert not second.held()
        first.release()  # what a killed machine's kernel does: the session ends
        # The server frees the lock when the ended session's backend exits, a moment after the
        # close: the next holder takes it on one of its next ticks (CI under load took longer
        # than no time at all).
        deadline = time.monotonic() + 5
        while not second.held() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert second.held()
        assert not first.held()
    finally:
        first.release()
        second.release()


@postgres_only
def test_a_holder_whose_session_was_ended_knows_it_lost_the_lease(django_db_blocker):
    part = f"test-{secrets.token_hex(4)}"
    holder, other = lease.Lease(part), lease.Lease(part)
    try:
        assert holder.held()
        assert holder._conn is not None
        backend = holder._conn.info.backend_pid
        with django_db_blocker.unblock():
            from django.db import connection

            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
        assert not holder.held()
        assert other.held()
    finally:
        holder.release()
        other.release()


@pytest.mark.skipif(ON_POSTGRES, reason="on PostgreSQL the lease is a lock (the tests above)")
def test_on_sqlite_every_process_leads():
    assert lease.Lease("beat").held() and lease.Lease("beat").held()
    assert lease.leaders() == {}


@postgres_only
def test_healthz_names_the_host_that_leads_and_the_ones_standing_by(client):
    beat = lease.Lease("beat")
    try:
        if not beat.held():
            pytest.skip("a live beat of another test holds this database's lease")
        heartbeat.alive("beat", host=lease.host_name())
        heartbeat.alive("standby:beat:web-2")
        heartbeat.alive("standby:sweeper:web-2")
        assert lease.leaders()["beat"] == lease.host_name()
        parts = client.get(reverse("healthz"), REMOTE_ADDR="127.0.0.1").json()["parts"]
        assert parts["beat"]["host"] == lease.host_name() and parts["beat"]["standby"] == ["web-2"]
        assert parts["sweeper"]["standby"] == ["web-2"]
    finally:
        beat.release()


@postgres_only
def test_a_beat_that_does_not_hold_the_lease_sends_nothing(tmp_path, monkeypatch):
    from kropki_site.celery import app

    holder = lease.Lease("beat")
    scheduler = heartbeat.Scheduler(app, schedule_filename=str(tmp_path / "schedule"), lazy=False)
    sent = []
    monkeypatch.setattr(scheduler, "apply_async", lambda entry, *a, **k: sent.append(entry.name))
    try:
        if not holder.held():
            pytest.skip("a live beat of another test holds this database's lease")
        assert scheduler.tick() == heartbeat.STANDBY_TICK_SECONDS
        assert sent == []
        holder.release()
        scheduler.tick()  # takes the lease; a new schedule's entries are due a second later
        time.sleep(1.1)
        for _ in range(len(scheduler.schedule)):  # a tick sends one due entry, the heap's first
            scheduler.tick()
        assert "sweep-expired-turns" in sent  # the lease was free: it took it and sent what was due
    finally:
        holder.release()
        scheduler.close()
