import copy

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db
DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def dead_channel_layers():
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"]["hosts"] = [{"address": DEAD_REDIS, "socket_timeout": None}]
    return layers


def test_healthz_is_200_when_everything_answers(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "status": "ok",
        "failing": [],
        "checks": {"database": "ok", "redis": "ok", "broker": "ok"},
    }
    assert "no-cache" in response["Cache-Control"]


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


