"""docs/reliability.md row 11 in a real browser: a page that misses an event converges.

A spectator's page has its WebSocket routed through Playwright (``page.route_web_socket``):
every frame is forwarded both ways except the server's ``moved`` frame for ply 1, which is
dropped. When the frame for ply 2 arrives, match.js sees the gap (2 > 0 + 1), sends
``{"type": "sync"}``, gets a ``state`` and shows exactly what the players see.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from tests.live_play.conftest import create_match

from .frames import frames, sent
from .test_match_browser import at_ply, board_picture, click, open_match, until


def test_a_page_that_misses_a_move_asks_sync_and_converges(new_context, live_url, live_site):
    data = create_match(live_site, "cztery-w-rzedzie")
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])

    sent: list[dict] = []  # what the spectator's page sent
    received: list[dict] = []  # what reached it
    dropped: list[dict] = []

    def route(ws):
        server = ws.connect_to_server()

        def from_server(message):
            frame = json.loads(message)
            if frame.get("type") == "moved" and frame.get("ply") == 1 and not dropped:
                dropped.append(frame)
                return
            received.append(frame)
            ws.send(message)

        def from_page(message):
            sent.append(json.loads(message))
            server.send(message)

        server.on_message(from_server)
        ws.on_message(from_page)

    spectator = new_context().new_page()
    spectator.route_web_socket(re.compile(r"/ws/match/\d+/$"), route)
    spectator.goto(f"/partia/{data['match']}/")
    expect(spectator.locator("#match")).to_have_attribute("data-ready", "1")
    expect(spectator.locator("#conn")).to_have_attribute("data-state", "connected")
    at_ply(spectator, 0)
    syncs_at_open = sum(1 for f in sent if f.get("type") == "sync")
    assert syncs_at_open == 1  # match.js syncs on every open
    # and its answer is in before anyone moves (a late answer would carry ply 1 and hide the gap)
    until(spectator, lambda: any(f.get("type") == "state" for f in received), "the open's state")

    click(alice, 3)
    at_ply(bob, 1)
    until(spectator, lambda: dropped, "the spectator's moved frame for ply 1 (to drop)")
    assert len(dropped) == 1
    expect(spectator.locator("#match")).to_have_attribute("data-ply", "0")  # it never heard of ply 1

    click(bob, 4)
    at_ply(alice, 2)
    at_ply(spectator, 2)
    until(  # the sync round trip
        spectator, lambda: any(f.get("type") == "state" and f.get("ply") == 2 for f in received), "the state of ply 2"
    )
    assert sum(1 for f in sent if f.get("type") == "sync") == syncs_at_open + 1, sent
    assert [f["type"] for f in received if f.get("ply") == 2] == ["moved", "state"]
    # the page shows what a spectator who missed nothing sees, and the players' move list
    fresh = open_match(new_context, live_url, data["match"], None)
    at_ply(fresh, 2)
    assert board_picture(spectator) == board_picture(fresh)
    expect(spectator.locator("#moves li")).to_have_count(2)
    assert spectator.locator("#moves").inner_text() == bob.locator("#moves").inner_text()
    assert spectator.locator("#turn").inner_text() == fresh.locator("#turn").inner_text()
    assert spectator.locator("#conn").get_attribute("data-state") == "connected"


# Until window.letSocketsOpen is set, every socket the page makes (the match's and the
# site's) closes at once, as while the server is out of reach; socket.js retries with its
# backoff.
HOLD_SOCKETS = """
(() => {
  const Real = window.WebSocket;
  window.letSocketsOpen = false;
  window.heldMatchSockets = 0;  // the match sockets closed so
  window.WebSocket = function (url, protocols) {
    if (window.letSocketsOpen) return new Real(url, protocols);
    if (String(url).includes("/ws/match/")) window.heldMatchSockets += 1;
    const fake = {readyState: 3, send() { throw new Error("closed"); }, close() {}};
    setTimeout(() => fake.onclose && fake.onclose({code: 1006}), 0);
    return fake;
  };
  window.WebSocket.OPEN = Real.OPEN;
})();
"""


def test_a_move_made_before_the_socket_opens_goes_when_it_opens(new_context, live_url, live_site):
    data = create_match(live_site, "cztery-w-rzedzie")
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    context = new_context()
    context.add_cookies([{"name": data["alice"]["cookie_name"], "value": data["alice"]["cookie"], "url": live_url}])
    context.add_init_script(HOLD_SOCKETS)
    alice = context.new_page()
    alice.goto(f"/partia/{data['match']}/")
    expect(alice.locator("#match")).to_have_attribute("data-ready", "1")
    expect(alice.locator("#conn")).not_to_have_attribute("data-state", "connected")

    bob_frames = frames(bob, "moved")
    click(alice, 3)  # the socket is not open: the move waits, and the page says so
    expect(alice.get_by_test_id("error")).to_contain_text("ruch")
    # alice's page tries its match socket once more (the back-off: up to 8 s): the move still waits
    held = alice.evaluate("window.heldMatchSockets")
    alice.wait_for_function("(n) => window.heldMatchSockets > n", arg=held, timeout=15_000)
    expect(alice.get_by_test_id("error")).to_contain_text("ruch")
    assert sent(alice) == 0
    at_ply(alice, 0)
    at_ply(bob, 0)
    assert frames(bob, "moved") == bob_frames

    alice.evaluate("window.letSocketsOpen = true")
    expect(alice.locator("#conn")).to_have_attribute("data-state", "connected", timeout=15_000)
    at_ply(alice, 1)
    at_ply(bob, 1)
    assert sent(alice, "move") == 1  # the waiting move, once
    expect(alice.get_by_test_id("error")).to_be_empty()
