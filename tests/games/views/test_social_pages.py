"""Pages of docs/social.md: the profile's presence, challenge form and block / unblock; the
lobby's list of players online; the settings' switches; the site socket's script only for accounts."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.blocks import has_blocked
from games.live import online
from kropki_site.lib import limits

pytestmark = pytest.mark.django_db

XSS = '<img src=x onerror="alert(1)">'


def put_online(user) -> None:
    limits.client().zadd(online.sockets_key(user.pk), {"test-channel": timezone.now().timestamp() + 60})
    online.mark_online(user.pk)


def test_the_notices_only_for_accounts_and_a_watchers_socket_for_anyone_else(client, alice, make_user):
    """Issue 38: the script is on every page; for a visitor or a guest its config says ``watcher``
    (it opens a socket only on a page that follows something) and there is no notices region."""
    html = client.get(reverse("home")).content.decode()
    assert 'src="/static/js/site.js"' in html and 'id="site-notices"' not in html
    assert '"watcher": true' in html
    guest = make_user("gosc-9")
    guest.is_guest = True
    guest.save()
    client.force_login(guest)
    html = client.get(reverse("home")).content.decode()
    assert '"watcher": true' in html and 'id="site-notices"' not in html
    client.force_login(alice)
    html = client.get(reverse("rules_index")).content.decode()
    assert 'src="/static/js/site.js"' in html and 'aria-live="polite"' in html and 'id="site-config"' in html


def test_a_profile_shows_online_last_seen_and_respects_invisible(client, alice, bob):
    url = reverse("profile", args=["bob"])
    assert 'data-testid="presence"' not in client.get(url).content.decode()  # never seen
    bob.last_seen = timezone.now() - timedelta(hours=3)
    bob.save()
    html = client.get(url).content.decode()
    assert "ostatnio na stronie 3" in html
    put_online(bob)
    assert 'data-testid="presence">online<' in client.get(url).content.decode()
    bob.invisible = True
    bob.save()
    assert 'data-testid="presence"' not in client.get(url).content.decode()


def test_a_profile_links_the_game_its_player_is_playing_unless_invisible(client, alice, bob, make_match):
    """SPEC, issue 38: the profile's way to the game being played now."""
    url = reverse("profile", args=["bob"])
    assert 'data-testid="playing-now"' not in client.get(url).content.decode()
    match = make_match(pink=alice, blue=bob)
    assert 'data-testid="playing-now"' not in client.get(url).content.decode()  # offline: not "now"
    put_online(bob)
    html = client.get(url).content.decode()
    assert f'data-testid="playing-now"><a href="/partia/{match.pk}/">Gra teraz' in html
    bob.invisible = True
    bob.save()
    assert 'data-testid="playing-now"' not in client.get(url).content.decode()


def test_the_challenge_and_block_forms_are_for_another_account(client, alice, bob):
    url = reverse("profile", args=["bob"])
    assert 'data-testid="direct-challenge-form"' not in client.get(url).content.decode()  # anonymous
    client.force_login(bob)
    html = client.get(url).content.decode()  # one's own profile
    assert 'data-testid="direct-challenge-form"' not in html and 'data-testid="block"' not in html
    client.force_login(alice)
    html = client.get(url).content.decode()
    assert 'data-testid="direct-challenge-form"' in html and 'data-testid="block"' in html


