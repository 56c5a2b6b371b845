"""The visitors' allowance (issue 39; docs/analysis.md "Fair and bounded"): a visitor, a guest or
a new account may ask for the computer's review of an imported game (a visitor becomes a guest,
as on the computer page), a few a day per address, never of a game played here; all of them
together take one turn in the fair queue, so a crowd of guests never pushes an account holder
back by more than one review; the fair-play guard refuses them a live rated position as it
refuses anyone; the record page's watchers (a guest's too) follow the progress over the site
socket (``watch_analysis``)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.play.creating import match_create
from games.play.imports import game_import
from games.play.moves import match_play
from games.review.models import Analysis
from games.review.selectors import queue_position
from games.review.services import analysis_request, analysis_run
from kropki_site.lib.refusals import Refusal
from tests.factories import finished_match
from tests.games.live.test_site_consumer import connect, error, frame_of
from tests.helpers import C4

# A short Cztery w rzędzie game, imported as this site's JSON (columns 1-7).
GAME = json.dumps({"game": "connect4", "moves": [4, 4, 3, 5]})


def _imported(by: User | None = None, moves: str = GAME):
    return game_import(text=moves, user_id=by.pk if by is not None else None)


def _guest(name: str) -> User:
    return User.objects.create_user(username=name, is_guest=True)


@pytest.mark.django_db
def test_a_visitor_asks_for_an_imported_games_review_and_becomes_a_guest(client):
    imported = _imported()
    record = reverse("record", args=[imported.pk])
    page = client.get(record, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="analysis-ask"' in page
    assert "An imported game can be analysed without an account: 3 analyses a day" in page
    asked = client.post(reverse("record_analysis", args=[imported.pk]), REMOTE_ADDR="10.39.0.1")
    assert asked.status_code == 302
    analysis = Analysis.objects.get()
    guest = analysis.requested_by
    assert guest is not None and guest.is_guest and analysis.status == Analysis.Status.QUEUED
    page = client.get(record, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="analysis-queued"' in page and "data-analysis-watch" in page  # the page follows it
    assert analysis_run(analysis.pk) is True
    page = client.get(record, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="analysis-summary"' in page and "data-analysis-watch" not in page


@pytest.mark.django_db
def test_a_game_played_here_stays_an_accounts_to_ask_for(client, alice, bob, settings):
    played = finished_match(alice, bob, [3, 3, 2, 4, 1], C4)
    page = client.get(reverse("record", args=[played.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="analysis-ask"' not in page and "Log in" in page
    client.post(reverse("record_analysis", args=[played.pk]))
    assert not User.objects.filter(is_guest=True).exists()  # no guest made for nothing
    settings.NEW_ACCOUNT_MINUTES = 60
    fresh = User.objects.create_user(username="swieza")
    for who, code in (
        (_guest("gosc_a"), "analysis_guest"),
        (fresh, "account_too_new"),
        (AnonymousUser(), "analysis_guest"),
    ):
        with pytest.raises(Refusal) as refused:
            analysis_request(who, played.pk, address="10.39.0.2")
        assert refused.value.code == code
    assert not Analysis.objects.exists()
    # the same moves imported: the guest and the new account may ask
    assert analysis_request(_guest("gosc_b"), _imported().pk, address="10.39.0.2").status == "queued"
    assert analysis_request(fresh, _imported(fresh).pk, address="10.39.0.3").status == "queued"


@pytest.mark.django_db
def test_a_few_a_day_from_one_address_and_a_stored_review_costs_nothing(alice, settings):
    settings.VISITOR_ANALYSES_PER_DAY = 2
    games = [_imported() for _ in range(4)]
    for number, game in enumerate(games[:2]):
        analysis_request(_guest(f"gosc_{number}"), game.pk, address="10.39.1.1")
    with pytest.raises(Refusal) as refused:  # a third guest of the same network
        analysis_request(_guest("gosc_2"), games[2].pk, address="10.39.1.1")
    assert refused.value.code == "analysis_visitor_cap" and refused.value.status == 429
    # a review already queued is joined for nothing; another network has its own allowance
    assert analysis_request(_guest("gosc_3"), games[0].pk, address="10.39.1.1").status == "queued"
    assert analysis_request(_guest("gosc_4"), games[2].pk, address="10.39.1.2").status == "queued"
    # an established account is not a visitor: the address's allowance is no limit of its
    assert analysis_request(alice, games[3].pk, address="10.39.1.1").status == "queued"
    assert Analysis.objects.count() == 4


@pytest.mark.django_db
def test_the_visitors_take_one_turn_together_in_the_fair_queue(alice, bob, make_user):
    """Three guests ask before two account holders: the first guest's review goes first (the
    visitors' turn), then the accounts', then the other guests' one a round."""
    base = timezone.now() - timedelta(minutes=10)
    guests = [analysis_request(_guest(f"gosc_{n}"), _imported().pk, address=f"10.39.2.{n}") for n in range(3)]
    accounts = [analysis_request(who, _imported().pk) for who in (alice, bob)]
    for minutes, analysis in enumerate([*guests, *accounts]):
        Analysis.objects.filter(pk=analysis.pk).update(requested_at=base + timedelta(minutes=minutes))
    expected = [guests[0], accounts[0], accounts[1], guests[1], guests[2]]
    assert [queue_position(Analysis.objects.get(pk=a.pk)) for a in expected] == [1, 2, 3, 4, 5]
    order = []
    for analysis in [*guests, *accounts]:  # the tokens come in the order asked
        assert analysis_run(analysis.pk) is True
        order += [
            pk
            for pk in Analysis.objects.filter(status=Analysis.Status.DONE)
            .order_by("started_at")
            .values_list("pk", flat=True)
            if pk not in order
        ]
    assert order == [a.pk for a in expected]
    # now served: alice asks again, and so does a guest; the lane was served after alice, so alice first
    again = analysis_request(alice, _imported().pk)
    later = analysis_request(_guest("gosc_9"), _imported().pk, address="10.39.2.9")
    assert (queue_position(again), queue_position(later)) == (1, 2)


