from django.urls import path

from . import consumers

# The live-play work adds ws/match/<id>/ (and ws/lobby/) here.
websocket_urlpatterns = [
    path("ws/ping/", consumers.PingConsumer.as_asgi(), name="ws_ping"),
]