def test_block_and_unblock(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("block", args=["BOB"]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("profile", args=["bob"])
    assert has_blocked(alice.pk, bob.pk)
    html = response.content.decode()
    assert 'data-testid="unblock"' in html and 'data-testid="direct-challenge-form"' not in html
    client.post(reverse("block", args=["bob"]))  # again: still one block
    client.post(reverse("unblock", args=["bob"]))
    assert not has_blocked(alice.pk, bob.pk)


def test_block_needs_an_account_a_post_and_a_real_player(client, alice):
    assert client.post(reverse("block", args=["alice"])).status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get(reverse("block", args=["alice"])).status_code == 405
    assert client.post(reverse("block", args=["nobody"])).status_code == 404
    client.post(reverse("block", args=["alice"]))
    assert not has_blocked(alice.pk, alice.pk)


def test_the_lobby_lists_players_online_escaped_and_not_the_invisible(client, alice, bob, charlie, make_user):
    odd = make_user("odd")
    type(odd).objects.filter(pk=odd.pk).update(username=XSS)
    charlie.invisible = True
    charlie.save()
    for user in (alice, bob, charlie, odd):
        put_online(user)
    html = client.get(reverse("lobby")).content.decode()
    section = html.split('data-testid="online-list"', 1)[1].split("</ul>", 1)[0]
    assert "alice" in section and "bob" in section and "charlie" not in section
    assert XSS not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in section
    assert "1500?" in section


def test_settings_store_the_switches(client, alice):
    client.force_login(alice)
    form = client.get(reverse("account_settings")).content.decode()
    assert 'name="invisible"' in form and 'name="notify_sound"' in form and 'name="notify_title"' in form
    client.post(reverse("account_settings"), {"language": "pl", "invisible": "on", "notify_title": "on"})
    alice.refresh_from_db()
    assert (alice.invisible, alice.notify_sound, alice.notify_title) == (True, False, True)
    html = client.get(reverse("account_settings")).content.decode()
    assert re.search(r'<input[^>]*name="invisible"[^>]*checked', html)
    assert not re.search(r'<input[^>]*name="notify_sound"[^>]*checked', html)


def test_the_pages_tell_site_js_the_notification_switches(client, alice):
    alice.notify_sound = False
    alice.save()
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    found = re.search(r'<script id="site-config" type="application/json">(.*?)</script>', html)
    assert found is not None
    config = json.loads(found.group(1))
    assert config["sound"] is False and config["title_flash"] is True and config["me"] == "alice"
    assert config["ws_path"] == "/ws/site/" and config["seconds"] == 60 and config["profile_prefix"] == "/gracz/"


def test_the_live_match_lists_do_not_name_an_invisible_player(make_match, alice, bob, charlie, client):
    """issue 24, item 14: the home page's and the lobby's live matches named invisible players."""
    from games import selectors

    charlie.invisible = True
    charlie.save()
    make_match("cztery-w-rzedzie")  # alice vs bob
    make_match("cztery-w-rzedzie", pink=charlie, blue=bob)
    listed = selectors.live_summary()["matches"]
    assert [(m["pink"], m["blue"]) for m in listed] == [("alice", "bob")]
    assert "charlie" not in client.get("/").content.decode()


@pytest.mark.parametrize("route", ["profile", "block", "unblock"])
def test_a_nul_in_a_players_name_is_no_such_player(client, alice, route):
    """PostgreSQL refuses a NUL in a query (the fuzz test saw a 500 on the profile): a 404."""
    client.force_login(alice)
    url = reverse(route, kwargs={"username": "alice"}).replace("alice", "ali%00ce")
    response = client.get(url) if route == "profile" else client.post(url)
    assert response.status_code == 404


def test_the_lobbys_live_matches_do_not_name_an_invisible_player(make_match, alice, bob, charlie, make_user, client):
    """Issue 37 item 10 (b): the lobby's live-match list (the page and the part it polls every 5 s)
    named invisible players; their matches are left out as on the home page."""
    from games.play import match_create

    charlie.invisible = True
    charlie.save()
    seen = make_match("cztery-w-rzedzie")  # alice vs bob
    hidden = make_match("cztery-w-rzedzie", pink=charlie, blue=bob)
    hidden_blue = make_match("cztery-w-rzedzie", pink=make_user("dorota"), blue=charlie)
    computer = match_create(variant="cztery-w-rzedzie", pink_id=None, blue_id=alice.pk, bot_level="latwy")
    for page in (client.get(reverse("lobby")), client.get(reverse("lobby_lists"))):
        html = page.content.decode()
        section = html.split('data-testid="live-matches"', 1)[1].split("</ul>", 1)[0]
        assert "charlie" not in html
        assert f'href="/partia/{seen.pk}/"' in section and f'href="/partia/{computer.pk}/"' in section
        assert f"/partia/{hidden.pk}/" not in section and f"/partia/{hidden_blue.pk}/" not in section
