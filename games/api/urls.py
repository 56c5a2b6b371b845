"""``/api/…`` (docs/api.md)."""

from django.urls import path

from . import streams, views

urlpatterns = [
    path("account", views.account, name="api_account"),
    path("stream/event", streams.event_stream, name="api_event_stream"),
    path("challenge/<int:challenge_id>/accept", views.challenge_accept, name="api_challenge_accept"),
    path("challenge/<int:challenge_id>/decline", views.challenge_decline, name="api_challenge_decline"),
    path("challenge/<int:challenge_id>/cancel", views.challenge_cancel, name="api_challenge_cancel"),
    path("challenge/<username:username>", views.challenge_create, name="api_challenge_create"),
    path("bot/account/upgrade", views.upgrade, name="api_bot_upgrade"),
    path("bot/game/stream/<int:match_id>", streams.game_stream, name="api_game_stream"),
    path("bot/game/<int:match_id>/move/<str:action>", views.move, name="api_move"),
    path("bot/game/<int:match_id>/end", views.end, name="api_end"),
    path("bot/game/<int:match_id>/resign", views.resign, name="api_resign"),
    path("bot/game/<int:match_id>/draw/<str:answer>", views.draw, name="api_draw"),
    # Any other address under /api/: a JSON 404, not the site's page.
    path("", views.not_found, name="api_root"),
    path("<path:rest>", views.not_found, name="api_not_found"),
]
