"""The site tests/screenshots.py takes pictures of: players, a history of rated matches, the
lobby's contents, and the error pages Django renders (tests/sitecalls/__init__.py)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from games import play as services
from games.models import Match

from . import PASSWORD
from .players import play_random, session_cookie

__all__ = ["error_pages", "screenshot_seed"]


def screenshot_seed(*, games: list[str], password: str = PASSWORD) -> dict[str, Any]:
    """ania (Polish), bartek (English), celina and dorota; 14 finished rated matches of theirs over
    the last weeks; a match being played and two open challenges for the lobby; a new rated match
    of ania against bartek in each of ``games``. Their ids and ania's and bartek's sessions."""

    def user(name: str, language: str) -> User:
        return User.objects.create_user(
            username=name, email=name + "@example.com", password=password, language=language
        )

    ania, bartek = user("ania", "pl"), user("bartek", "en")
    celina, dorota = user("celina", "pl"), user("dorota", "pl")
    rng = random.Random(13)
    start = timezone.now() - timedelta(days=40)
    # (variant, pink, blue, loser by resignation or None for a draw by agreement, plies first)
    history = [
        ("kropki-10", ania, bartek, bartek, 30),
        ("cztery-w-rzedzie", bartek, ania, ania, 8),
        ("kropki-i-kwadraty", ania, bartek, bartek, 20),
        ("kropki-10", bartek, ania, None, 40),
        ("kropki-20", ania, celina, celina, 60),
        ("cztery-w-rzedzie", ania, bartek, bartek, 6),
        ("kropki-10", celina, ania, celina, 24),
        ("kropki-i-kwadraty", bartek, dorota, dorota, 30),
        ("cztery-w-rzedzie", dorota, ania, ania, 10),
        ("kropki-10", ania, dorota, dorota, 36),
        ("kropki-20", bartek, ania, bartek, 50),
        ("kropki-i-kwadraty", celina, ania, celina, 26),
        ("kropki-10", bartek, celina, bartek, 28),
        ("cztery-w-rzedzie", celina, dorota, dorota, 12),
    ]
    for n, (variant, pink, blue, loser, plies) in enumerate(history):
        now = start + timedelta(days=2.5 * n, minutes=n * 7)
        match = services.match_create(variant=variant, pink_id=pink.pk, blue_id=blue.pk, rated=True, now=now)
        play_random(match, {1: pink, 2: blue}, plies, rng, now)
        match.refresh_from_db()
        if match.status != "active":
            pass
        elif loser is None:
            services.match_offer_draw(match_id=match.pk, user_id=pink.pk)
            services.match_answer_draw(match_id=match.pk, user_id=blue.pk, accept=True, now=now)
        else:
            services.match_resign(match_id=match.pk, user_id=loser.pk, now=now)
        Match.objects.filter(pk=match.pk).update(created_at=now)  # auto_now_add: backdate it like the rest
    User.objects.update(date_joined=start - timedelta(days=3))
    # for the lobby: a match being played and an open challenge
    watched = services.match_create(variant="kropki-20", pink_id=celina.pk, blue_id=dorota.pk, rated=True)
    play_random(watched, {1: celina, 2: dorota}, 40, rng, timezone.now())
    services.challenge_create(user_id=dorota.pk, variant="kropki-i-kwadraty", rated=False, listed=True)
    services.challenge_create(user_id=celina.pk, variant="cztery-w-rzedzie", rated=True, listed=True)
    out: dict[str, Any] = {
        "cookie_name": settings.SESSION_COOKIE_NAME,
        "ania": session_cookie(ania),
        "bartek": session_cookie(bartek),
        "ids": {"ania": ania.pk, "bartek": bartek.pk},
        "matches": {},
    }
    for variant in games:
        out["matches"][variant] = services.match_create(
            variant=variant, pink_id=ania.pk, blue_id=bartek.pk, rated=True
        ).pk
    return out


def error_pages() -> dict[str, Any]:
    """The 400, 403 and 500 pages Django renders with the site's settings for the failing views of
    tests/web/error_urls.py, in Polish and English: ``{"<status>-<lang>": [status, html]}``."""
    out: dict[str, Any] = {}
    with override_settings(ROOT_URLCONF="tests.web.error_urls"):
        for lang in ("pl", "en"):
            client = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1")
            client.cookies["kropki_language"] = lang
            for status, path in ((400, "/test-400/"), (403, "/test-403/"), (500, "/test-500/")):
                response = client.get(path)
                out[f"{status}-{lang}"] = [response.status_code, response.content.decode()]
    return out
