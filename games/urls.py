from django.urls import path

from . import computer_views, match_views, rules_views, views

urlpatterns = [
    path("", rules_views.home, name="home"),
    path("zasady/", rules_views.rules_index, name="rules_index"),
    path("zasady/<slug:slug>/", rules_views.rules, name="rules"),
    path("graj/", views.lobby, name="lobby"),
    path("graj/komputer/", computer_views.play_computer, name="play_computer"),
    path("partia/<int:match_id>/", match_views.match_page, name="match"),
    path("wyzwanie/", match_views.challenge_new, name="challenge_new"),
    path("wyzwanie/<str:token>/", match_views.challenge_page, name="challenge"),
    path("wyzwanie/<str:token>/przyjmij/", match_views.challenge_accept_view, name="challenge_accept"),
    path("wyzwanie/<str:token>/anuluj/", match_views.challenge_cancel_view, name="challenge_cancel"),
    path("wyzwanie/<str:token>/stan/", match_views.challenge_status, name="challenge_status"),
]
