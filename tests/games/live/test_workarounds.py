"""games/live/workarounds.py: the framework internals the sockets lean on are still there.

Pinned to the versions the workarounds were read against: an upgrade of channels,
asgiref, daphne, Django or Twisted fails the first test, which says to re-read the
module (its other checks below tell what changed) and then move ``CHECKED_WITH`` on.
No database, no Redis.
"""

from __future__ import annotations

import inspect
from functools import partial
from importlib.metadata import version
from importlib.util import find_spec
from pathlib import Path
from types import SimpleNamespace

import pytest
from channels.consumer import AsyncConsumer
from django.db.backends.base.base import BaseDatabaseWrapper

from games.live import workarounds


@pytest.mark.parametrize("package", sorted(workarounds.CHECKED_WITH))
def test_the_installed_version_is_the_one_the_workarounds_were_checked_with(package):
    assert version(package) == workarounds.CHECKED_WITH[package], (
        f"{package} is not the version games/live/workarounds.py was checked with: re-read each "
        "workaround against it (the tests below), then update CHECKED_WITH"
    )


def test_channels_own_dispatch_still_closes_old_connections_before_each_message():
    """Else our dispatch is no longer needed (and channels' may be used again)."""
    assert "aclose_old_connections" in inspect.getsource(AsyncConsumer.dispatch)


async def test_our_dispatch_calls_the_handler_channels_would():
    heard = []

    class Consumer:
        async def websocket_receive(self, message):
            heard.append(message)

    await workarounds.dispatch(Consumer(), {"type": "websocket.receive", "text": "x"})
    assert heard == [{"type": "websocket.receive", "text": "x"}]
    with pytest.raises(ValueError, match=r"No handler for message type websocket\.nothing"):
        await workarounds.dispatch(Consumer(), {"type": "websocket.nothing"})


def test_a_connection_without_close_at_is_not_obsolete_for_django():
    assert "close_at" in inspect.getsource(BaseDatabaseWrapper.close_if_unusable_or_obsolete)
    conn = SimpleNamespace(close_at=123.0)
    workarounds.keep_connection(conn)  # type: ignore[arg-type]
    assert conn.close_at is None


def source(module: str) -> str:
    """A module's text, read without importing it (daphne.server installs a Twisted reactor)."""
    spec = find_spec(module)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).read_text()


def test_daphne_still_hands_the_application_a_partial_of_handle_reply_over_twisteds_buffer():
    assert "send=partial(self.handle_reply, protocol)" in source("daphne.server")
    twisted = source("twisted.internet.abstract")
    assert all(f"self.{name} = " in twisted for name in ("dataBuffer", "offset", "_tempDataLen"))


def test_unsent_bytes_reads_the_buffer_and_is_none_for_any_other_send():
    transport = SimpleNamespace(dataBuffer=b"x" * 100, offset=30, _tempDataLen=5)
    send = partial(lambda protocol, message: None, SimpleNamespace(transport=transport))
    assert workarounds.unsent_bytes(send) == 75
    assert workarounds.unsent_bytes(lambda message: None) is None
    assert workarounds.unsent_bytes(partial(print, SimpleNamespace(transport=SimpleNamespace()))) is None


def test_drop_connection_aborts_the_transport_and_is_false_for_any_other_send():
    aborted = []
    transport = SimpleNamespace(abortConnection=lambda: aborted.append(True))
    assert workarounds.drop_connection(partial(lambda protocol, message: None, SimpleNamespace(transport=transport)))
    assert aborted == [True]
    assert not workarounds.drop_connection(lambda message: None)
