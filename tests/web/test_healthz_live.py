"""/healthz on a real daphne whose database or Redis is really unreachable."""

import os
import secrets

import pytest
from django.conf import settings

from tests import live

pytestmark = pytest.mark.slow


def dead_site(tmp_path, **env):
    base = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "kropki_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3",
        "REDIS_URL": settings.REDIS_URL,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "VAR_DIR": str(tmp_path / "var"),
        **env,
    }
    return live.LiveSite(env=base, workdir=tmp_path)


@pytest.mark.parametrize(
    "env, failing",
    [
        ({"DATABASE_URL": "sqlite:////nonexistent-dir/kropki.sqlite3"}, ["database"]),
        ({"REDIS_URL": "redis://127.0.0.1:1/0"}, ["redis", "broker"]),
    ],
    ids=["database-down", "redis-down"],
)
def test_healthz_is_503_naming_the_dead_part(tmp_path, env, failing):
    site = dead_site(tmp_path, **env)
    try:
        _proc, url = site.start_daphne(ready_path="/static/css/site.css")  # needs no database
        health = live.site_healthz(url)
    finally:
        site.stop_all()
    assert health["http_status"] == 503
    assert health["status"] == "fail"
    assert health["failing"] == failing
