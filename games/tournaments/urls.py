"""The arenas' addresses (included by games/urls.py, names without a namespace)."""

from django.urls import path, register_converter

from kropki_site.lib.pathids import RowIdConverter

from . import views
from .swiss import views as swiss_views

# Ids beyond 64 bits: a 404, never a query the database refuses (kropki_site/lib/pathids.py).
register_converter(RowIdConverter, "rowid")

urlpatterns = [
    path("turnieje/", views.tournament_list, name="tournaments"),
    path("turnieje/nowy/", views.tournament_new, name="tournament_new"),
    path("turnieje/<rowid:tournament_id>/", views.tournament_page, name="tournament"),
    path("turnieje/<rowid:tournament_id>/dolacz/", views.tournament_join_view, name="tournament_join"),
    path("turnieje/<rowid:tournament_id>/wycofaj/", views.tournament_withdraw_view, name="tournament_withdraw"),
    path("turnieje/szwajcarskie/", swiss_views.swiss_list, name="swiss_list"),
    path("turnieje/szwajcarskie/nowy/", swiss_views.swiss_new, name="swiss_new"),
    path("turnieje/szwajcarski/<rowid:tournament_id>/", swiss_views.swiss_page, name="swiss"),
    path("turnieje/szwajcarski/<rowid:tournament_id>/stan/", swiss_views.swiss_state, name="swiss_state"),
    path("turnieje/szwajcarski/<rowid:tournament_id>/dolacz/", swiss_views.swiss_join_view, name="swiss_join"),
    path("turnieje/szwajcarski/<rowid:tournament_id>/wycofaj/", swiss_views.swiss_withdraw_view, name="swiss_withdraw"),
    path("partia/<rowid:match_id>/berserk/", views.berserk_view, name="berserk"),
]
