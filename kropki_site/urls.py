from django.contrib import admin
from django.urls import include, path

from accounts.views import set_language
from kropki_site import app, health

urlpatterns = [
    path("", include("games.urls")),
    path("konto/", include("accounts.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("healthz", health.healthz, name="healthz"),
    path("manifest.webmanifest", app.manifest, name="app_manifest"),
    path("sw.js", app.service_worker, name="app_service_worker"),
    path("offline/", app.offline, name="app_offline"),
    path("admin/", admin.site.urls),
]
