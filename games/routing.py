"""The site's WebSocket addresses: the transport of ``games/live/`` wired to
the match desk (``games/desk.py``), which calls the services."""

from django.conf import settings
from django.urls import path, re_path

from .desk import MatchDesk
from .live import consumers
from .live.match_consumer import match_socket
from .live.site_consumer import site_socket
from .live.wsframes import NotFoundConsumer
from .site_desk import SiteDesk

websocket_urlpatterns = [
    path("ws/match/<int:match_id>/", match_socket(MatchDesk()), name="ws_match"),
    # One per tab of a logged-in page: presence and notifications (docs/protocol.md "Site socket").
    path("ws/site/", site_socket(SiteDesk()), name="ws_site"),
]
if settings.WS_PING:  # development, tests and bench/live.py only (settings.WS_PING)
    websocket_urlpatterns.insert(0, path("ws/ping/", consumers.PingConsumer.as_asgi(), name="ws_ping"))
# Last: any other path is closed with 4404 (docs/protocol.md), not a 500 from the router.
websocket_urlpatterns.append(re_path(r"", NotFoundConsumer.as_asgi(), name="ws_not_found"))
