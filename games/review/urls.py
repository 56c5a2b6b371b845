"""The review's address, included by games/urls.py."""

from django.urls import path

from . import views

urlpatterns = [
    path("partia/<int:match_id>/analiza/", views.record_analysis, name="record_analysis"),
    path("analiza/<slug:variant>/", views.analysis_board, name="analysis_board"),
    path("analiza/<slug:variant>/edytor/", views.position_editor, name="position_editor"),
]
