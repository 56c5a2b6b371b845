import copy
import secrets

import pytest
from django.conf import settings
from django.urls import reverse

from kropki_site.lib import heartbeat

pytestmark = pytest.mark.django_db
DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def dead_channel_layers():
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"]["hosts"] = [{"address": DEAD_REDIS, "socket_timeout": None}]
    return layers


@pytest.fixture(autouse=True)
def own_heartbeats(monkeypatch):
    """Heartbeats of this test only (live workers of other tests may share the Redis)."""
    monkeypatch.setattr(heartbeat, "PREFIX", f"kropki:test-{secrets.token_hex(4)}:")


def test_healthz_is_200_and_ok_when_everything_answers_and_every_part_beats(client):
    heartbeat.alive("worker:clock@m1", queues=["clock"])
    heartbeat.alive("worker:work@m1", queues=["bots", "default"])
    heartbeat.alive("worker:analysis@m1", queues=["analysis", "board"])
    heartbeat.alive("worker:fairplay@m1", queues=["fairplay"])
    heartbeat.alive("worker:notify@m1", queues=["notify"])
    heartbeat.alive("beat")
    heartbeat.alive("sweeper")
    response = client.get(reverse("healthz"))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok"
    assert body["failing"] == [] and body["missing"] == []
    assert body["checks"] == {"database": "ok", "redis": "ok", "broker": "ok"}
    parts = body["parts"]
    assert parts["queues"] == {
        "clock": "ok",
        "default": "ok",
        "bots": "ok",
        "analysis": "ok",
        "board": "ok",
        "fairplay": "ok",
        "notify": "ok",
    }
    assert parts["workers"]["clock@m1"]["queues"] == ["clock"]
    assert parts["workers"]["clock@m1"]["seen_seconds_ago"] < 5
    assert parts["beat"]["state"] == "ok" and parts["sweeper"]["state"] == "ok"
    assert "no-cache" in response["Cache-Control"]


def test_healthz_is_degraded_naming_the_parts_not_seen(client):
    heartbeat.alive("worker:work@m1", queues=["bots", "default"])
    heartbeat.alive("sweeper")
    response = client.get(reverse("healthz"))
    assert response.status_code == 200  # this web process can serve; the sweeper keeps the clock
    body = response.json()
    assert body["status"] == "degraded"
    assert body["missing"] == ["queue:clock", "queue:analysis", "queue:board", "queue:fairplay", "queue:notify", "beat"]
    assert body["parts"]["queues"]["clock"] == "no worker seen"
    assert body["parts"]["beat"]["state"].startswith("not seen")


def test_healthz_names_a_dead_channel_layer_redis(client, settings):
    settings.CHANNEL_LAYERS = dead_channel_layers()
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["failing"] == ["redis"]


def test_healthz_names_a_dead_broker(client, settings):
    settings.CELERY_BROKER_URL = DEAD_REDIS
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["failing"] == ["broker"]


def test_beat_starts_a_new_schedule_over_a_truncated_one(tmp_path):
    """A beat killed with SIGKILL mid-write left a schedule celery cannot read (EOFError):
    beat then died at every start under the supervisor."""
    import dbm
    import shelve

    from kropki_site.celery import app

    path = tmp_path / "celerybeat-schedule"
    with shelve.open(str(path)) as store:
        store["entries"] = {}
    with dbm.open(str(path), "w") as db:  # the same keys, their pickles cut off
        for key in list(db.keys()):
            db[key] = b""
    with pytest.raises(EOFError), shelve.open(str(path)) as store:
        store["entries"]
    scheduler = heartbeat.Scheduler(app, schedule_filename=str(path), lazy=False)
    try:
        assert "sweep-expired-turns" in scheduler.schedule
    finally:
        scheduler.close()


# -- issue 24 item 19: the details are not for anyone -------------------------------------------


def _beat_like_a_site():
    heartbeat.alive("worker:clock@web-7.internal", queues=["clock"])
    heartbeat.alive("beat")


@pytest.mark.parametrize(
    "meta",
    [
        {"REMOTE_ADDR": "203.0.113.9"},  # a visitor reaching daphne directly
        {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"},  # a visitor through nginx
        {"REMOTE_ADDR": "203.0.113.9", "HTTP_X_HEALTHZ_TOKEN": "guess"},
    ],
)
def test_a_visitor_reading_healthz_learns_no_host_names_or_pids(client, settings, meta):
    settings.HEALTHZ_TOKEN = "s3cret-token"
    _beat_like_a_site()
    response = client.get(reverse("healthz"), **meta)
    assert response.status_code == 200
    assert response.json() == {"status": "degraded"}
    assert "web-7" not in response.content.decode() and "pid" not in response.content.decode()


def test_the_token_or_the_machine_itself_sees_the_details(client, settings):
    settings.HEALTHZ_TOKEN = "s3cret-token"
    _beat_like_a_site()
    with_token = client.get(reverse("healthz"), REMOTE_ADDR="203.0.113.9", HTTP_X_HEALTHZ_TOKEN="s3cret-token").json()
    assert with_token["parts"]["workers"]["clock@web-7.internal"]["pid"] > 0
    local = client.get(reverse("healthz"), REMOTE_ADDR="127.0.0.1").json()
    assert "clock@web-7.internal" in local["parts"]["workers"] and local["missing"]
