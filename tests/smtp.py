"""A real SMTP server for the e-mail tests: aiosmtpd on a free local port; Django's SMTP backend
sends to it, and the test reads what it received (``inbox`` fixture)."""

from __future__ import annotations

import asyncio
import email
import socket
import threading
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller


class Inbox:
    """What the SMTP server received: parsed messages, in order. A test's levers on the server:
    ``down_after`` N answers "421 closing" from the N+1st message on (a server going down
    mid-batch); ``release``, when set to an Event, holds each message until it is set
    (``holding`` tells a message is being held: a sweep is mid-batch); ``refused`` addresses are
    refused for good ("550 no such user")."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.lock = threading.Lock()
        self.down_after: int | None = None
        self.release: threading.Event | None = None
        self.holding = threading.Event()
        self.refused: set[str] = set()

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address in self.refused:
            return "550 5.1.1 No such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.down_after is not None and len(self.messages) >= self.down_after:
            return "421 Service not available, closing transmission channel"
        if self.release is not None:
            self.holding.set()
            for _ in range(1000):  # 10 s at most: a test that never releases fails, not hangs
                if self.release.is_set():
                    break
                await asyncio.sleep(0.01)
        with self.lock:
            message = email.message_from_bytes(envelope.original_content)
            message["X-Envelope-To"] = ",".join(envelope.rcpt_tos)
            self.messages.append(message)
        return "250 OK"


def body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")


@pytest.fixture
def inbox(settings: Any) -> Iterator[Inbox]:
    handler = Inbox()
    with socket.socket() as probe:  # a free port (aiosmtpd checks its server by connecting to it)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.SITE_URL = "http://testserver"
    yield handler
    controller.stop()
