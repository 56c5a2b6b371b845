"""docs/reliability.md rows 18, 23 and 24 for every URL of the site (the list comes
from the resolver, so later pages are covered without editing this file):
CSRF on every POST, CSP without inline script, clickjacking headers, escaped
usernames, textContent in our JavaScript (the sockets' Origin checks: test_socket_origin.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games import play as services
from tests.conftest import make_persona
from tests.factories import make_match
from tests.helpers import play_moves
from tests.security.urlmap import routes, scan

ROOT = Path(__file__).resolve().parents[2]
XSS_NAME = "<img src=x onerror=alert(1)>"
XSS_ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


@pytest.fixture(scope="module")
def world(module_rows):
    """An XSS-named player with a finished rated match, an active match, a challenge and a rating;
    made once for the module (tests/conftest.py ``module_db``)."""
    with module_rows():
        return _world()


def _world() -> dict:
    alice = make_persona("alice")
    xss = make_persona(XSS_NAME, email="xss@example.com")
    finished = make_match(xss, alice, variant="cztery-w-rzedzie", rated=True)
    play_moves(finished, [3, 4, 3, 4])
    services.match_resign(match_id=finished.pk, user_id=alice.pk)
    from ratings.models import Rating

    Rating.objects.filter(user=xss, variant="cztery-w-rzedzie").update(deviation=60)  # established: listed
    active = make_match(alice, xss, variant="kropki-10")
    challenge = services.challenge_create(user_id=xss.pk, variant="cztery-w-rzedzie", rated=False, listed=True)
    from tests.fuzz.test_http_params import _arena, _puzzle

    arena = _arena()
    return {
        "xss": xss,
        "kwargs": {
            "match_id": finished.pk,
            "ply": 1,
            "token": str(challenge.token),
            "username": XSS_NAME,
            "slug": "kropki",
            "variant": "cztery-w-rzedzie",
            "uidb64": "MQ",
            "token_reset": "set-password",
            "token_id": 1,
            "challenge_id": 1,
            "action": "3",
            "answer": "yes",
            "rest": "x",
            "tournament_id": arena.pk,
            "puzzle_id": _puzzle(),
            "game": "kropki",
        },
        "active": active,
        "alice": alice,
    }


def url_for(route, world) -> str:
    return reverse(route.name, kwargs={name: world["kwargs"].get(name, "x") for name, _ in route.kwargs})


# -- CSRF ------------------------------------------------------------------------

# The one POST taken without the CSRF token: an e-mail's one-click unsubscribe (RFC 8058), which a
# mail program sends without the site's cookies; the URL's signed token is its proof, so a forged
# POST (another token) is refused and changes nothing (tests/games/notifications).
CSRF_EXEMPT = {"notifications_unsubscribe"}


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "alice"])
@pytest.mark.parametrize("route", routes(), ids=str)
def test_every_post_without_a_csrf_token_is_refused(route, who, world):
    alice = world["alice"]
    if route.route.startswith("api/"):
        # The API takes a bearer token, never the session cookie (tests/games/api: a logged-in
        # browser's POST without a token is 401), so a forged cross-site POST carries no identity.
        client = Client(enforce_csrf_checks=True)
        if who == "alice":
            client.force_login(alice)
        assert client.post(url_for(route, world)).status_code in (401, 404, 405)
        return
    client = Client(enforce_csrf_checks=True)
    if who == "alice":
        client.force_login(alice)
    url = url_for(route, world)
    response = client.post(url, {"language": "en", "variant": "cztery-w-rzedzie"})
    if route.name in CSRF_EXEMPT:
        assert response.status_code == 400, (url, response.status_code)  # "x" is no signed token
        return
    assert response.status_code == 403, (url, response.status_code)


@pytest.mark.django_db
@pytest.mark.parametrize("route", routes(), ids=str)
def test_every_post_form_carries_a_csrf_token(route, world):
    client = Client()
    client.force_login(world["alice"])
    response = client.get(url_for(route, world))
    if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
        return
    html = response.content.decode()
    for form in scan(html).forms:
        if form["method"] == "post":
            assert "csrfmiddlewaretoken" in form["fields"], (route.name, form)
    # htmx requests (hx-post) send the token from the page's hx-headers
    if re.search(r"\shx-(post|put|patch|delete)=", html):
        assert "X-CSRFToken" in html, route.name


# -- headers on every HTML page: CSP, framing, nosniff -------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "alice"])
@pytest.mark.parametrize("route", routes(), ids=str)
def test_every_page_forbids_inline_script_and_framing(route, who, world):
    client = Client()
    if who == "alice":
        client.force_login(world["alice"])
    response = client.get(url_for(route, world))
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    if "html" not in response.get("Content-Type", ""):
        return
    csp = response["Content-Security-Policy"]
    directives = dict(([*part.strip().split(" ", 1), ""])[:2] for part in csp.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    html = response.content.decode()
    assert not re.search(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", html), "inline script"
    assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", html, re.I), "inline event handler"
    assert "javascript:" not in html


@pytest.mark.django_db
def test_error_pages_carry_the_same_headers(client):
    response = client.get("/nie-ma-takiej-strony/")
    assert response.status_code == 404
    assert response["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


# -- usernames rendered inert everywhere ------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "xss"])
@pytest.mark.parametrize("route", routes(), ids=str)
def test_a_markup_username_is_inert_on_every_page(route, who, world):
    client = Client()
    if who == "xss":
        client.force_login(world["xss"])
    response = client.get(url_for(route, world))
    body = response.content.decode(errors="replace") if not getattr(response, "streaming", False) else ""
    if "html" in response.get("Content-Type", ""):
        assert "<img src=x" not in body
        assert "onerror=alert" not in body or XSS_ESCAPED in body or "\\u003Cimg" in body
    elif "json" in response.get("Content-Type", ""):
        pass  # JSON strings are data: the browser never parses them as HTML (nosniff)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["profile", "match", "record", "ranking", "challenge", "lobby"])
def test_the_name_is_shown_escaped_where_it_appears(name, world):
    route = next(r for r in routes() if r.name == name)
    client = Client()
    client.force_login(world["alice"])
    url = url_for(route, world)
    if name == "match":
        url = reverse("match", args=[world["active"].pk])
    if name == "ranking":
        url = reverse("ranking") + "?wariant=cztery-w-rzedzie"
    html = client.get(url).content.decode()
    assert "<img src=x" not in html
    assert XSS_ESCAPED in html or "\\u003Cimg src=x onerror=alert(1)\\u003E" in html, name


def test_our_javascript_never_puts_data_into_html():
    """textContent for names and messages; innerHTML only for board SVG rendered (and escaped) by
    games/display/boards.py on the server: the board fetched from /partia/<id>/plansza/<ply>/ and the record frame's ``svg``."""
    offenders = []
    for path in sorted((ROOT / "static" / "js").glob("**/*.js")):
        if ".min." in path.name:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\b(insertAdjacentHTML|outerHTML|document\.write|eval)\b|new Function\(", line):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
            for rhs in re.findall(r"\.innerHTML\s*=\s*([^;]+)", line):
                if rhs.strip() not in ('""', "''", "boardSvg", "svg"):
                    offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert not offenders, offenders


def test_the_csrf_cookie_is_http_only(client):
    """issue 24, item 21: no script reads it (the token is in the forms and in hx-headers)."""
    response = client.get("/konto/zaloguj/")
    assert response.cookies["csrftoken"]["httponly"]
