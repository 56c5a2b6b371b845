"""The arenas' addresses (included by games/urls.py, names without a namespace)."""

from django.urls import path

from . import views

urlpatterns = [
    path("turnieje/", views.tournament_list, name="tournaments"),
    path("turnieje/nowy/", views.tournament_new, name="tournament_new"),
    path("turnieje/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("turnieje/<int:tournament_id>/dolacz/", views.tournament_join_view, name="tournament_join"),
    path("turnieje/<int:tournament_id>/wycofaj/", views.tournament_withdraw_view, name="tournament_withdraw"),
    path("partia/<int:match_id>/berserk/", views.berserk_view, name="berserk"),
]
