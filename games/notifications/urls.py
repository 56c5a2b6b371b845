"""Notifications' addresses, included by games/urls.py."""

from django.urls import path

from . import views

urlpatterns = [
    path("powiadomienia/", views.notifications, name="notifications"),
    path("powiadomienia/ustawienia/", views.notification_settings, name="notification_settings"),
    path("powiadomienia/wypisz/<str:token>/", views.unsubscribe, name="notifications_unsubscribe"),
    path("powiadomienia/push/", views.push_subscribe, name="push_subscribe"),
    path("powiadomienia/push/usun/", views.push_unsubscribe, name="push_unsubscribe"),
]
