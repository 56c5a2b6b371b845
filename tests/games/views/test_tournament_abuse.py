"""Issue 37 (round three), the arenas: a private arena's key never reaches a stranger walking
the ids; a deleted account leaves the arenas it was in; fresh accounts cannot fill the home
page's arenas, and an arena's name carries no invisible or reordering characters; ids beyond
64 bits are a 404 on every arena address."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from games.models import Match
from games.play.privacy import account_delete
from games.tournaments.models import Tournament, TournamentPlayer
from games.tournaments.selectors import standings_frame, tournament_frame_for
from games.tournaments.services import tournament_create, tournament_join, tournaments_pair
from kropki_site.lib.refusals import Refusal
from tests.games.views.test_tournament_pages import running
from tests.helpers import C4

pytestmark = pytest.mark.django_db


# -- 1. a private arena's key ---------------------------------------------------------------


def test_a_stranger_walking_the_ids_gets_no_key_and_cannot_join(client, alice, bob, make_user):
    """The attack: POST withdraw (and join, and GET the page) on every id as a stranger, collect
    whatever carries a key. Before the fix the withdraw's redirect carried ``?klucz=<token>``."""
    private = [running(public=False, creator=alice), running(public=False, name="Druga")]
    tournament_join(tournament_id=private[1].pk, user=bob)  # one with a player in it
    public = running(name="Publiczna")
    stranger = make_user("obcy")
    client.force_login(stranger)
    seen = []
    top = max(t.pk for t in [*private, public]) + 2
    for tid in range(1, top + 1):
        for answer in (
            client.post(reverse("tournament_withdraw", args=[tid])),
            client.post(reverse("tournament_join", args=[tid])),
            client.get(reverse("tournament", args=[tid])),
        ):
            seen.append(answer.get("Location", "") + answer.content.decode())
    text = "\n".join(seen)
    for t in private:
        assert str(t.token) not in text
        assert not TournamentPlayer.objects.filter(tournament=t, user=stranger).exists()
    # the socket's frame: none for a private arena without its key
    assert tournament_frame_for(stranger.pk, private[0].pk, None) is None
    assert str(private[0].token) not in str(standings_frame(private[0]))
    # the public arena still answers, and its withdraw still takes a stranger back to its page
    assert client.post(reverse("tournament_withdraw", args=[public.pk]))["Location"] == reverse(
        "tournament", args=[public.pk]
    )


def test_players_and_the_maker_still_get_their_link_back(client, alice, bob):
    t = running(public=False, creator=alice)
    client.force_login(bob)
    client.post(reverse("tournament_join", args=[t.pk]), {"klucz": str(t.token)})
    assert TournamentPlayer.objects.filter(tournament=t, user=bob).exists()
    answer = client.post(reverse("tournament_withdraw", args=[t.pk]))
    assert answer["Location"].endswith(f"?klucz={t.token}")
    assert TournamentPlayer.objects.get(tournament=t, user=bob).paused
    client.force_login(alice)
    assert client.post(reverse("tournament_withdraw", args=[t.pk]))["Location"].endswith(f"?klucz={t.token}")


# -- 4. a deleted account --------------------------------------------------------------------


def test_a_deleted_account_leaves_its_arenas_and_shows_without_a_link(client, alice, bob, make_user):
    t = running()
    carol = make_user("carol")
    for user in (alice, bob, carol):
        tournament_join(tournament_id=t.pk, user=user)
    account_delete(user_id=carol.pk)
    line = TournamentPlayer.objects.get(tournament=t, user=carol)
    assert line.paused and line.match_id is None
    for _wave in range(3):  # never paired again, however many waves
        tournaments_pair()
        for m in Match.objects.filter(tournament=t, status=Match.Status.ACTIVE):
            assert carol.pk not in (m.pink_id, m.blue_id)
            m.status = Match.Status.ABORTED
            m.save(update_fields=["status"])
        TournamentPlayer.objects.filter(tournament=t).update(match=None, last_opponent=None)
    assert Match.objects.filter(tournament=t).exists()  # alice and bob were paired
    carol.refresh_from_db()
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert carol.username not in page  # neither the name nor a link to its (404) profile
    assert reverse("profile", args=[alice.username]) in page
    frame = standings_frame(t)
    names = [row[1] for row in frame["standings"]]
    assert "" in names and carol.username not in names and "alice" in names


