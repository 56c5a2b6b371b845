"""Lobby, queue, ranking, profile and record pages (Django test client):
content, filters, exports, and a bounded number of queries whatever the games."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import catalogue
from games import play as services
from games.models import Seek
from games.play import matchmaking
from ratings.models import Rating
from tests.factories import bulk_finished_matches
from tests.helpers import C4, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_c4(make_match, alice, bob):
    """A rated Cztery w rzędzie match alice (pink) won with four in column 0."""
    match = make_match(rated=True)
    for user, column in [(alice, 0), (bob, 1), (alice, 0), (bob, 1), (alice, 0), (bob, 1), (alice, 0)]:
        play(match, user, column)
    match.refresh_from_db()
    return match


def kropki_match(alice, bob, rated=True):
    match = services.match_create(variant="kropki-10", pink_id=alice.pk, blue_id=bob.pk, rated=rated)
    for user, action in [
        (alice, 44),
        (bob, 45),
        (alice, 34),
        (bob, 0),
        (alice, 55),
        (bob, 1),
        (alice, 54),
        (bob, 2),
        (alice, 43),
    ]:
        play(match, user, action)
    services.match_resign(match_id=match.pk, user_id=bob.pk)
    match.refresh_from_db()
    return match


# -- lobby and queue ----------------------------------------------------------------


def test_the_lobby_shows_play_now_queues_challenges_and_live_matches(client, alice, bob, charlie, make_match):
    live = make_match()
    challenge = services.challenge_create(user_id=charlie.pk, variant="kropki-10", rated=True, listed=True)
    matchmaking.seek_create(user=charlie, variants=[C4])
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    for key in (*catalogue.variant_keys(), "all"):
        assert f'data-testid="play-now-{key}"' in html
    assert "Graj teraz" in html
    assert re.search(rf"data-testid=\"queue-size-{C4}\">czeka: 1<", html)
    assert f"/wyzwanie/{challenge.token}/" in html
    assert f'href="/partia/{live.pk}/"' in html
    assert 'action="/wyzwanie/"' in html  # the challenge form posts to the challenge view


def test_guests_see_the_lobby_but_must_log_in_to_queue(client):
    html = client.get(reverse("lobby")).content.decode()
    assert 'data-testid="play-now-' not in html and "/konto/logowanie/" in html
    response = client.post(reverse("queue_join"), {"variant": C4})
    assert response.status_code == 302 and "/konto/logowanie/" in response["Location"]
    assert not Seek.objects.exists()


def test_play_now_queues_shows_the_time_and_redirects_once_paired(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("queue_join"), {"variant": "all"})
    assert response.status_code == 302 and response["Location"] == reverse("queue")
    assert Seek.objects.filter(user=alice, status="waiting").count() == len(catalogue.variant_keys())
    page = client.get(reverse("queue")).content.decode()
    assert 'hx-get="/graj/kolejka/stan/"' in page and 'hx-trigger="every 1s"' in page
    partial = client.get(reverse("queue_status"), HTTP_HX_REQUEST="true")
    assert partial.status_code == 200 and "HX-Redirect" not in partial
    assert re.search(r'data-testid="queue-elapsed">0:0\d<', partial.content.decode())
    matchmaking.seek_create(user=bob, variants=["kropki-i-kwadraty"])
    [match] = matchmaking.seek_pair()
    partial = client.get(reverse("queue_status"), HTTP_HX_REQUEST="true")
    assert partial["HX-Redirect"] == f"/partia/{match.pk}/"
    assert client.get(reverse("queue"))["Location"] == f"/partia/{match.pk}/"
    assert not Seek.objects.filter(user=alice, status="waiting").exists()


def test_cancel_leaves_the_queue(client, alice):
    client.force_login(alice)
    client.post(reverse("queue_join"), {"variant": C4})
    response = client.post(reverse("queue_cancel"))
    assert response["Location"] == reverse("lobby")
    assert not Seek.objects.filter(status="waiting").exists()
    assert client.get(reverse("queue_status"))["HX-Redirect"] == reverse("lobby")


# -- ranking ------------------------------------------------------------------------


def test_ranking_lists_established_ratings_then_provisional_ones_marked(client, make_user):
    for i, (rating, deviation) in enumerate([(1700, 60), (1800, 200), (1600, 80), (1500, 350)]):
        Rating.objects.create(user=make_user(f"p{i}"), variant=C4, rating=rating, deviation=deviation, games=30 + i)
    html = client.get(reverse("ranking_variant", args=[C4])).content.decode()
    # Established best first, then the provisional ones best first, below a heading of their own.
    assert html.index(">p0<") < html.index(">p2<") < html.index('data-testid="provisional-heading"')
    assert html.index('data-testid="provisional-heading"') < html.index(">p1<") < html.index(">p3<")
    assert html.count('data-testid="provisional-heading"') == 1
    assert 'href="/gracz/p0/"' in html and ">1700<" in html
    assert ">1800?<" in html and ">1500?<" in html  # marked "?"
    ranks = re.findall(r'<td class="num">(\d+)</td>\s*<th scope="row"><a href="/gracz/(p\d)/"', html)
    assert ranks == [("1", "p0"), ("2", "p2")]  # provisional players get no rank
    assert 'data-testid="provisional-note"' in html
    assert 'aria-current="page"' in html
    # The default variant and an unknown one both give a page.
    assert client.get(reverse("ranking")).status_code == 200
    assert client.get("/ranking/?wariant=szachy").status_code == 200


def test_ranking_is_paginated_with_a_bounded_number_of_queries(client, make_user, django_assert_max_num_queries):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"gracz{i}", email=f"g{i}@example.com") for i in range(120)]
    )
    Rating.objects.bulk_create(
        [Rating(user=u, variant=C4, rating=1400 + i, deviation=60, games=20) for i, u in enumerate(users)]
    )
    with django_assert_max_num_queries(4):
        html = client.get(reverse("ranking_variant", args=[C4]) + "?strona=3").content.decode()
    assert ">101<" in html  # rank 101 is the first row of page 3
    assert "gracz19<" in html and "gracz20<" not in html
    # Provisional players follow on the pages after the established ones, in the same bound.
    provisional = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"nowy{i}", email=f"n{i}@example.com") for i in range(40)]
    )
    Rating.objects.bulk_create(
        [Rating(user=u, variant=C4, rating=1900 + i, deviation=300, games=2) for i, u in enumerate(provisional)]
    )
    with django_assert_max_num_queries(4):
        html = client.get(reverse("ranking_variant", args=[C4]) + "?strona=3").content.decode()
    assert ">120<" in html and "gracz0<" in html and "nowy39<" in html and "nowy10<" in html
    assert "nowy9<" not in html and 'data-testid="provisional-heading"' in html


# -- profile ------------------------------------------------------------------------


def test_the_profile_shows_ratings_chart_counts_and_matches(client, finished_c4, alice, bob):
    html = client.get(reverse("profile", args=["ALICE"])).content.decode()
    assert 'data-testid="profile-name">alice<' in html
    rating = Rating.objects.get(user=alice, variant=C4)
    assert f'data-testid="rating-value-{C4}">{rating.display}<' in html and rating.display.endswith("?")
    assert f'data-testid="wins-{C4}">1<' in html and f'data-testid="losses-{C4}">0<' in html
    assert 'data-testid="rating-value-kropki-10">1500?<' in html
    # The chart: an SVG with a text alternative and axes labels, and a hidden table of its points.
    assert '<svg class="rating-chart"' in html and '<title id="chart-cztery-w-rzedzie-title">' in html
    assert '<desc id="chart-cztery-w-rzedzie-desc">' in html and 'class="chart-label"' in html
    assert "<caption>" in html
    assert f'href="/partia/{finished_c4.pk}/zapis/"' in html
    assert 'href="/gracz/bob/"' in html


def test_the_profile_filters_by_variant_and_result(client, alice, bob, finished_c4):
    kropki = kropki_match(alice, bob)
    url = reverse("profile", args=["alice"])
    html = client.get(url + "?wariant=kropki-10").content.decode()
    assert f"/partia/{kropki.pk}/zapis/" in html and f"/partia/{finished_c4.pk}/zapis/" not in html
    html = client.get(reverse("profile", args=["bob"]) + "?wynik=loss").content.decode()
    assert f"/partia/{kropki.pk}/zapis/" in html and f"/partia/{finished_c4.pk}/zapis/" in html
    assert "/zapis/" not in client.get(reverse("profile", args=["bob"]) + "?wynik=win").content.decode()
    html = client.get(reverse("profile", args=["bob"]) + "?wynik=draw").content.decode()
    assert "/zapis/" not in html


def test_a_draw_is_listed_as_a_draw_never_a_loss(client, make_match, alice, bob):
    match = make_match(rated=True)
    for user in (alice, bob, alice, bob):  # two moves each: the game counts
        play(match, user, 3)
    services.match_offer_draw(match_id=match.pk, user_id=alice.pk)
    services.match_answer_draw(match_id=match.pk, user_id=bob.pk, accept=True)
    html = client.get(reverse("profile", args=["bob"]) + "?wynik=draw").content.decode()
    assert f"/partia/{match.pk}/zapis/" in html
    html = client.get(reverse("profile", args=["bob"]) + "?wynik=loss").content.decode()
    assert f"/partia/{match.pk}/zapis/" not in html
    assert f'data-testid="draws-{C4}">1<' in html and f'data-testid="losses-{C4}">0<' in html


def test_unknown_players_are_404(client):
    assert client.get(reverse("profile", args=["nikt"])).status_code == 404


@pytest.mark.parametrize("n", [5, 300])
def test_the_profile_runs_a_bounded_number_of_queries(client, alice, bob, charlie, n, django_assert_max_num_queries):
    bulk_finished_matches(alice, [bob, charlie], n)
    client.force_login(bob)
    # 12, her tournaments (docs/tournaments.md), whether bob follows her, her puzzle ratings
    with django_assert_max_num_queries(15):
        response = client.get(reverse("profile", args=["alice"]) + "?strona=2")
    assert response.status_code == 200
    with django_assert_max_num_queries(15):
        assert client.get(reverse("profile", args=["alice"]) + "?wynik=win&wariant=" + C4).status_code == 200


# -- record ---------------------------------------------------------------------------


def test_the_record_shows_players_ratings_result_board_replay_and_exports(client, finished_c4, alice, bob):
    html = client.get(reverse("record", args=[finished_c4.pk])).content.decode()
    a = Rating.objects.get(user=alice, variant=C4)
    assert "1500?" in html and f'data-testid="rating-after-pink">{a.display}<' in html
    delta = round(a.rating) - 1500
    assert f'data-testid="rating-delta-pink">+{delta}<' in html
    assert 'data-testid="rating-delta-blue">\u2212' in html  # a real minus sign, as on the match page
    assert "Wygrywają różowe" in html or "Pink wins" in html
    assert 'data-testid="replay-slider"' in html and 'max="7"' in html
    assert "<svg" in html and 'src="/static/js/replay.js"' in html
    assert 'id="replay-config"' in html
    assert f'href="/partia/{finished_c4.pk}/eksport.json"' in html
    assert "eksport.sgf" not in html  # SGF is for Kropki only


def test_an_active_match_record_redirects_to_the_match(client, make_match):
    match = make_match()
    assert client.get(reverse("record", args=[match.pk]))["Location"] == f"/partia/{match.pk}/"
    assert client.get(reverse("record_frame", args=[match.pk, 0])).status_code == 404


def test_replay_frames_step_through_every_move(client, finished_c4):
    boards = []
    for ply in range(finished_c4.ply + 1):
        data = client.get(reverse("record_frame", args=[finished_c4.pk, ply])).json()
        assert data["ply"] == ply and data["svg"].startswith("<svg")
        boards.append(data["svg"])
    assert len(set(boards)) == finished_c4.ply + 1  # every move changes the board
    assert client.get(reverse("record_frame", args=[finished_c4.pk, 8])).status_code == 404
    last = client.get(reverse("record_frame", args=[finished_c4.pk, 7]))
    assert "max-age" in last["Cache-Control"] and last.json()["move"]


def test_the_record_runs_a_bounded_number_of_queries(client, alice, bob, django_assert_max_num_queries):
    [match_id] = bulk_finished_matches(alice, [bob], 1)
    with django_assert_max_num_queries(5):  # with its computer analysis (none here)
        assert client.get(reverse("record", args=[match_id])).status_code == 200
    long_match = kropki_match(alice, bob)
    with django_assert_max_num_queries(5):
        assert client.get(reverse("record", args=[long_match.pk])).status_code == 200


def test_json_export_replays_with_the_engine(client, finished_c4, alice, bob):
    data = json.loads(client.get(reverse("export_json", args=[finished_c4.pk])).content)
    assert data["game"] == "connect4" and data["moves"] == [1, 2, 1, 2, 1, 2, 1]
    assert data["players"]["pink"]["name"] == "alice" and data["winner"] == "pink"
    assert len(data["record"]) == 7 and data["record"][0]["player"] == "pink" and data["record"][1]["ply"] == 2
    assert data["players"]["pink"]["rating_before"] == 1500


def test_json_export_is_read_by_the_engine_replay(client, alice, bob):
    from io import StringIO

    match = kropki_match(alice, bob)
    data = json.loads(client.get(reverse("export_json", args=[match.pk])).content)
    assert data["game"] == "kropki" and data["params"] == {"width": 10, "height": 10}
    assert data["moves"][0] == [4, 4]
    out = StringIO()
    from games.engine import replay

    replay.run(StringIO(json.dumps(data) + "\n"), out)
    result = json.loads(out.getvalue())
    assert all(step["ok"] for step in result["after"])


def test_sgf_export_for_kropki(client, alice, bob):
    match = kropki_match(alice, bob)
    response = client.get(reverse("export_sgf", args=[match.pk]))
    sgf = response.content.decode()
    assert response["Content-Type"].startswith("application/x-go-sgf")
    assert sgf.startswith("(;GM[40]FF[4]CA[UTF-8]") and "SZ[10]" in sgf
    assert "PB[alice]" in sgf and "PW[bob]" in sgf and "RE[B+R]" in sgf
    # 44 = (4, 4) -> "ee"; 45 = (5, 4) -> "fe"; 0 = (0, 0) -> "aa"
    assert ";B[ee];W[fe];B[ee]" not in sgf and sgf.count(";B[") == 5 and sgf.count(";W[") == 4
    assert ";B[ee];W[fe];B[ed];W[aa]" in sgf
    assert sgf.rstrip().endswith(")")
    finished = services.match_create(variant=C4, pink_id=alice.pk, blue_id=bob.pk)
    services.match_resign(match_id=finished.pk, user_id=alice.pk)
    assert client.get(reverse("export_sgf", args=[finished.pk])).status_code == 404


def test_exports_download_under_a_name_with_the_game_id_and_players(client, make_user):
    ania, bartek = make_user("Ania"), make_user("Bartłomiej_K")
    match = kropki_match(ania, bartek)
    html = client.get(reverse("record", args=[match.pk])).content.decode()
    # The record links every export there is for Kropki.
    assert f'href="/partia/{match.pk}/eksport.json"' in html and f'href="/partia/{match.pk}/eksport.sgf"' in html
    for name, ext in (("export_json", "json"), ("export_sgf", "sgf")):
        response = client.get(reverse(name, args=[match.pk]))
        assert response.status_code == 200
        expected = f'attachment; filename="kropki-10-{match.pk}-ania-vs-bartlomiej_k.{ext}"'
        assert response["Content-Disposition"] == expected


def test_a_computer_games_export_names_the_computer(client, alice):
    match = services.match_create(variant="kropki-i-kwadraty", pink_id=alice.pk, blue_id=None, bot_level="trudny")
    services.match_resign(match_id=match.pk, user_id=alice.pk)
    client.cookies["kropki_language"] = "en"
    response = client.get(reverse("export_json", args=[match.pk]))
    assert response["Content-Disposition"] == (
        f'attachment; filename="kropki-i-kwadraty-{match.pk}-alice-vs-computer-hard.json"'
    )
