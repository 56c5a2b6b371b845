"""What a fair-play mark does (docs/fairplay.md "Marks, refunds and the moderation page"): the
account leaves the leaderboards and the arenas' standings and pairing, every rated path refuses
it with ``fair_play_marked`` (the API with 403), casual play stays open, its profile says so,
and a lifted mark gives it all back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from accounts.tokens import token_create
from games.fairplay import services
from games.models import Match, Seek
from games.play import match_offer_rematch
from games.play.challenges import challenge_accept, challenge_create, challenge_direct_create
from games.play.matchmaking import seek_create
from games.tournaments import selectors as arena_reads
from games.tournaments.models import Tournament, TournamentPlayer
from games.tournaments.services import tournament_join, tournaments_pair
from kropki_site.lib.refusals import Refusal
from ratings.selectors import leaderboard
from tests.games.play.test_tournaments import arena as running_arena
from tests.helpers import C4

pytestmark = pytest.mark.django_db


def refused(call) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call()
    assert caught.value.code == "fair_play_marked"
    return caught.value


def test_a_marked_account_leaves_the_leaderboard_and_comes_back_when_lifted(
    client, make_user, alice, bob, staff, rated_game
):
    cheat = make_user("cheat")
    rated_game(cheat, alice)
    rated_game(bob, alice)
    assert {r.user.username for r in leaderboard(C4)} == {"cheat", "alice", "bob"}

    services.mark(cheat.pk, "engine", staff, "engine")
    assert {r.user.username for r in leaderboard(C4)} == {"alice", "bob"}
    page = client.get(f"/ranking/{C4}/").content.decode()
    assert "bob" in page and "cheat" not in page

    services.lift(cheat.pk, staff, "appeal")
    assert "cheat" in {r.user.username for r in leaderboard(C4)}


def test_a_marked_account_leaves_the_arena_standings_and_is_never_paired(client, make_user, alice, bob, charlie, staff):
    arena = running_arena()
    cheat = make_user("cheat")
    for user in (cheat, alice, bob, charlie):
        tournament_join(tournament_id=arena.pk, user=user)
    TournamentPlayer.objects.filter(tournament=arena, user=cheat).update(points=10)  # on top before the mark
    page = reverse("tournament", args=[arena.pk])
    assert ">cheat<" in client.get(page).content.decode()  # and the page's standings are cached now

    services.mark(cheat.pk, "engine", staff, "engine")

    assert ">cheat<" not in client.get(page).content.decode()  # drawn again at the mark

    names = [line[1] for line in arena_reads.standings_lines(arena)]
    assert "cheat" not in names and set(names) == {"alice", "bob", "charlie"}
    assert arena_reads.player_count(arena) == 3
    assert "cheat" not in [name for name, _last in arena_reads.free_lines(arena)]
    matches = tournaments_pair()
    assert matches and all(cheat.pk not in (m.pink_id, m.blue_id) for m in matches)
    refused(lambda: tournament_join(tournament_id=arena.pk, user=cheat))

    Tournament.objects.filter(pk=arena.pk).update(ends_at=timezone.now())  # the clock reaches zero
    tournaments_pair(now=timezone.now() + timedelta(seconds=1))
    ranks = dict(TournamentPlayer.objects.filter(tournament=arena).values_list("user__username", "rank"))
    assert ranks.pop("cheat") is None and sorted(r or 0 for r in ranks.values()) == [1, 2, 3]


def test_every_rated_path_refuses_a_marked_account_and_casual_play_stays_open(make_user, alice, staff, make_match):
    cheat = make_user("cheat")
    waiting = seek_create(user=cheat, variants=[C4])
    open_rated = challenge_create(user_id=alice.pk, variant=C4, rated=True)
    services.mark(cheat.pk, "engine", staff, "engine")

    assert Seek.objects.get(pk=waiting[0].pk).status == Seek.Status.CANCELLED  # out of the queue
    refused(lambda: seek_create(user=cheat, variants=[C4]))
    refused(lambda: challenge_create(user_id=cheat.pk, variant=C4, rated=True))
    refused(lambda: challenge_accept(token=open_rated.token, user_id=cheat.pk))
    refused(lambda: challenge_direct_create(user_id=cheat.pk, target_name="alice", variant=C4, rated=True))
    # ...and a rated challenge to the marked player, in the other player's words
    with override("en"):
        to_cheat = refused(
            lambda: challenge_direct_create(user_id=alice.pk, target_name="cheat", variant=C4, rated=True)
        )
    assert "This player" in to_cheat.message
    old = make_match(pink=cheat, blue=alice, rated=True)
    Match.objects.filter(pk=old.pk).update(status=Match.Status.FINISHED)
    refused(lambda: match_offer_rematch(match_id=old.pk, user_id=alice.pk))

    # casual play stays open, as on lichess
    casual = challenge_create(user_id=cheat.pk, variant=C4, rated=False)
    match = challenge_accept(token=casual.token, user_id=alice.pk)
    assert not match.rated
    assert challenge_direct_create(user_id=cheat.pk, target_name="alice", variant=C4, rated=False)

    services.lift(cheat.pk, staff, "appeal accepted")
    assert seek_create(user=cheat, variants=[C4])


def test_the_api_refuses_a_marked_accounts_rated_challenge_with_403(client, make_user, alice, staff):
    cheat = make_user("cheat")
    secret = token_create(user=cheat, name="t", scopes=["challenge:write"])[1]
    services.mark(cheat.pk, "engine", staff, "engine")
    headers = {"Authorization": f"Bearer {secret}"}
    answer = client.post("/api/challenge/alice", data={"variant": C4, "rated": "true"}, headers=headers)
    assert answer.status_code == 403 and answer.json()["error"] == "fair_play_marked"
    casual = client.post("/api/challenge/alice", data={"variant": C4, "rated": "false"}, headers=headers)
    assert casual.status_code == 200, casual.content


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "used computer help in rated games"), ("pl", "pomocy komputera")],
)
def test_a_marked_profile_says_so_in_both_languages(client, make_user, staff, language, words):
    cheat = make_user("cheat")
    page = client.get("/gracz/cheat/", headers={"accept-language": language}).content.decode()
    assert 'data-testid="fair-play-notice"' not in page
    services.mark(cheat.pk, "engine", staff, "engine")
    page = client.get("/gracz/cheat/", headers={"accept-language": language}).content.decode()
    assert 'data-testid="fair-play-notice"' in page and 'aria-labelledby="fair-play-title"' in page
    assert words in page
    services.lift(cheat.pk, staff, "appeal")
    assert 'data-testid="fair-play-notice"' not in client.get("/gracz/cheat/").content.decode()


def test_the_data_download_has_the_mark_its_dates_and_the_refunds_not_staffs_notes(
    client, make_user, alice, staff, rated_game
):
    cheat = make_user("cheat")
    game = rated_game(cheat, alice)
    services.mark(cheat.pk, "engine", staff, "a secret detector note")
    client.force_login(alice)
    mine = client.get(reverse("account_download")).json()["fair_play"]
    assert mine["mark"] == "" and mine["decisions"] == []
    assert [(r["match"], r["variant"]) for r in mine["refunds"]] == [(game.pk, C4)] and mine["refunds"][0]["points"] > 0
    client.force_login(cheat)
    theirs = client.get(reverse("account_download"))
    data = theirs.json()["fair_play"]
    assert data["mark"] == "engine" and [d["action"] for d in data["decisions"]] == ["mark_engine"]
    assert "secret" not in theirs.content.decode() and "moderator" not in theirs.content.decode()