@pytest.mark.django_db
def test_an_account_asking_for_a_guests_queued_review_takes_it_into_its_own_turn(alice, bob):
    crowd = [analysis_request(_guest(f"gosc_{n}"), _imported().pk, address=f"10.39.3.{n}") for n in range(2)]
    wanted = Analysis.objects.get(pk=crowd[1].pk)
    assert queue_position(wanted) == 2  # the visitors' second: behind everyone
    analysis_request(bob, finished_match(alice, bob, [3, 3, 2, 4, 1], C4).pk)
    assert queue_position(Analysis.objects.get(pk=wanted.pk)) == 3
    taken = analysis_request(alice, wanted.match_id)
    assert taken.pk == wanted.pk and taken.requested_by == alice
    assert queue_position(taken) == 2  # a turn of alice's own, asked second: before bob's


@pytest.mark.django_db
def test_no_review_of_an_imported_copy_of_a_live_rated_position_for_a_visitor(client, alice, bob):
    live = match_create(variant=C4, pink_id=alice.pk, blue_id=bob.pk, rated=True)
    columns = [0, 1, 2, 3, 4, 5, 6, 0, 1, 2]  # past the exempt opening
    for ply, column in enumerate(columns):
        match_play(match_id=live.pk, user_id=(alice if ply % 2 == 0 else bob).pk, ply=ply, action=column)
    imported = client.post("/import/", {"text": json.dumps({"game": "connect4", "moves": [c + 1 for c in columns]})})
    copy_id = int(imported["Location"].split("/")[2])
    answer = client.post(reverse("record_analysis", args=[copy_id]), follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "stands in a rated game being played right now" in answer.content.decode()
    assert not Analysis.objects.exists()
    # the rated game moves on: the copy's last position no longer stands, the review is taken
    match_play(match_id=live.pk, user_id=alice.pk, ply=len(columns), action=3)
    client.post(reverse("record_analysis", args=[copy_id]))
    assert Analysis.objects.get().match_id == copy_id


@pytest.mark.django_db(transaction=True)
async def test_a_record_page_of_anyone_follows_the_review_over_the_site_socket():
    imported = await database_sync_to_async(_imported)()
    asked = await database_sync_to_async(analysis_request)(await database_sync_to_async(_guest)("gosc_ws"), imported.pk)
    ws = await connect()  # a visitor not logged in: a watcher's socket
    assert (await ws.receive_json_from(timeout=5)) == {"type": "hello", "user": None}
    await ws.send_json_to({"type": "watch_analysis", "match": imported.pk})
    now = await frame_of(ws, "analysis")
    assert (now["match"], now["status"], now["queue"]) == (imported.pk, "queued", 1)
    assert await database_sync_to_async(analysis_run)(asked.pk) is True
    statuses: list[str] = []
    while not statuses or statuses[-1] != "done":
        statuses.append((await frame_of(ws, "analysis", timeout=30))["status"])
    assert statuses[0] == "running"
    await ws.send_json_to({"type": "watch_analysis", "match": "1"})
    await error(ws, "bad_frame")
    await ws.disconnect()
