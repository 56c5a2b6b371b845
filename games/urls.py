from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("zasady/", views.rules_index, name="rules_index"),
    path("zasady/<slug:slug>/", views.rules, name="rules"),
    path("graj/", views.lobby, name="lobby"),
    path("graj/komputer/", views.play_computer, name="play_computer"),
]
