"""The installable app's addresses (kropki_site/app.py; docs/app.md): the manifest in each
language, the service worker's headers and caching rules, the offline page the same for
everyone. The browser side (installability, the offline page with the network cut) is
tests/browser/test_app_browser.py."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from kropki_site import app

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("query", "name", "lang"),
    [("?lang=pl", "Kropki — polskie gry planszowe", "pl"), ("?lang=en", "Kropki — Polish board games", "en")],
)
def test_the_manifest_names_the_app_in_the_language_asked(client, query, name, lang):
    response = client.get(reverse("app_manifest") + query)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    body = json.loads(response.content)
    assert body["name"] == name and body["lang"] == lang and body["short_name"] == "Kropki"
    assert (body["start_url"], body["scope"], body["display"]) == ("/", "/", "standalone")
    assert [icon["purpose"] for icon in body["icons"]] == ["any", "any", "maskable"]


def test_an_unknown_language_gets_the_requests_own_and_a_post_is_refused(client):
    body = json.loads(client.get(reverse("app_manifest") + "?lang=xx").content)
    assert body["lang"] == "pl"  # the site's default: no cookie, no header
    assert client.post(reverse("app_manifest")).status_code == 405
    assert client.post(reverse("app_service_worker")).status_code == 405


def test_the_worker_is_served_for_the_whole_site_and_caches_no_page(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    source = response.content.decode()
    found = re.search(r"var CONFIG = (\{.*\});", source)
    assert found, source[:500]
    config = json.loads(found.group(1))
    assert config["version"] == app.static_digest() and re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert config["offline"] == "/offline/" and config["precache"][0] == "/offline/"
    assert all(url == "/offline/" or url.startswith("/static/") for url in config["precache"])
    # the worker's own rules: static files from the cache, pages from the network only
    assert 'request.mode === "navigate"' in source and "cache.put" in source
    assert source.count("cache.put") == 1  # once: under the /static/ branch


def test_the_offline_page_is_the_same_for_everyone_in_both_languages(client, alice):
    anonymous = client.get("/offline/").content.decode()
    client.force_login(alice)
    member = client.get("/offline/").content.decode()
    assert anonymous == member
    assert alice.username not in member and "csrfmiddlewaretoken" not in member and "<form" not in member
    assert "Brak połączenia" in member and "No connection" in member
