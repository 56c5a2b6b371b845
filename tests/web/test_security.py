import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["home", "lobby", "rules_index", "ranking", "signup", "login", "password_reset"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", PAGES)
def test_pages_send_csp_and_deny_framing(client, name):
    response = client.get(reverse(name))
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
@pytest.mark.parametrize("name", PAGES)
def test_pages_have_no_inline_script_or_handlers(client, name):
    html = client.get(reverse(name)).content.decode()
    # JSON data blocks (``|json_script``: the site socket's config on every page since issue 38) are
    # not run: the CSP allows no inline script, and they are taken out before looking for one.
    html = re.sub(r'<script id="[\w-]+" type="application/json">[^<]*</script>', "", html)
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts, "htmx should be loaded from our own static files"
    assert all(' src="/static/' in tag for tag in scripts)
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), "inline script found"
    assert not re.search(r"\son[a-z]+=", html), "inline event handler found"
    assert 'style="' not in html


@pytest.mark.django_db
def test_layout_has_skip_link_navigation_and_language_switch(client):
    html = client.get(reverse("home")).content.decode()
    assert '<a class="skip-link" href="#main">Przejdź do treści</a>' in html
    assert '<main id="main"' in html
    for name in ["lobby", "rules_index", "ranking", "login", "signup", "set_language"]:
        assert f'"{reverse(name)}"' in html
    assert 'name="language" value="en"' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


@pytest.mark.django_db
def test_usernames_are_escaped(client, make_user):
    user = make_user("<img src=x onerror=alert(1)>")
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "example.com",
        "VAR_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "kropki_site.settings",
    }
    for name in ["SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS"]:
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues (0 silenced)." in output


def test_production_settings_refuse_the_development_secret_key(tmp_path):
    env = {**os.environ, "DEBUG": "0", "VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "kropki_site.settings"}
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
