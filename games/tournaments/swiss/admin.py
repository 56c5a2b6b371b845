"""Staff pages of the Swiss tournaments: the schedule is made here (a row with its start and
settings: beat's tick starts it on time), the players and boards read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from .models import SwissTournament

if TYPE_CHECKING:
    _SwissAdmin = admin.ModelAdmin[SwissTournament]
else:
    _SwissAdmin = admin.ModelAdmin


@admin.register(SwissTournament)
class SwissTournamentAdmin(_SwissAdmin):
    list_display = ("name", "variant", "rounds", "starts_at", "status", "current_round", "rated", "public")
    list_filter = ("status", "variant", "rated")
    readonly_fields = ("status", "current_round", "next_round_at", "token", "created_at")
