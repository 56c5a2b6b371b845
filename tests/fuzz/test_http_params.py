"""Hostile form fields and query parameters on every URL of the site.

The URL list comes from the resolver (tests/security/urlmap.py), so pages added
later are fuzzed without editing this file. For each route hypothesis draws:
who asks (anonymous, a player, a stranger), the path arguments (real objects
or anything the converter's regex accepts: huge ids, odd tokens), GET query
parameters (names found in the page's links and GET forms, plus common ones)
and POST fields (names found in the page's POST forms, plus extras), with
junk values: any unicode, NUL, huge numbers, long strings, markup.

Properties: never a 500 and never a traceback; a GET changes nothing in the
database; a POST whose values are all junk changes nothing either. The rows are
compared (every model's) after a request only when it ran a statement that may
write (``state_written``): without one nothing can have changed.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import play as services
from games.catalogue import games, variant_keys
from tests.conftest import make_persona
from tests.factories import make_match
from tests.security.urlmap import Route, routes, scan

pytestmark = pytest.mark.django_db

FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck))  # examples: the profile (tests/conftest.py)
COMMON_PARAMS = [
    "page",
    "strona",
    "variant",
    "wariant",
    "result",
    "wynik",
    "next",
    "q",
    "ply",
    "format",
    "lang",
    "sort",
    "kolor",
    "poziom",
]
# Rows a junk request may legitimately touch: sessions, login-attempt logs, admin log, Django's own tables.
NOT_STATE = {
    "sessions.session",
    "axes.accessattempt",
    "axes.accesslog",
    "axes.accessfailurelog",
    "admin.logentry",
    "contenttypes.contenttype",
    "auth.permission",
}
IGNORED_FIELDS = {"last_login"}
XSS_NAME = "<img src=x onerror=alert(1)>"

junk_text = (
    st.text(max_size=40)
    | st.text(min_size=500, max_size=3000)
    | st.sampled_from(
        [
            "-1",
            "0",
            "1e309",
            "NaN",
            "99999999999999999999999",
            str(2**63),
            "",
            " ",
            "\x00",
            "a\x00b",
            "' OR 1=1 --",
            "<script>alert(1)</script>",
            XSS_NAME,
            "../../etc/passwd",
            "%00",
            "true",
            "[]",
            "{}",
            "https://evil.example/",
            "//evil.example",
            "javascript:alert(1)",
            "ż" * 300,
        ]
    )
)
junk_values = junk_text | st.lists(junk_text, min_size=2, max_size=3)  # repeated keys


_READ = re.compile(r"\s*(SELECT|SAVEPOINT|RELEASE|ROLLBACK)\b", re.I)
_WRITTEN_TABLE = re.compile(r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?', re.I)


@functools.cache
def _bookkeeping_tables() -> frozenset[str]:
    return frozenset(apps.get_model(label)._meta.db_table for label in NOT_STATE)


def state_written(queries: list[dict]) -> bool:
    """Whether any statement a request ran may have changed site state: anything but a read, or a
    write to a table outside ``NOT_STATE``. The database cannot change without one (the test
    client runs the view on this connection), so only then is the state compared row by row."""
    for query in queries:
        sql = query["sql"]
        if _READ.match(sql):
            continue
        written = _WRITTEN_TABLE.match(sql)
        if written is None or written.group(1) not in _bookkeeping_tables():
            return True
    return False


def fingerprint() -> dict:
    """Every row of every model that holds site state (ordered, minus login bookkeeping)."""
    out = {}
    for model in apps.get_models():
        if model._meta.label_lower in NOT_STATE:
            continue
        fields = [f.attname for f in model._meta.concrete_fields if f.attname not in IGNORED_FIELDS]
        out[model._meta.label_lower] = list(model._default_manager.order_by("pk").values_list(*fields))
    return out


@pytest.fixture(scope="module")
def world(module_rows):
    """Real objects for the path arguments: an active and a finished match, a challenge, an odd
    username; made once for the module (tests/conftest.py ``module_db``: each test's changes are
    rolled back, these rows stay)."""
    with module_rows():
        return _world()


def _world() -> dict:
    alice, bob, charlie = (make_persona(name) for name in ("alice", "bob", "charlie"))
    active = make_match(alice, bob)
    finished = make_match(alice, bob, variant="kropki-10")
    services.match_play(match_id=finished.pk, user_id=alice.pk, ply=0, action=44)
    services.match_resign(match_id=finished.pk, user_id=bob.pk)
    challenge = services.challenge_create(user_id=alice.pk, variant="cztery-w-rzedzie", rated=False)
    xss = make_persona(XSS_NAME, email="xss@example.com")
    arena = _arena()
    return {
        "users": {"anonymous": None, "alice": alice, "charlie": charlie, "xss": xss},
        "values": {
            "match_id": [active.pk, finished.pk],
            "ply": [0, 1, 2],
            "token": [str(challenge.token)],
            "username": ["alice", XSS_NAME],
            "slug": [spec.rules_slug for spec in games()],
            "variant": variant_keys(),
            "uidb64": ["MQ"],
            "token_reset": ["set-password"],
            # the API's (docs/api.md) and the token settings'
            "token_id": [1],
            "challenge_id": [1],
            "action": ["3", "abc"],
            "answer": ["yes", "no"],
            "rest": ["x"],
            "tournament_id": [arena.pk],
            "puzzle_id": [_puzzle()],
            "game": [spec.slug for spec in games()],
        },
    }


def _puzzle() -> int:
    """A Kropki capture puzzle (tests/games/puzzles/test_finders.py's position)."""
    from games.bots.puzzles import Cut
    from games.puzzles import builder
    from games.puzzles.models import Puzzle
    from tests.games.puzzles.test_finders import CLOSE, KROPKI, WALL

    history = [*WALL, KROPKI.action_for(9, 0)]
    builder.store("kropki-10", {}, history, Cut("capture", [CLOSE], [[CLOSE]], "line", len(history)))
    return Puzzle.objects.get(actions=history).pk


def _arena():
    """A running arena for the tournaments' paths (docs/tournaments.md)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.tournaments.models import Tournament

    now = timezone.now()
    return Tournament.objects.create(
        name="Arena",
        variant="cztery-w-rzedzie",
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=30),
        minutes=31,
        status=Tournament.Status.RUNNING,
    )


def path_kwargs(route: Route, world: dict):
    resolver = get_resolver()
    pattern = next(p for p in _flat(resolver.url_patterns) if p[0] == route.route)[1]
    strategies = {}
    for name, _conv in route.kwargs:
        regex = pattern.pattern.converters[name].regex
        known = world["values"].get(name) or []
        real = st.sampled_from([str(v) for v in known]) if known else st.nothing()
        strategies[name] = real | st.from_regex(rf"\A{regex}\Z", fullmatch=True).filter(lambda s: len(s) < 200)
    return st.fixed_dictionaries(strategies)


def _flat(patterns, prefix=""):
    from django.urls import URLResolver

    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _flat(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p


def discover(url: str, client: Client) -> tuple[dict, dict]:
    """Field names (and offered values) of the page's GET and POST forms and its links' query strings."""
    response = client.get(url)
    get_fields: dict[str, list] = {}
    post_fields: dict[str, list] = {}
    if response.status_code == 200 and "html" in response.get("Content-Type", ""):
        page = scan(response.content.decode())
        for form in page.forms:
            target = post_fields if form["method"] == "post" else get_fields
            for name, values in form["fields"].items():
                if name != "csrfmiddlewaretoken":
                    target.setdefault(name, []).extend(values)
        for href in page.links:
            for key, value in parse_qsl(urlsplit(href).query):
                get_fields.setdefault(key, []).append(value)
    return get_fields, post_fields


def assert_sane(response) -> None:
    assert response.status_code < 500, (response.status_code, response.content[:500])
    body = response.content if not getattr(response, "streaming", False) else b"".join(response.streaming_content)
    assert b"Traceback" not in body


@pytest.mark.parametrize("route", routes(), ids=str)
def test_no_500_and_junk_changes_nothing(route, world):
    sample_kwargs = {name: str((world["values"].get(name) or ["x1"])[0]) for name, _ in route.kwargs}
    sample_url = reverse(route.name, kwargs=sample_kwargs) if route.kwargs else reverse(route.name)
    forms = {}
    for who, user in world["users"].items():
        client = Client()
        if user is not None:
            client.force_login(user)
        forms[who] = discover(sample_url, client)

    @FUZZ
    @given(data=st.data())
    def run(data):
        who = data.draw(st.sampled_from(sorted(world["users"])), label="who")
        kwargs = data.draw(path_kwargs(route, world), label="path") if route.kwargs else {}
        url = reverse(route.name, kwargs=kwargs) if kwargs else reverse(route.name)
        get_fields, post_fields = forms[who]
        client = Client()
        if world["users"][who] is not None:
            client.force_login(world["users"][who])

        names = sorted(set(get_fields) | set(COMMON_PARAMS))
        query = data.draw(
            st.dictionaries(st.sampled_from(names) | st.text(max_size=10), junk_values, max_size=4), label="query"
        )
        with CaptureQueriesContext(connection) as ran:
            assert_sane(client.get(url, query))
        if state_written(ran.captured_queries):
            assert fingerprint() == known["state"], f"GET {url} {query!r} changed the database"

        post_names = sorted(set(post_fields) | {"extra"})
        body = data.draw(
            st.dictionaries(st.sampled_from(post_names), junk_values, max_size=len(post_names)), label="post"
        )
        offered = {v for values in post_fields.values() for v in values}
        all_junk = not any(
            (v in offered) if isinstance(v, str) else any(x in offered for x in v) for v in body.values()
        )
        with CaptureQueriesContext(connection) as ran:
            assert_sane(client.post(url, body))
        if state_written(ran.captured_queries):
            after = fingerprint()
            if all_junk and route.name not in LEGIT_JUNK_POSTS:
                assert after == known["state"], f"POST {url} {body!r} changed the database"
            known["state"] = after  # a POST that may change things did: the next example starts here

    known = {"state": fingerprint()}
    run()


# POSTs that change state whatever the body says (no field decides anything).
LEGIT_JUNK_POSTS = {
    "logout",  # ends the session (sessions are not in the fingerprint anyway)
    "queue_cancel",
    "challenge_cancel",
    "challenge_accept",
    "block",
    "unblock",  # the URL names the object; the body is ignored
    "follow",
    "unfollow",  # the player is in the URL (games/following/services.py)
    "record_analysis",  # asks for the match's analysis (games/review/services.py)
    "tournament_join",
    "tournament_withdraw",  # the arena is in the URL (games/tournaments/services.py)
    "swiss_join",
    "swiss_withdraw",  # the Swiss is in the URL (games/tournaments/swiss/services.py)
}


def test_state_written_sees_every_write_but_the_bookkeeping(world):
    """The shortcut above is sound only if it never misses a write of site state."""
    from django.contrib.sessions.backends.db import SessionStore

    alice = world["users"]["alice"]
    with CaptureQueriesContext(connection) as ran:
        type(alice).objects.filter(pk=alice.pk).update(language="en")
    assert state_written(ran.captured_queries)
    with CaptureQueriesContext(connection) as ran:
        type(alice).objects.filter(pk=world["users"]["charlie"].pk).delete()
    assert state_written(ran.captured_queries)
    with CaptureQueriesContext(connection) as ran:
        SessionStore().save()  # a session: not site state (NOT_STATE)
        fingerprint()
    assert not state_written(ran.captured_queries)
