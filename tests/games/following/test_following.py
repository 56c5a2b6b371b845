"""Following players (issue 40 item 3, docs/social.md "Following"): one way; refused for oneself,
guests, a blocked pair and past the limit; a block ends it both ways, a deleted account's follows
go; the page of players one follows shows who is online, the game they play now (a link to watch)
and their last results, and hides an invisible player's presence; who follows one; the profile's
buttons and counts; the data download's part; both languages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.blocks import block_create
from games.display.export import account_json
from games.following import services
from games.following.models import Follow
from games.following.selectors import following_of
from games.play.privacy import account_delete
from games.selectors.account import account_rows
from kropki_site.lib.refusals import Refusal
from tests.factories import finished_match
from tests.games.views.test_social_pages import put_online

pytestmark = pytest.mark.django_db


def refused(code: str, **kwargs) -> None:
    with pytest.raises(Refusal) as exc:
        services.follow(**kwargs)
    assert exc.value.code == code


def test_a_follow_is_one_way_and_made_once(alice, bob):
    services.follow(follower=alice, username="bob")
    services.follow(follower=alice, username="bob")
    assert Follow.objects.filter(follower=alice, followed=bob).count() == 1
    assert not Follow.objects.filter(follower=bob).exists()
    assert services.unfollow(follower=alice, username="bob") is True
    assert services.unfollow(follower=alice, username="bob") is False


def test_refused_for_oneself_a_guest_nobody_a_blocked_pair_and_past_the_limit(alice, bob, make_user, monkeypatch):
    refused("follow_self", follower=alice, username="alice")
    refused("follow_no_player", follower=alice, username="nikt")
    guest = make_user("gosc-1")
    guest.is_guest = True
    guest.save()
    refused("follow_account", follower=guest, username="bob")
    refused("follow_account", follower=alice, username="gosc-1")
    block_create(blocker=bob, blocked=alice)  # bob blocked alice: she cannot follow him either
    refused("follow_blocked", follower=alice, username="bob")
    refused("follow_blocked", follower=bob, username="alice")
    monkeypatch.setattr(services, "FOLLOW_LIMIT", 2)
    for name in ("p1", "p2", "p3"):
        make_user(name)
    services.follow(follower=alice, username="p1")
    services.follow(follower=alice, username="p2")
    refused("follow_limit", follower=alice, username="p3")
    assert Follow.objects.filter(follower=alice).count() == 2


def test_a_block_from_the_profile_ends_following_both_ways(client, alice, bob):
    services.follow(follower=alice, username="bob")
    services.follow(follower=bob, username="alice")
    client.force_login(bob)
    client.post(reverse("block", args=["alice"]))
    assert not Follow.objects.exists()


def test_a_deleted_account_follows_nobody_and_nobody_follows_it(alice, bob, make_user):
    carol = make_user("carol")
    services.follow(follower=alice, username="bob")
    services.follow(follower=bob, username="alice")
    services.follow(follower=carol, username="alice")
    account_delete(user_id=alice.pk)
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == []
    assert carol.follows.count() == 0


def test_the_page_shows_who_plays_now_who_is_online_and_their_last_results(client, alice, bob, make_user, make_match):
    carol, dave = make_user("carol"), make_user("dave")
    for name in ("bob", "carol", "dave"):
        services.follow(follower=alice, username=name)
    live = make_match(pink=bob, blue=dave)
    old = finished_match(carol, bob, [3, 3, 4])  # pink (carol) won by resignation
    put_online(bob)
    put_online(carol)
    rows = following_of(alice.pk)
    assert [r.user.username for r in rows] == ["bob", "carol", "dave"]  # playing now, online, then the rest
    assert rows[0].playing == live.pk and rows[1].online and rows[1].playing is None
    assert rows[2].playing is None and not rows[2].online  # dave plays, but is not online: not "now"
    assert [(r.match_id, r.result) for r in rows[0].recent] == [(old.pk, "loss")]
    assert [(r.match_id, r.result) for r in rows[1].recent] == [(old.pk, "win")]

    client.force_login(alice)
    html = client.get(reverse("following"), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'data-testid="watch-bob">Gra teraz: oglądaj partię</a>' in html
    assert f'href="/partia/{live.pk}/" data-testid="watch-bob"' in html
    assert f'<a href="/partia/{old.pk}/zapis/">przegrana, Cztery w rzędzie</a>' in html
    assert 'data-testid="watch-carol"' not in html and "online" in html

    bob.invisible = True
    bob.save()
    html = client.get(reverse("following")).content.decode()
    assert 'data-testid="watch-bob"' not in html  # an invisible player shows no presence here either

    alice.language = "en"
    alice.save()
    html = client.get(reverse("following")).content.decode()
    assert "Players you follow" in html and "lost, Four in a Row" in html


def test_the_followers_page_and_the_empty_pages(client, alice, bob):
    client.force_login(alice)
    html = client.get(reverse("following")).content.decode()
    assert 'data-testid="following-empty"' in html and "0 osób Cię obserwuje" in html
    assert 'data-testid="followers-empty"' in client.get(reverse("followers")).content.decode()
    services.follow(follower=bob, username="alice")
    html = client.get(reverse("followers")).content.decode()
    assert 'data-testid="followers-list"' in html and 'href="/gracz/bob/"' in html
    assert "1 osoba Cię obserwuje" in client.get(reverse("following")).content.decode()


def test_the_pages_need_an_account_and_the_forms_a_post(client, alice):
    assert client.get(reverse("following"))["Location"].startswith("/konto/logowanie/")
    assert client.post(reverse("follow", args=["alice"]))["Location"].startswith("/konto/logowanie/")
    client.force_login(alice)
    assert client.get(reverse("follow", args=["alice"])).status_code == 405


def test_the_profile_has_follow_and_unfollow_and_its_owner_the_counts(client, alice, bob):
    client.force_login(alice)
    url = reverse("profile", args=["bob"])
    assert 'data-testid="follow"' in client.get(url).content.decode()
    response = client.post(reverse("follow", args=["bob"]), follow=True)
    html = response.content.decode()
    assert "Obserwujesz: bob." in html and 'data-testid="unfollow"' in html
    html = client.get(reverse("profile", args=["alice"])).content.decode()
    assert 'data-testid="follow-counts"' in html and "Obserwujesz 1 osobę" in html and "0 obserwujących" in html
    assert 'data-testid="follow"' not in html  # not on one's own profile
    client.post(reverse("unfollow", args=["bob"]))
    assert 'data-testid="follow"' in client.get(url).content.decode()


def test_the_data_download_has_both_lists(alice, bob):
    services.follow(follower=alice, username="bob")
    services.follow(follower=bob, username="alice")
    part = account_json(account_rows(alice))["following"]
    assert [f["player"] for f in part["follows"]] == ["bob"]
    assert [f["player"] for f in part["followers"]] == ["bob"]
