from django.urls import path

from . import consumers
from .match_consumer import MatchConsumer

# The live-play work adds ws/match/<id>/ (and ws/lobby/) here.
websocket_urlpatterns = [
    path("ws/ping/", consumers.PingConsumer.as_asgi(), name="ws_ping"),
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi(), name="ws_match"),
]
