"""Puzzles' addresses, included by games/urls.py."""

from django.urls import path

from . import views

urlpatterns = [
    path("zadania/", views.index, name="puzzles"),
    path("zadania/gra/<slug:game>/", views.next_puzzle, name="puzzles_next"),
    path("zadania/<int:puzzle_id>/", views.puzzle, name="puzzle"),
]
