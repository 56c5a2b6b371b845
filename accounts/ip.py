"""The visitor's IP address: THE one place that decides it (log-in throttling,
password-reset and guest rate limits all key on it).

``REMOTE_ADDR`` is the peer that opened the connection. Behind the nginx of
docs/deploy.md that peer is nginx itself (127.0.0.1 for everyone), so with
``BEHIND_PROXY=1`` the address comes from ``X-Forwarded-For``, which that nginx
overwrites with ``$remote_addr``. Without ``BEHIND_PROXY`` the header is
ignored: anyone can send it.

An IPv6 visitor is counted by its /64 (one customer's network: a host picks
any of its 2**64 addresses at will), returned as that network's first address
so it is still a valid IP for django-axes' ``GenericIPAddressField``.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.http import HttpRequest

UNKNOWN = "0.0.0.0"


def _parse(value: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not value:
        return None
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_ip(request: HttpRequest) -> str:
    """The client's address (an IPv6 one as its /64) as a string; never None."""
    meta = request.META
    return _client_ip(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR", ""))


def client_ip_from_scope(scope: dict[str, Any]) -> str:
    """The same for an ASGI scope (a WebSocket's): its ``client`` and headers."""
    client = scope.get("client") or (None, 0)
    forwarded = b", ".join(value for name, value in scope.get("headers") or () if name.lower() == b"x-forwarded-for")
    return _client_ip(client[0], forwarded.decode("latin-1"))


def _client_ip(remote_addr: str | None, forwarded: str) -> str:
    address = None
    if getattr(settings, "BEHIND_PROXY", False) and forwarded:
        # The right-most entry is the one our proxy wrote (it overwrites the
        # header; one that appends puts the real peer last, after anything the
        # client sent).
        address = _parse(forwarded.rsplit(",", 1)[-1])
    if address is None:
        address = _parse(remote_addr)
    if address is None:
        return UNKNOWN
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False).network_address)
    return str(address)
