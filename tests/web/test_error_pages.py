"""With DEBUG off, errors show the site's own pages: its layout, the visitor's
language, the right status and a way back home."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from tests.conftest import PASSWORD

# (status, path, Polish heading, English heading)
PAGES = [
    (400, "/test-400/", "Błędne żądanie", "Bad request"),
    (403, "/test-403/", "Brak dostępu", "Access denied"),
    (404, "/nie-ma-takiej-strony/", "Nie ma takiej strony", "Page not found"),
    (500, "/test-500/", "Coś poszło nie tak", "Something went wrong"),
]


@pytest.fixture
def error_site(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.web.error_urls"


def visitor(language: str) -> Client:
    client = Client(raise_request_exception=False)
    client.cookies["kropki_language"] = language
    return client


def assert_site_page(response, status: int, heading: str, language: str) -> None:
    html = response.content.decode()
    assert response.status_code == status
    assert f'<html lang="{language}">' in html
    assert f'<h1 id="error-title">{heading}</h1>' in html
    assert 'class="site-header"' in html and 'href="/" data-testid="error-home"' in html
    assert "Not Found" not in html and "Server Error" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["pl", "en"])
@pytest.mark.parametrize("status, url, polish, english", PAGES)
def test_error_pages_are_the_sites_own_in_the_visitors_language(error_site, language, status, url, polish, english):
    response = visitor(language).get(url)
    assert_site_page(response, status, polish if language == "pl" else english, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language, heading", [("pl", "Formularz wygasł"), ("en", "The form has expired")])
def test_a_csrf_failure_is_the_sites_own_403(error_site, language, heading):
    client = visitor(language)
    client.handler.enforce_csrf_checks = True
    response = client.post("/konto/logowanie/", {"username": "alice", "password": "x"})
    assert_site_page(response, 403, heading, language)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, heading", [("pl", "Zbyt wiele nieudanych prób"), ("en", "Too many failed attempts")]
)
def test_the_login_lockout_is_the_sites_own_429(error_site, settings, alice, language, heading):
    client = visitor(language)
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        response = client.post("/konto/logowanie/", {"username": "alice", "password": "zle"}, REMOTE_ADDR="10.0.0.9")
    assert_site_page(response, 429, heading, language)
    assert (
        client.post(
            "/konto/logowanie/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9"
        ).status_code
        == 429
    )


@pytest.mark.parametrize("language, heading", [("pl", "Coś poszło nie tak"), ("en", "Something went wrong")])
def test_the_500_page_needs_no_database_or_session(language, heading):
    """No django_db mark: any query fails the test. The request has no session or user."""
    request = RequestFactory().get("/")
    with translation.override(language):
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert f'<html lang="{language}">' in html and heading in html and 'href="/"' in html
    assert 'class="lang-form"' not in html  # a form without its CSRF token would only fail