def test_a_deleted_account_in_an_arena_game_is_resigned_and_withdrawn(alice, bob):
    t = running()
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    (match,) = tournaments_pair()
    account_delete(user_id=bob.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    line = TournamentPlayer.objects.get(tournament=t, user=bob)
    assert line.paused and line.match_id is None
    assert not TournamentPlayer.objects.get(tournament=t, user=alice).paused


# -- 5. the home page's arenas and their names -----------------------------------------------

FORM = {"variant": C4, "start": "5", "minutes": "30", "move_seconds": "20", "public": "1"}


def test_fresh_accounts_cannot_fill_the_home_page(client, settings, make_user):
    settings.NEW_ACCOUNT_MINUTES = 60
    fresh = [make_user(f"swiezy{i}") for i in range(3)]
    for user in fresh:
        client.force_login(user)
        for n in range(2):
            client.post(reverse("tournament_new"), {**FORM, "name": f"\u202eOFERTA {user.username} {n}"})
    assert not Tournament.objects.filter(public=True).exists()
    # private and unrated: still theirs to make, off the lists
    client.post(reverse("tournament_new"), {**FORM, "public": "0", "name": "Dla znajomych"})
    assert Tournament.objects.filter(public=False, name="Dla znajomych").exists()
    assert "Dla znajomych" not in client.get(reverse("home")).content.decode()


def test_the_home_page_shows_one_arena_per_maker(client, make_user):
    makers = [make_user(f"tworca{i}") for i in range(3)]
    for user in makers:
        for n in range(2):
            tournament_create(user=user, variant=C4, start_in_minutes=5, minutes=30, name=f"Arena {user.username} {n}")
    home = client.get(reverse("home")).content.decode()
    for user in makers:
        assert f"Arena {user.username} 0" in home
        assert f"Arena {user.username} 1" not in home


@pytest.mark.parametrize(
    ("given_name", "stored"),
    [
        ("\u202eanera\u202c Wieczorna", "anera Wieczorna"),
        ("A\u2066r\u2067e\u2068n\u2069a\u200e\u200f\u202a\u202b\u202d", "Arena"),
        ("Zero\u200bwidth\ufeff", "Zerowidth"),
        ("  Zwykła   arena ", "Zwykła arena"),
        ("", "Arena tworca"),
    ],
)
def test_an_arena_name_is_cleaned(make_user, given_name, stored):
    user = make_user("tworca")
    t = tournament_create(user=user, variant=C4, start_in_minutes=5, minutes=30, name=given_name)
    assert t.name == stored


@pytest.mark.parametrize("given_name", ["\u202e", "\u200b\u200e \u2066", "\u0301\u0301"])
def test_a_name_that_shows_nothing_is_refused_clearly(client, make_user, given_name):
    user = make_user("tworca")
    with pytest.raises(Refusal) as refused:
        tournament_create(user=user, variant=C4, start_in_minutes=5, minutes=30, name=given_name)
    assert refused.value.code == "tournament_bad_name"
    client.force_login(user)
    page = client.post(reverse("tournament_new"), {**FORM, "name": given_name}, follow=True).content.decode()
    assert "pokazuje" in page or "shows nothing" in page
    assert not Tournament.objects.exists()


# -- 8. ids beyond 64 bits --------------------------------------------------------------------

ADDRESSES = [
    ("get", "/turnieje/{}/"),
    ("post", "/turnieje/{}/dolacz/"),
    ("post", "/turnieje/{}/wycofaj/"),
    ("post", "/partia/{}/berserk/"),
]


@pytest.mark.parametrize(("method", "address"), ADDRESSES)
@pytest.mark.parametrize("number", ["9" * 30, str(2**63), str(2**64 + 1), "0" * 25 + "1" * 19])
def test_a_huge_id_is_a_404_on_every_arena_address(client, alice, method, address, number):
    client.force_login(alice)
    for call in (client.get, client.post):
        assert call(address.format(number)).status_code in (404, 405), (method, address, number)
    assert getattr(client, method)(address.format(number)).status_code == 404


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(number=st.integers(min_value=0, max_value=10**40), which=st.sampled_from(ADDRESSES))
def test_any_id_answers_without_a_server_error(client, alice, number, which):
    client.force_login(alice)
    _method, address = which
    for call in (client.get, client.post):
        assert call(address.format(number)).status_code in (302, 404, 405)


def test_a_socket_asking_for_a_huge_arena_id_gets_nothing(alice):
    assert tournament_frame_for(alice.pk, 10**30, None) is None
    assert tournament_frame_for(alice.pk, -1, None) is None
