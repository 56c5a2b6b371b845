"""Issue 12, item 8 (pagination): any ``strona`` (page number) on the paginated
pages - huge (2**63 and beyond), negative, zero, non-numeric - gives a page or
a 404, never a 500. ``/gracz/alice/?strona=9223372036854775807`` was a 500
(an OFFSET past SQLite's / PostgreSQL's 64-bit integer)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import bulk_finished_matches
from tests.helpers import C4

pytestmark = pytest.mark.django_db

FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck))  # examples: the profile (tests/conftest.py)

page_numbers = (
    st.integers(min_value=-(2**70), max_value=2**70).map(str)
    | st.sampled_from(
        [
            str(2**63 - 1),
            str(2**63),
            str(2**64),
            str(2**63 // 20),
            str(2**63 // 50 + 1),
            "10" * 40,
            "-1",
            "0",
            "1",
            "2",
            "3",
            "9" * 400,
            "1e309",
            "NaN",
            "inf",
            "",
            " 2",
            "２",  # noqa: RUF001 - a full-width digit on purpose
            "٣",
            "0x10",
            "1.5",
            "abc",
            "\x00",
        ]
    )
    | st.text(max_size=20)
)
PAGES = [("profile", ["alice"]), ("ranking", []), ("ranking_variant", [C4]), ("lobby", []), ("lobby_lists", [])]


@pytest.fixture
def world(alice, bob, charlie):
    bulk_finished_matches(alice, [bob, charlie], 45)


@pytest.mark.parametrize("name, args", PAGES)
@pytest.mark.parametrize("number", [str(2**63 - 1), str(2**63), str(2**63 // 20 + 1), "-5", "0", "9" * 400, "x"])
def test_known_bad_page_numbers_are_never_a_500(client, world, name, args, number):
    response = client.get(reverse(name, args=args), {"strona": number})
    assert response.status_code in (200, 404)


@pytest.mark.slow
@pytest.mark.parametrize("name, args", PAGES)
def test_any_page_number_is_a_page_or_a_404(world, name, args):
    client = Client(raise_request_exception=False)

    @FUZZ
    @given(number=page_numbers, repeat=st.booleans())
    def check(number, repeat):
        query = {"strona": [number, number] if repeat else number}
        response = client.get(reverse(name, args=args), query)
        assert response.status_code in (200, 404), (number, response.status_code)

    check()


def test_a_page_past_the_end_is_the_last_page_or_a_404(client, world):
    """The profile (20 a page, 45 matches: 3 pages) and the ranking show their last page;
    a profile page number above 10**6 is a 404 before any query."""
    last = client.get(reverse("profile", args=["alice"]), {"strona": "3"})
    assert last.status_code == 200 and last.context["page"].number == 3
    for number in ("4", "1000", str(10**6)):
        past = client.get(reverse("profile", args=["alice"]), {"strona": number})
        assert past.status_code == 200 and past.context["page"].number == 3 and past.context["page"].object_list
    assert client.get(reverse("profile", args=["alice"]), {"strona": str(10**6 + 1)}).status_code == 404
    ranking = client.get(reverse("ranking_variant", args=[C4]), {"strona": str(2**63)})
    assert ranking.status_code == 200 and ranking.context["page"].number == ranking.context["page"].paginator.num_pages
