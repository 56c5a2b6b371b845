"""The chat at the table in real browsers (docs/social.md "Chat"): alice and bob play,
charlie watches, each in a Chromium context of their own, through a real daphne and
Redis. The players chat, the spectator sees only the spectators' chat, a reload keeps
the history, markup stays text, mute and report work, and moves go on meanwhile."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.frames import frames, wait_frames
from tests.browser.test_match_browser import at_ply, click, open_match, shot
from tests.live_play.conftest import create_match

MARKUP = "Powodzenia! <b>pogrubione</b><img src=x onerror=alert(1)> https://evil.example"


def lines(page):
    return page.get_by_test_id("chat-lines").locator("li")


def say(page, text: str) -> None:
    page.get_by_test_id("chat-text").fill(text)
    page.get_by_test_id("chat-text").press("Enter")


def test_players_chat_spectators_apart_history_mute_and_report(new_context, live_url, live_site):
    data = create_match(live_site, "cztery-w-rzedzie")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    charlie = open_match(new_context, live_url, data["match"], data["charlie"], viewport={"width": 360, "height": 740})
    dialogs = []

    def on_dialog(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    for page in (alice, bob, charlie):
        page.on("dialog", on_dialog)
        expect(page.get_by_test_id("chat-empty")).to_be_visible()
    expect(alice.get_by_test_id("chat")).to_have_attribute("data-room", "players")
    expect(charlie.get_by_test_id("chat")).to_have_attribute("data-room", "spectators")
    assert charlie.get_by_test_id("chat-phrase").count() == 0

    # the counter counts as the user types; the players chat
    alice.get_by_test_id("chat-text").fill("abc")
    expect(alice.get_by_test_id("chat-count")).to_have_text("3 z 140 znaków")
    say(alice, MARKUP)
    expect(alice.get_by_test_id("chat-text")).to_have_value("")
    for page in (alice, bob):
        expect(lines(page)).to_have_count(1)
        expect(lines(page).first.locator(".chat-text")).to_have_text(MARKUP)  # as text: no <b>, no <img>
        assert page.get_by_test_id("chat-lines").locator("b, img, a").count() == 0
    expect(bob.get_by_test_id("chat-announce")).to_have_text(f"alice: {MARKUP}")
    bob.get_by_test_id("chat-phrase").filter(has_text="Dobra partia!").click()
    expect(lines(alice)).to_have_count(2)
    expect(lines(alice).nth(1)).to_contain_text("bob: Dobra partia!")

    # the spectators' room is apart from the players'
    say(charlie, "Ciekawa partia")
    expect(lines(charlie)).to_have_count(1)
    expect(lines(charlie).first).to_contain_text("charlie: Ciekawa partia")
    expect(charlie.get_by_text("Dobra partia!")).to_have_count(0)
    expect(charlie.get_by_text("pogrubione")).to_have_count(0)
    for page in (alice, bob):
        expect(page.get_by_text("Ciekawa partia")).to_have_count(0)
    # 360 px: nothing sticks out sideways
    assert charlie.evaluate("document.documentElement.scrollWidth") <= 360

    # moves go on beside the chat
    click(alice, 3)
    for page in (alice, bob, charlie):
        at_ply(page, 1)

    # a reload keeps the history (the chat_history frame after the state)
    bob.reload()
    expect(lines(bob)).to_have_count(2)
    expect(lines(bob).first.locator(".chat-text")).to_have_text(MARKUP)
    charlie.reload()
    expect(lines(charlie)).to_have_count(1)
    expect(charlie.get_by_text("Dobra partia!")).to_have_count(0)

    # a too long line is refused with words by the chat and nothing else happens
    alice.evaluate("document.getElementById('chat-text').removeAttribute('maxlength')")
    say(alice, "x" * 141)
    expect(alice.get_by_test_id("chat-error")).to_have_text(re.compile("140 znaków"))
    expect(alice.get_by_test_id("error")).to_have_text("")
    expect(lines(bob)).to_have_count(2)

    # mute, kept over a reload
    bob.get_by_test_id("chat-mute").check()
    expect(bob.get_by_test_id("chat-lines")).to_be_hidden()
    expect(bob.get_by_test_id("chat-muted")).to_be_visible()
    bob.reload()
    expect(bob.get_by_test_id("chat-mute")).to_be_checked()
    expect(bob.get_by_test_id("chat-lines")).to_be_hidden()
    # the reloaded page's socket is open and has its history: a line said now comes as a "chat"
    # frame (said before it opened, the line would come inside the history and no frame would)
    wait_frames(bob, after=0, type="chat_history")
    chats = frames(bob, "chat")
    say(alice, "Halo?")
    expect(lines(alice)).to_have_count(3)
    wait_frames(bob, after=chats, type="chat")  # the line reached bob's muted page: not said
    expect(bob.get_by_test_id("chat-announce")).not_to_have_text(re.compile("Halo"))
    bob.get_by_test_id("chat-mute").uncheck()
    expect(lines(bob)).to_have_count(3)

    # report bob's line, by keyboard
    report = lines(alice).nth(1).get_by_test_id("chat-report-line")
    expect(report).to_have_attribute("aria-label", "Zgłoś wiadomość od bob")
    assert lines(alice).first.get_by_test_id("chat-report-line").count() == 0  # not one's own line
    report.focus()
    alice.keyboard.press("Enter")
    expect(alice.get_by_test_id("chat-report")).to_be_visible()
    alice.get_by_test_id("chat-report-reason").fill("test")
    shot(alice, "chat-report")
    alice.get_by_test_id("chat-report-send").click()
    # Sent: the dialog closes (it cannot be sent twice), the thanks stay in the panel and the
    # focus is back on the flag that opened it (issue 25 item 14).
    expect(alice.get_by_test_id("chat-report")).to_be_hidden()
    expect(alice.get_by_test_id("chat-report-done")).to_have_text(re.compile("Dziękujemy"))
    expect(report).to_be_focused()
    shot(charlie, "chat-spectator-360")
    assert not dialogs
    assert live_site.call("reports_count")["count"] == 1
