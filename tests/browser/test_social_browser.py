"""Players meet players, in three real browsers (alice, bob, charlie) through a real daphne and
its own Redis: alice sees bob come online in the lobby, challenges him from his profile, bob
(on the rules page, on a phone-sized screen) gets the notification and accepts by keyboard,
both land in the match; bob blocks alice and she can no longer challenge him; charlie challenges
alice from the lobby's online list and, left unanswered, it expires on both screens; a player
follows another from the profile and the page of players followed links the game being played,
in Polish then in English, on a phone (docs/social.md)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import live
from tests.browser.frames import wait_frames
from tests.browser.test_match_browser import shot

EXPIRY_SECONDS = 6


@pytest.fixture(scope="module")
def social_site():
    # A Redis of its own: presence is per Redis.
    with live.own_site("social", DIRECT_CHALLENGE_SECONDS=str(EXPIRY_SECONDS), MOVE_SECONDS="60") as site:
        _proc, url = site.start_daphne(name="daphne-social")
        # notices reach their players through beat's delivery, on the notify worker (games/notifications)
        site.start_worker(queues="notify", name="notify-worker")
        site.start_beat()
        users = site.call("players_signed_in", names=["alice", "bob", "charlie"])
        yield url, users, site


def as_user(browser, url, user, **kwargs):
    kwargs.setdefault("locale", "pl-PL")
    context = browser.new_context(base_url=url, service_workers="block", **kwargs)
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": user["cookie_name"], "value": user["cookie"], "url": url}])
    return context


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def connected(page) -> None:
    expect(page.locator("html")).to_have_attribute("data-site", "connected")


def test_online_list_direct_challenge_block_and_expiry(browser, social_site):
    url, users, _site = social_site
    contexts = [
        as_user(browser, url, users["alice"]),
        as_user(browser, url, users["bob"], viewport={"width": 360, "height": 740}),
        as_user(browser, url, users["charlie"]),
    ]
    try:
        alice, bob, charlie = (c.new_page() for c in contexts)

        # alice, in the lobby, sees bob come online (pushed, no reload)
        alice.goto("/graj/")
        connected(alice)
        online = alice.get_by_test_id("online-list")
        wait_frames(alice, after=0, type="online", socket="site")  # the list as it is: bob is not on it
        expect(online.get_by_role("link", name="bob", exact=True)).to_have_count(0)
        bob.goto("/zasady/")
        connected(bob)
        expect(online.get_by_role("link", name="bob", exact=True)).to_be_visible()
        expect(online.locator("li", has_text="bob")).to_contain_text("1500?")
        expect(online.locator("li", has_text="bob").get_by_test_id("online-challenge")).to_be_visible()
        expect(online.locator("li", has_text="alice").get_by_test_id("online-challenge")).to_have_count(0)
        shot(alice, "social-lobby-online")

        # alice challenges bob from his profile, with a setting of the game (SPEC.md "Kropki:
        # options": only the chosen game's show); he is told on the rules page
        alice.goto("/gracz/bob/")
        connected(alice)
        expect(alice.get_by_test_id("presence")).to_have_text("online")
        alice.get_by_test_id("dc-variant").select_option("cztery-w-rzedzie")
        expect(alice.get_by_test_id("options-kropki")).to_be_hidden()
        alice.get_by_test_id("dc-variant").select_option("kropki-10")
        alice.get_by_test_id("opt-kropki-margin").select_option("15")
        alice.get_by_test_id("dc-colour").select_option("pink")
        alice.get_by_test_id("direct-challenge").click()
        expect(alice.get_by_test_id("challenge-waiting")).to_contain_text("bob")
        expect(alice.get_by_test_id("challenge-waiting")).to_contain_text("Wygrana przewagą: przewaga 15")
        notice = bob.get_by_test_id("challenge-notice")
        expect(notice).to_contain_text("alice wyzywa Cię na partię")
        expect(notice).to_contain_text("Wygrana przewagą: przewaga 15")
        expect(notice).to_contain_text("grasz niebieskimi")
        expect(bob.get_by_test_id("site-notices")).to_have_attribute("aria-live", "polite")
        expect(bob).to_have_title(re.compile("^Wyzwanie!"))
        shot(bob, "social-notice-360")
        no_sideways_scroll(bob)
        box = notice.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        # by keyboard: the notices come first in the tab order (after "skip to content")
        bob.keyboard.press("Tab")
        bob.keyboard.press("Tab")
        expect(notice.get_by_test_id("challenge-accept")).to_be_focused()
        bob.keyboard.press("Enter")
        for page in (alice, bob):
            page.wait_for_url(re.compile(r"/partia/\d+/$"))
        assert alice.url == bob.url
        expect(bob.locator("#match")).to_have_attribute("data-ready", "1")
        expect(bob.get_by_test_id("match-options")).to_have_text("Wygrana przewagą: przewaga 15")

        # bob blocks alice: she can no longer challenge him
        bob.goto("/gracz/alice/")
        no_sideways_scroll(bob)
        shot(bob, "social-profile-360")
        bob.get_by_test_id("block").click()
        expect(bob.get_by_test_id("unblock")).to_be_visible()
        expect(bob.get_by_test_id("blocked-note")).to_be_visible()
        alice.goto("/gracz/bob/")
        connected(alice)
        alice.get_by_test_id("direct-challenge").click()
        error = alice.get_by_test_id("site-error")
        expect(error).to_have_attribute("data-code", "blocked")
        expect(error).to_contain_text("Nie możesz wyzwać tej osoby")
        expect(alice.get_by_test_id("challenge-waiting")).to_have_count(0)

        # charlie challenges alice from the lobby's online list; she does not answer: it expires on both screens
        charlie.goto("/graj/")
        connected(charlie)
        charlie.get_by_test_id("online-variant").select_option("kropki-10")
        charlie.get_by_test_id("online-list").locator("li", has_text="alice").get_by_test_id("online-challenge").click()
        waiting = charlie.get_by_test_id("challenge-waiting")
        incoming = alice.get_by_test_id("challenge-notice")
        expect(incoming).to_contain_text("charlie")
        expect(incoming).to_contain_text("Kropki 10×10")
        for card in (waiting, incoming):
            expect(card).to_have_attribute("data-state", "expired", timeout=(EXPIRY_SECONDS + 10) * 1000)
            expect(card).to_contain_text("Wyzwanie wygasło bez odpowiedzi.")
    finally:
        for context in contexts:
            context.close()


def test_follow_from_the_profile_and_watch_the_game_from_the_page_of_players_followed(browser, social_site):
    url, _users, site = social_site
    people = site.call("followed_player_playing", follower="ewa", followed="filip", opponent="gosia")
    ewa_context = as_user(browser, url, people["ewa"], viewport={"width": 360, "height": 740})
    filip_context = as_user(browser, url, people["filip"])
    try:
        ewa, filip = ewa_context.new_page(), filip_context.new_page()
        ewa.goto("/obserwowani/")
        expect(ewa.get_by_test_id("following-empty")).to_be_visible()
        filip.goto("/zasady/")
        connected(filip)
        expect(filip.get_by_test_id("notify-count")).to_be_hidden()
        ewa.goto("/gracz/filip/")
        ewa.get_by_test_id("follow").click()
        expect(ewa.get_by_test_id("unfollow")).to_be_visible()
        expect(ewa.locator("body")).to_contain_text("Obserwujesz: filip.")

        # filip hears it at once (games/notifications): the header's count, a notice, the list
        expect(filip.get_by_test_id("notify-count")).to_have_text("1")
        expect(filip.get_by_test_id("notify-link")).to_have_accessible_name("Powiadomienia, nieprzeczytane: 1")
        expect(filip.get_by_test_id("site-notices")).to_contain_text("ewa obserwuje Cię.")
        filip.get_by_test_id("notify-link").click()
        expect(filip.get_by_test_id("notification")).to_have_text(re.compile("nowe ewa obserwuje Cię."))
        filip.reload()
        connected(filip)
        expect(filip.get_by_test_id("notify-count")).to_be_hidden()  # read

        # filip comes online: the page of players ewa follows links the game he is playing
        filip.goto("/zasady/")
        connected(filip)
        ewa.goto("/obserwowani/")
        watch = ewa.get_by_test_id("watch-filip")
        expect(watch).to_have_text("Gra teraz: oglądaj partię")
        no_sideways_scroll(ewa)
        watch.click()
        ewa.wait_for_url(re.compile(rf"/partia/{people['match']}/$"))
        expect(ewa.locator("#match")).to_have_attribute("data-ready", "1")

        # the same in English, after ewa picks it in the header
        ewa.goto("/obserwowani/")
        ewa.get_by_test_id("lang-en").click()
        expect(ewa.get_by_role("heading", name="Players you follow")).to_be_visible()
        expect(ewa.get_by_test_id("watch-filip")).to_have_text("Playing now: watch the game")
        ewa.get_by_test_id("unfollow-filip").click()
        expect(ewa.locator("body")).to_contain_text("You no longer follow filip.")
        ewa.goto("/obserwowani/")
        expect(ewa.get_by_test_id("following-empty")).to_be_visible()
    finally:
        ewa_context.close()
        filip_context.close()


def test_a_correspondence_challenge_by_link_and_its_clock_in_days(browser, social_site):
    """SPEC.md "Correspondence": the challenge form's days a move, the match page's pace and a
    clock in days and hours, and "My games" with the player's move first."""
    url, users, _site = social_site
    alice_context = as_user(browser, url, users["alice"])
    charlie_context = as_user(browser, url, users["charlie"], viewport={"width": 360, "height": 740})
    try:
        alice, charlie = alice_context.new_page(), charlie_context.new_page()
        alice.goto("/wyzwanie/")
        alice.get_by_test_id("variant-cztery-w-rzedzie").check()
        alice.get_by_test_id("days-3").check()
        alice.get_by_test_id("challenge-create").click()
        expect(alice.get_by_test_id("challenge-days")).to_have_text("korespondencyjnie, 3 dni na ruch")
        link = alice.get_by_test_id("challenge-link").input_value()
        charlie.goto(link)
        expect(charlie.get_by_test_id("challenge-days")).to_have_text("korespondencyjnie, 3 dni na ruch")
        charlie.get_by_test_id("challenge-accept").click()
        charlie.wait_for_url(re.compile(r"/partia/\d+/$"))
        expect(charlie.locator("#match")).to_have_attribute("data-ready", "1")
        expect(charlie.get_by_test_id("match-pace")).to_have_text("korespondencyjnie, 3 dni na ruch")
        expect(charlie.locator("#clock")).to_have_text(re.compile(r"^2 d 23 godz\.$"))
        no_sideways_scroll(charlie)
        charlie.goto("/graj/")
        charlie.get_by_test_id("my-games-link").click()
        expect(charlie.get_by_test_id("my-game")).to_have_count(1)
        expect(charlie.get_by_test_id("my-game")).to_contain_text("Cztery w rzędzie · alice")
        no_sideways_scroll(charlie)
    finally:
        alice_context.close()
        charlie_context.close()
