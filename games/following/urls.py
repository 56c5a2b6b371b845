"""Following's addresses, included by games/urls.py."""

from django.urls import path

from . import views

urlpatterns = [
    path("gracz/<username:username>/obserwuj/", views.follow, name="follow"),
    path("gracz/<username:username>/nie-obserwuj/", views.unfollow, name="unfollow"),
    path("obserwowani/", views.following, name="following"),
    path("obserwujacy/", views.followers, name="followers"),
]
