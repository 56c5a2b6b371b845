"""ASGI entry point: daphne serves HTTP through Django and WebSockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")

# Initialise Django (apps, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.live.budget import AddressBudget, WhoBudget  # noqa: E402
from games.live.origin import SameOriginValidator  # noqa: E402
from games.live.socket import KeepServerSend  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": KeepServerSend(django_asgi_app),  # the API streams' unsent bytes (games/api/streams.py)
        # Handshakes on a budget per address before the session is read, then per user (games/live/budget.py).
        # The Origin: a host of ALLOWED_HOSTS, and the page's own scheme and port (games/live/origin.py).
        "websocket": KeepServerSend(
            AllowedHostsOriginValidator(
                SameOriginValidator(AddressBudget(AuthMiddlewareStack(WhoBudget(URLRouter(websocket_urlpatterns)))))
            )
        ),
    }
)
