from django.urls import path

from . import views

urlpatterns = [
    path("", views.ranking, name="ranking"),
    path("<slug:variant>/", views.ranking, name="ranking_variant"),
]
