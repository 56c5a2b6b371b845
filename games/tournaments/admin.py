"""Staff pages of the arenas: the schedule beat makes them from, and the arenas (docs/tournaments.md).
Loaded by the feature's ``register`` (games/tournaments/feature.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from .models import Tournament, TournamentSchedule

# django-stubs makes ModelAdmin generic; the running Django class is not subscriptable.
if TYPE_CHECKING:
    _ScheduleAdmin = admin.ModelAdmin[TournamentSchedule]
    _TournamentAdmin = admin.ModelAdmin[Tournament]
else:
    _ScheduleAdmin = _TournamentAdmin = admin.ModelAdmin


@admin.register(TournamentSchedule)
class TournamentScheduleAdmin(_ScheduleAdmin):
    """The rows beat makes arenas from (every minute, six hours ahead; times in Europe/Warsaw)."""

    list_display = (
        "name",
        "variant",
        "every",
        "hour",
        "minute",
        "weekday",
        "minutes",
        "move_seconds",
        "rated",
        "active",
    )
    list_editable = ("active",)
    list_filter = ("every", "active")


@admin.register(Tournament)
class TournamentAdmin(_TournamentAdmin):
    list_display = ("name", "variant", "starts_at", "minutes", "status", "public", "creator", "schedule")
    list_filter = ("status", "variant", "public")
    search_fields = ("name", "creator__username")
    raw_id_fields = ("creator",)
    date_hierarchy = "starts_at"
    readonly_fields = ("token", "status")
