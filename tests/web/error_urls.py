"""The site's URLs plus views that fail on purpose, for tests/web/test_error_pages.py."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.urls import path

from kropki_site.urls import urlpatterns as site_urlpatterns


def broken(request):
    raise RuntimeError("a bug")


def forbidden(request):
    raise PermissionDenied


def bad(request):
    raise SuspiciousOperation("a malformed request")


urlpatterns = [
    path("test-500/", broken),
    path("test-403/", forbidden),
    path("test-400/", bad),
    *site_urlpatterns,
]
