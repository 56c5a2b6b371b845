"""The installable web app (docs/app.md): its manifest, its service worker and the offline page.

- ``/manifest.webmanifest?lang=pl|en``: the manifest in that language (else the request's),
  so the name on the phone's home screen is in the player's words. The page links it with
  its own language in the query: a manifest is fetched without cookies.
- ``/sw.js``: the service worker, served from the root so that its scope is the whole site
  (``Service-Worker-Allowed: /``), never cached by HTTP (``no-cache``: the browser checks it
  on each visit). Its ``VERSION`` is a digest of every static file, so a deployment that
  changes one installs a new worker, which drops the old cache.
- ``/offline/``: the page the worker shows for a page asked while the network is cut. It is
  cached once at install, so it is the same for everyone: no user, no form, no token; it
  speaks Polish first, English second.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

__all__ = ["OFFLINE_URL", "PRECACHE", "manifest", "offline", "service_worker", "static_digest"]

OFFLINE_URL = "/offline/"
# What the worker caches at install: the offline page and what it (and every page) needs.
PRECACHE = (
    "css/site.css",
    "css/boards.css",
    "css/social.css",
    "css/theme.css",
    "js/theme.js",
    "js/app.js",
    "js/sound.js",
    "js/socket.js",
    "icons/icon-192.png",
    "icons/icon-512.png",
)
# The light and dark themes' page colours (static/css/site.css, static/css/theme.css).
THEME_COLOUR = "#b3261e"
BACKGROUND_COLOUR = "#fbfaf7"


@cache
def static_digest() -> str:
    """A digest of every static file the site serves (its path and bytes): the worker's version."""
    digest = hashlib.sha256()
    for finder in finders.get_finders():
        for path, storage in sorted(finder.list(ignore_patterns=[]), key=lambda found: found[0]):
            digest.update(path.encode())
            with storage.open(path) as handle:
                digest.update(handle.read())
    return digest.hexdigest()[:16]


def _language(request: HttpRequest) -> str:
    asked = request.GET.get("lang", "")
    known = {code for code, _name in settings.LANGUAGES}
    return asked if asked in known else translation.get_language() or settings.LANGUAGE_CODE


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    with translation.override(_language(request)):
        body = {
            "id": "/",
            "name": _("Kropki — Polish board games"),
            "short_name": "Kropki",
            "description": _("Polish board games online: with people or the computer."),
            "lang": translation.get_language(),
            "dir": "ltr",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "orientation": "any",
            "theme_color": THEME_COLOUR,
            "background_color": BACKGROUND_COLOUR,
            "categories": ["games"],
            "icons": [
                {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
                {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
                {
                    "src": static("icons/maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
            ],
        }
    response = HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    config = {
        "version": static_digest(),
        "offline": OFFLINE_URL,
        "precache": [OFFLINE_URL, *(static(path) for path in PRECACHE)],
        "static": settings.STATIC_URL,
        "icon": static("icons/icon-192.png"),  # a push notification's (games/notifications/push.py)
    }
    response = render(request, "app/sw.js", {"config": json.dumps(config)}, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    response = render(request, "app/offline.html")
    response["Cache-Control"] = "no-cache"
    return response
