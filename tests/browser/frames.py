"""Waiting on what a page has done, not on the clock (docs/protocol.md "Test hooks").

static/js/socket.js counts, per socket ("match", "site"), the frames the page has handled
(``handled``: once its handler returned) and sent (``sent``), in all and by type. A test
reads a count before an action, then waits for it to pass that value: the frame that could
have changed what it asserts has been handled, so an assertion that nothing changed means
something. A press that must not play shows it by the ``move`` frames sent staying put.
"""

from __future__ import annotations

COUNT = """([socket, kind, type]) => {
    const counts = (window.kropkiFrames || {})[socket];
    return counts ? counts[kind][type] || 0 : 0;
}"""


def frames(page, type: str = "all", socket: str = "match") -> int:
    """How many frames (of ``type``) the page's ``socket`` has handled so far."""
    return int(page.evaluate(COUNT, [socket, "handled", type]))


def sent(page, type: str = "all", socket: str = "match") -> int:
    """How many frames (of ``type``) the page has sent on its ``socket`` so far."""
    return int(page.evaluate(COUNT, [socket, "sent", type]))


def wait_frames(page, after: int, type: str = "all", socket: str = "match", timeout: float = 10_000) -> int:
    """Wait until the page's ``socket`` has handled more than ``after`` frames (of ``type``);
    return the count. ``after=0`` on a freshly loaded page: its first such frame."""
    page.wait_for_function(
        f"([socket, type, after]) => ({COUNT})([socket, 'handled', type]) > after",
        arg=[socket, type, after],
        timeout=timeout,
    )
    return frames(page, type, socket)
