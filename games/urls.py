from django.urls import path

from . import computer_views, lobby_views, match_views, profile_views, record_views, rules_views

urlpatterns = [
    path("", rules_views.home, name="home"),
    path("zasady/", rules_views.rules_index, name="rules_index"),
    path("zasady/<slug:slug>/", rules_views.rules, name="rules"),
    path("faq/", rules_views.faq, name="faq"),  # one address in both languages, like every page
    path("graj/", lobby_views.lobby, name="lobby"),
    path("graj/lista/", lobby_views.lobby_lists, name="lobby_lists"),
    path("graj/kolejka/", lobby_views.queue_page, name="queue"),
    path("graj/kolejka/dolacz/", lobby_views.queue_join, name="queue_join"),
    path("graj/kolejka/anuluj/", lobby_views.queue_cancel, name="queue_cancel"),
    path("graj/kolejka/stan/", lobby_views.queue_status, name="queue_status"),
    path("gracz/<str:username>/", profile_views.profile, name="profile"),
    path("partia/<int:match_id>/zapis/", record_views.record, name="record"),
    path("partia/<int:match_id>/zapis/klatka/<int:ply>/", record_views.record_frame, name="record_frame"),
    path("partia/<int:match_id>/eksport.json", record_views.export_json, name="export_json"),
    path("partia/<int:match_id>/eksport.sgf", record_views.export_sgf, name="export_sgf"),
    path("graj/komputer/", computer_views.play_computer, name="play_computer"),
    path("partia/<int:match_id>/", match_views.match_page, name="match"),
    path("partia/<int:match_id>/plansza/<int:ply>/", match_views.match_board, name="match_board"),
    path("wyzwanie/", match_views.challenge_new, name="challenge_new"),
    path("wyzwanie/<str:token>/", match_views.challenge_page, name="challenge"),
    path("wyzwanie/<str:token>/przyjmij/", match_views.challenge_accept_view, name="challenge_accept"),
    path("wyzwanie/<str:token>/anuluj/", match_views.challenge_cancel_view, name="challenge_cancel"),
    path("wyzwanie/<str:token>/stan/", match_views.challenge_status, name="challenge_status"),
]
