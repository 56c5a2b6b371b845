"""The arenas' pages: the list, making one, joining and withdrawing by the buttons,
berserk from the match page, the tournament page (standings, podium, a private link),
the home page's upcoming ones, the profile's tournaments and marked games."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from games.play import match_resign
from games.tournaments.models import Tournament, TournamentPlayer
from games.tournaments.services import tournament_join, tournaments_pair
from tests.helpers import C4, play_moves

pytestmark = pytest.mark.django_db


def running(**kwargs) -> Tournament:
    now = timezone.now()
    fields = {
        "name": "Arena testowa",
        "variant": C4,
        "starts_at": now - timedelta(minutes=1),
        "ends_at": now + timedelta(minutes=30),
        "minutes": 31,
        "status": Tournament.Status.RUNNING,
    }
    fields.update(kwargs)
    return Tournament.objects.create(**fields)


def test_the_list_shows_running_upcoming_and_finished_but_not_private_ones(client):
    now = timezone.now()
    running(name="Biegnie")
    Tournament.objects.create(
        name="Będzie", variant=C4, starts_at=now + timedelta(hours=1), ends_at=now + timedelta(hours=2), minutes=60
    )
    running(name="Prywatna", public=False)
    page = client.get(reverse("tournaments")).content.decode()
    assert "Biegnie" in page and "Będzie" in page and "Prywatna" not in page
    home = client.get(reverse("home")).content.decode()
    assert "Będzie" in home and 'data-testid="home-tournaments"' in home


def test_a_player_makes_a_tournament_and_a_guest_cannot(client, alice, django_user_model):
    client.force_login(alice)
    form = {"variant": C4, "start": "5", "minutes": "30", "move_seconds": "20", "rated": "1", "public": "1"}
    answer = client.post(reverse("tournament_new"), {**form, "name": "Moja arena"})
    t = Tournament.objects.get(name="Moja arena")
    assert answer.status_code == 302 and answer["Location"] == reverse("tournament", args=[t.pk])
    assert (t.move_seconds, t.minutes, t.creator_id) == (20, 30, alice.pk)
    guest = django_user_model.objects.create_user(username="gosc-2", is_guest=True)
    client.force_login(guest)
    client.post(reverse("tournament_new"), {**form, "name": "Gościa"})
    assert not Tournament.objects.filter(name="Gościa").exists()


def test_a_private_tournament_is_seen_and_joined_with_its_link_only(client, alice):
    t = running(public=False)
    assert client.get(reverse("tournament", args=[t.pk])).status_code == 404
    assert client.get(reverse("tournament", args=[t.pk]), {"klucz": str(t.token)}).status_code == 200
    client.force_login(alice)
    assert client.post(reverse("tournament_join", args=[t.pk])).status_code == 404
    assert not TournamentPlayer.objects.filter(tournament=t).exists()
    page = client.get(reverse("tournament", args=[t.pk]), {"klucz": str(t.token)}).content.decode()
    assert f'name="klucz" value="{t.token}"' in page
    client.post(reverse("tournament_join", args=[t.pk]), {"klucz": str(t.token)})
    assert TournamentPlayer.objects.filter(tournament=t, user=alice).exists()


def test_join_withdraw_and_come_back_by_the_buttons(client, alice):
    t = running()
    client.force_login(alice)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'data-testid="tournament-join"' in page
    client.post(reverse("tournament_join", args=[t.pk]))
    assert TournamentPlayer.objects.filter(tournament=t, user=alice, paused=False).exists()
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'data-testid="tournament-withdraw"' in page and "alice" in page
    client.post(reverse("tournament_withdraw", args=[t.pk]))
    assert TournamentPlayer.objects.get(tournament=t, user=alice).paused
    client.post(reverse("tournament_join", args=[t.pk]))
    assert not TournamentPlayer.objects.get(tournament=t, user=alice).paused


def test_a_game_of_the_arena_offers_berserk_and_the_way_back(client, alice, bob):
    t = running()
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    (match,) = tournaments_pair()
    client.force_login(alice)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-testid="berserk"' in page and 'id="tournament-return"' in page
    assert 'data-testid="new-game"' not in page  # the arena pairs the next one
    client.post(reverse("berserk", args=[match.pk]))
    match.refresh_from_db()
    assert match.pink_berserk if match.pink_id == alice.pk else match.blue_berserk
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-testid="berserk"' not in page and 'data-testid="berserk-note"' in page
    # the tournament page of a player in a game that has not begun takes them to it
    tpage = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert f"/partia/{match.pk}/" in tpage


def test_the_finished_page_shows_the_podium_and_the_profile_lists_it(client, alice, bob):
    t = running()
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    (match,) = tournaments_pair()
    match_resign(match_id=match.pk, user_id=bob.pk)
    tournaments_pair(now=t.ends_at + timedelta(seconds=1))
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'data-testid="podium"' in page and 'data-testid="tournament-join"' not in page
    profile = client.get(reverse("profile", args=["alice"])).content.decode()
    assert "Arena testowa" in profile and 'data-testid="podium-badge"' in profile
    assert 'data-testid="tournament-game"' in profile
    assert Match.objects.get(pk=match.pk).tournament_id == t.pk


def test_the_standings_frame_is_small_for_many_players(make_user):
    from games.tournaments.selectors import standings_frame

    t = running()
    users = [make_user(f"gracz{i:04d}") for i in range(120)]
    TournamentPlayer.objects.bulk_create(
        [TournamentPlayer(tournament=t, user=u, rating=1500, joined_at=timezone.now()) for u in users]
    )
    frame = standings_frame(t)
    assert frame["count"] == 120 and len(frame["standings"]) == 30


def test_the_cached_standings_follow_every_change(client, alice, bob):
    t = running()
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    url = reverse("tournament", args=[t.pk])
    playing = '<span class="muted">(gra)</span>'
    assert playing not in client.get(url).content.decode()
    (match,) = tournaments_pair()
    assert client.get(url).content.decode().count(playing) == 2  # both playing: a new board
    play_moves(match, [6, 6, 5, 5])  # two moves each: the game counts
    match_resign(match_id=match.pk, user_id=bob.pk)
    page = client.get(url).content.decode()
    assert playing not in page and '<td class="num" data-testid="points">2</td>' in page


def test_the_record_of_an_arena_game_names_its_tournament(client, alice, bob):
    t = running(name="Wieczorna arena")
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    (match,) = tournaments_pair()
    match_resign(match_id=match.pk, user_id=alice.pk)
    page = client.get(reverse("record", args=[match.pk])).content.decode()
    assert 'data-testid="record-tournament"' in page
    assert f'href="{reverse("tournament", args=[t.pk])}">Wieczorna arena</a>' in page
    private = running(name="Arena prywatna", public=False)
    Match.objects.filter(pk=match.pk).update(tournament=private)
    page = client.get(reverse("record", args=[match.pk])).content.decode()
    assert "Arena prywatna" in page and reverse("tournament", args=[private.pk]) not in page


def test_a_waiting_player_hears_who_is_free_for_their_next_game(client, alice, bob, make_user):
    """The page and the frame list the free players with their last opponents: after their
    game alice and bob are free but may not meet again, so alice's page says she waits for
    another player (static/js/tournament.js); a third player joining is someone she can meet."""
    from games.tournaments.selectors import standings_frame

    t = running()
    tournament_join(tournament_id=t.pk, user=alice)
    tournament_join(tournament_id=t.pk, user=bob)
    assert sorted(standings_frame(t)["free"]) == [["alice", ""], ["bob", ""]]
    (match,) = tournaments_pair()
    assert standings_frame(t)["free"] == []
    match_resign(match_id=match.pk, user_id=bob.pk)
    assert sorted(standings_frame(t)["free"]) == [["alice", "bob"], ["bob", "alice"]]
    client.force_login(alice)
    page = client.get(reverse("tournament", args=[t.pk]))
    live = page.context["live"]
    assert live["me"] == "alice" and live["wave_seconds"] == 2
    assert sorted(live["free"]) == [["alice", "bob"], ["bob", "alice"]]
    assert 'data-testid="next-game"' in page.content.decode()
    carol = make_user("carol")
    tournament_join(tournament_id=t.pk, user=carol)
    assert ["carol", ""] in client.get(reverse("tournament", args=[t.pk])).context["live"]["free"]


def test_an_upcoming_arena_counts_down_to_a_joined_players_first_game(client, alice):
    now = timezone.now()
    t = running(status=Tournament.Status.UPCOMING, starts_at=now + timedelta(minutes=5))
    tournament_join(tournament_id=t.pk, user=alice)
    client.force_login(alice)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    seconds = re.search(
        r'data-testid="next-game">Pierwsza partia za <span class="countdown" data-seconds="(\d+)"', page
    )
    assert seconds and 290 <= int(seconds.group(1)) <= 300


# -- issue 38 -----------------------------------------------------------------------------

JSON = {"HTTP_ACCEPT": "application/json"}


def test_refusals_over_http_carry_a_code_as_json_or_a_header(client, alice, django_user_model):
    t = running(status=Tournament.Status.FINISHED)
    join = reverse("tournament_join", args=[t.pk])
    answer = client.post(join, **JSON)
    assert answer.status_code == 401 and answer.json()["code"] == "login_required"
    client.force_login(alice)
    answer = client.post(join, **JSON)
    assert answer.status_code == 400 and answer.json()["code"] == "tournament_finished"
    assert answer.json()["message"]
    page = client.post(join)
    assert page.status_code == 302 and page["Kropki-Refusal"] == "tournament_finished"
    bad = client.post(reverse("tournament_new"), {"variant": C4, "start": "7", "minutes": "30"}, **JSON)
    assert bad.status_code == 400 and bad.json()["code"] == "tournament_bad_settings"
    open_one = running()
    done = client.post(reverse("tournament_join", args=[open_one.pk]), **JSON)
    assert done.status_code == 200 and done.json() == {"ok": True, "id": open_one.pk}
    guest = django_user_model.objects.create_user(username="gosc-3", is_guest=True)
    client.force_login(guest)
    answer = client.post(reverse("tournament_join", args=[open_one.pk]), **JSON)
    assert answer.status_code == 400 and answer.json()["code"] == "tournament_account"


def test_a_player_makes_a_five_minute_arena_starting_in_a_minute(client, alice):
    client.force_login(alice)
    form = {"variant": C4, "start": "1", "minutes": "5", "move_seconds": "20", "name": "Szybka"}
    answer = client.post(reverse("tournament_new"), form, **JSON)
    assert answer.status_code == 200, answer.content
    t = Tournament.objects.get(pk=answer.json()["id"])
    assert t.minutes == 5 and (t.ends_at - t.starts_at) == timedelta(minutes=5)
    too_short = client.post(reverse("tournament_new"), {**form, "minutes": "4", "name": "Za krótka"}, **JSON)
    assert too_short.json()["code"] == "tournament_bad_settings"
    assert '<option value="5">5 min</option>' in client.get(reverse("tournaments")).content.decode()


def test_a_finished_arena_shows_nobody_paused_or_playing_and_a_loss_is_never_bracketed(client, alice, bob):
    t = running(status=Tournament.Status.FINISHED)
    now = timezone.now()
    results = [{"m": 1, "r": "w", "p": 2, "f": False}, {"m": 2, "r": "w", "p": 2, "f": False}]
    results += [{"m": 3, "r": "w", "p": 4, "f": True}, {"m": 4, "r": "l", "p": 0, "f": True}]
    TournamentPlayer.objects.create(
        tournament=t, user=alice, rating=1500, points=8, rank=1, joined_at=now, paused=True, results=results
    )
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    table = page[page.index('id="standings-body"') : page.index("</tbody>")]
    assert "(przerwa)" not in table and 'class="paused"' not in table
    assert ">2 2 [4] 0<" in table
    assert "Punkty za partie" in page


def test_a_game_with_an_invisible_player_is_not_listed_as_played_but_the_standings_name_them(
    client, alice, bob, make_user
):
    """As the home page and the lobby (issue 37): the frame's and the page's ``playing`` leave
    out a game with an invisible player, who stays in the public standings."""
    from games.tournaments.selectors import standings_frame

    t = running()
    carol, dave = make_user("carol"), make_user("dave")
    for user in (alice, bob, carol, dave):
        tournament_join(tournament_id=t.pk, user=user)
    type(carol).objects.filter(pk=carol.pk).update(invisible=True)
    matches = tournaments_pair()
    assert len(matches) == 2
    (shown,) = [m for m in matches if carol.pk not in (m.pink_id, m.blue_id)]
    hidden = next(m for m in matches if m is not shown)
    frame = standings_frame(t)
    assert [g[0] for g in frame["playing"]] == [shown.pk]
    assert "carol" in [line[1] for line in frame["standings"]]
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    playing = page[page.index('data-testid="playing-list"') :]
    playing = playing[: playing.index("</ul>")]
    assert reverse("match", args=[shown.pk]) in playing and reverse("match", args=[hidden.pk]) not in playing
    assert "carol" not in playing and 'data-testid="standings"' in page and ">carol</a>" in page
